import { adminRoutes, authRoutes, discountRoutes, locationRoutes, settingsRoutes } from '@deposito/protocol';
import type { ApiRoute } from '@deposito/protocol/api/route';
import { queryOptions } from '@tanstack/react-query';
import type { RouteCall } from '../../api/call-route';
import { adminCall } from '../admin-api';

/** The location reads join up several kiosks' data on the server: they get longer than the default. */
const LOCATIONS_TIMEOUT_MS = 5_000;

/** The read of one admin route that takes no parameters, cached under `queryKey`. */
function adminRead<Route extends ApiRoute>(queryKey: readonly string[], route: Route, timeoutMs?: number) {
  return () =>
    queryOptions({
      queryKey,
      // A generic route's call type stays unresolved for TypeScript; each read's route fixes it.
      queryFn: ({ signal }) => adminCall(route, { timeoutMs, signal } as RouteCall<Route>),
    });
}

/**
 * The admin reads, each with its key. Keys are nested by what a save changes: invalidating
 * `['locations']` refreshes every list of locations whichever page shows it.
 */
export const adminQueries = {
  discounts: adminRead(['discounts'], discountRoutes.list),
  users: adminRead(['users'], authRoutes.listUsers),
  /** Every location's summary (name, zone, hours, lockers, prices), for choices and settings. */
  locationSummaries: adminRead(
    ['locations', 'summaries'],
    locationRoutes.listLocations,
    LOCATIONS_TIMEOUT_MS,
  ),
  /** Every location with its controller connection, as Gestione Sedi edits them. */
  locationsForEdit: adminRead(['locations', 'edit'], locationRoutes.adminLocations, LOCATIONS_TIMEOUT_MS),
  locationsFull: adminRead(['locations', 'full'], locationRoutes.locationsFull, LOCATIONS_TIMEOUT_MS),
  systemSettings: adminRead(['settings', 'system'], settingsRoutes.getSystem),
  recentErrors: adminRead(['logs', 'errors'], adminRoutes.recentErrors),
  processLogs: adminRead(['logs', 'process'], adminRoutes.processLogs),
  alerts: adminRead(['alerts'], adminRoutes.alerts),
};
