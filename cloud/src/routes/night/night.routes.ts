import { nightRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { endpoint } from '../endpoint';

export const nightArea: RouteArea = {
  name: 'night',
  endpoints: ({ services }) => [
    endpoint(nightRoutes.check, ({ body }) =>
      services.availability.nightCheck({
        locationKey: body.locationKey,
        size: body.tipoLocker,
        quantity: body.quantita,
        window: { startAt: new Date(body.startTimeIso), endAt: new Date(body.endTimeIso) },
      }),
    ),
    endpoint(nightRoutes.checkRange, ({ body }) =>
      services.availability.nightRange({
        locationKey: body.locationKey,
        startAt: new Date(body.startTime),
        endAt: new Date(body.endTime),
      }),
    ),
  ],
};
