import { adminRoutes, authRoutes, discountRoutes, locationRoutes, settingsRoutes } from '@deposito/protocol';
import { queryOptions } from '@tanstack/react-query';
import { adminCall } from '../admin-api';

/**
 * The admin reads, each with its key. Keys are nested by what a save changes: invalidating
 * `['locations']` refreshes every list of locations whichever page shows it.
 */
export const adminQueries = {
  discounts: () =>
    queryOptions({
      queryKey: ['discounts'],
      queryFn: ({ signal }) => adminCall(discountRoutes.list, { signal }),
    }),
  users: () =>
    queryOptions({
      queryKey: ['users'],
      queryFn: ({ signal }) => adminCall(authRoutes.listUsers, { signal }),
    }),
  /** Every location's summary (name, zone, hours, lockers, prices), for choices and settings. */
  locationSummaries: () =>
    queryOptions({
      queryKey: ['locations', 'summaries'],
      queryFn: ({ signal }) => adminCall(locationRoutes.listLocations, { timeoutMs: 5_000, signal }),
    }),
  /** Every location with its controller connection, as Gestione Sedi edits them. */
  locationsForEdit: () =>
    queryOptions({
      queryKey: ['locations', 'edit'],
      queryFn: ({ signal }) => adminCall(locationRoutes.adminLocations, { timeoutMs: 5_000, signal }),
    }),
  locationsFull: () =>
    queryOptions({
      queryKey: ['locations', 'full'],
      queryFn: ({ signal }) => adminCall(locationRoutes.locationsFull, { timeoutMs: 5_000, signal }),
    }),
  systemSettings: () =>
    queryOptions({
      queryKey: ['settings', 'system'],
      queryFn: ({ signal }) => adminCall(settingsRoutes.getSystem, { signal }),
    }),
  recentErrors: () =>
    queryOptions({
      queryKey: ['logs', 'errors'],
      queryFn: ({ signal }) => adminCall(adminRoutes.recentErrors, { signal }),
    }),
  processLogs: () =>
    queryOptions({
      queryKey: ['logs', 'process'],
      queryFn: ({ signal }) => adminCall(adminRoutes.processLogs, { signal }),
    }),
  alerts: () =>
    queryOptions({
      queryKey: ['alerts'],
      queryFn: ({ signal }) => adminCall(adminRoutes.alerts, { signal }),
    }),
};
