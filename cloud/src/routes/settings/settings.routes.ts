import { settingsRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { endpoint } from '../endpoint';

export const settingsArea: RouteArea = {
  name: 'settings',
  endpoints: ({ services }) => [
    // Public despite its path: every booking page reads it first. The location must exist.
    endpoint(settingsRoutes.frontendOverrides, async ({ query }) => {
      await services.locations.require(query.location);
      return services.settings.frontendOverrides();
    }),
  ],
};
