import { locationRoutes } from '@deposito/protocol';
import { adminOf } from '../../auth/require-admin';
import { endpoint, type Endpoint } from '../endpoint';
import type { AdminServices } from '../../app-context';

export function adminLocationEndpoints(admin: AdminServices): Endpoint[] {
  const { locations } = admin;
  return [
    endpoint(locationRoutes.listLocations, () => locations.summaries()),
    endpoint(locationRoutes.adminLocations, () => locations.keyed()),
    endpoint(locationRoutes.locationsFull, () => locations.keyed()),

    endpoint(locationRoutes.createLocation, async ({ body }, _req, res) => ({
      success: true as const,
      location: await locations.create(adminOf(res), body),
    })),

    endpoint(locationRoutes.updateLocation, async ({ params, body }, _req, res) => ({
      success: true as const,
      location: await locations.update(adminOf(res), params.id, body),
    })),

    endpoint(locationRoutes.deleteLocation, async ({ params }, _req, res) => {
      await locations.delete(adminOf(res), params.id);
      return { success: true as const, message: `Sede ${params.id} eliminata` };
    }),

    endpoint(locationRoutes.updatePrices, async ({ body }, _req, res) => {
      await locations.updatePrices(adminOf(res), body);
      return { success: true as const, message: 'Prezzi salvati' };
    }),

    endpoint(locationRoutes.updateSettings, async ({ body }, _req, res) => {
      await locations.updateSettings(adminOf(res), body);
      return { success: true as const, message: 'Impostazioni salvate' };
    }),

    endpoint(locationRoutes.updateLockerStructure, async ({ body }, _req, res) => {
      await locations.updateLockerCounts(adminOf(res), body);
      return { success: true as const, message: 'Struttura locker salvata' };
    }),

    endpoint(locationRoutes.duplicateStructure, async ({ body }, _req, res) => {
      await locations.duplicateStructure(adminOf(res), body.sourceKey, body.targetKey);
      return {
        success: true as const,
        message: `Struttura duplicata da ${body.sourceKey} a ${body.targetKey}`,
      };
    }),
  ];
}
