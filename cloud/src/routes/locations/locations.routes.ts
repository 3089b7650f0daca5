import { locationRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { endpoint } from '../endpoint';

export const locationsArea: RouteArea = {
  name: 'locations',
  endpoints: ({ services }) => [
    endpoint(locationRoutes.publicLocation, ({ params }) =>
      services.locations.publicLocation(params.location),
    ),
  ],
};
