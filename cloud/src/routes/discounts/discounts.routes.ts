import { discountRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { clientKey } from '../../limits/client-key';
import { toDuration } from '../../services/booking.service';
import { endpoint } from '../endpoint';

export const discountsArea: RouteArea = {
  name: 'discounts',
  endpoints: ({ services }) => [
    endpoint(discountRoutes.validate, async ({ body }, req) => {
      await services.visitorLimits.discountCheck(clientKey(req.ip));
      const zone = body.location ? (await services.locations.require(body.location)).zone : undefined;
      return services.discounts.validate({
        code: body.code,
        duration: body.duration === undefined ? null : toDuration(body.duration),
        zone,
      });
    }),
  ],
};
