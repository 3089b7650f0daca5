import { availabilityRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { endpoint } from '../endpoint';

// Today and later days answer the same way: the day's window starts at "now" only for today.
export const availabilityArea: RouteArea = {
  name: 'availability',
  endpoints: ({ services }) =>
    [availabilityRoutes.today, availabilityRoutes.future].map((route) =>
      endpoint(route, ({ query }) =>
        services.availability.availabilityForRange(query.location, query.startDate, query.endDate),
      ),
    ),
};
