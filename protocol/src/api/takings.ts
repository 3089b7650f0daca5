import { z } from 'zod';
import {
  takingsDataSchema,
  takingsMonthSchema,
  takingsTestBookingsSchema,
  takingsTotemMissingSchema,
} from '../takings/index';
import {
  connectionTestResultSchema,
  locationConnectionSchema,
  totemRevenueRecordSchema,
  zHost,
  zTimezone,
  zLocationKey,
} from '../schemas/index';
import { defineRoute } from './route';

export const totemProceedsQuerySchema = z.object({ location: zLocationKey, month: takingsMonthSchema });

/** An empty list when the totem system has nothing, or failed, for that month (admin spec §8). */
export const totemProceedsResponseSchema = z.array(totemRevenueRecordSchema).max(100_000);

/** `location=all` or one location's key. */
export const takingsQuerySchema = z.object({
  month: takingsMonthSchema,
  location: z.union([z.literal('all'), zLocationKey]),
  /** `reload=1` skips the server's per-month cache (the page's "Riprova"). */
  reload: z.stringbool().optional(),
});

export const takingsResponseSchema = z.object({
  month: takingsMonthSchema,
  location: z.union([z.literal('all'), zLocationKey]),
  data: takingsDataSchema,
  /**
   * Ours: the locations whose kiosk (totem) payments could not be read, with the reason. Their
   * totem and total amounts in `data` are incomplete and must never be shown as the month's figures.
   */
  totemMissing: z.array(takingsTotemMissingSchema).max(100).default([]),
  /** Ours: per location, the test bookings kept out of the online amounts (count and euros). */
  testBookings: z.record(zLocationKey, takingsTestBookingsSchema).default({}),
});

/**
 * A location as the takings page lists it: its name and the address of its kiosk (Promotec) system,
 * which is the controller's. A location whose controller address is not configured has no kiosk
 * to read: `recipient` is null.
 */
export const takingsLocationConnectionSchema = locationConnectionSchema.extend({
  recipient: zHost.nullable(),
  /** The location's zone: its takings days and the page's current month are its own (absent: older server). */
  timezone: zTimezone.optional(),
});
export type TakingsLocationConnection = z.infer<typeof takingsLocationConnectionSchema>;

export const takingsLocationsResponseSchema = z.array(takingsLocationConnectionSchema).max(100);

/** One location, or every location in turn when `location` is absent. */
export const connectionTestRequestSchema = z.object({ location: zLocationKey.optional() });

/** A tested location: what was tested (name, address) and how it went. */
export const connectionTestReportSchema = takingsLocationConnectionSchema.extend(
  connectionTestResultSchema.omit({ key: true }).shape,
);
export type ConnectionTestReport = z.infer<typeof connectionTestReportSchema>;

export const connectionTestResponseSchema = z.array(connectionTestReportSchema).max(100);

// The takings page's own loading and connection-test calls are not in the spec; these three are ours.
export const takingsRoutes = {
  totemProceeds: defineRoute({
    method: 'GET',
    path: '/api/admin/promotec/proceeds',
    area: 'takings',
    auth: 'admin',
    request: { query: totemProceedsQuerySchema },
    response: totemProceedsResponseSchema,
    summary: "A location's totem payments in a month",
  }),
  monthly: defineRoute({
    method: 'GET',
    path: '/api/admin/takings',
    area: 'takings',
    auth: 'admin',
    request: { query: takingsQuerySchema },
    response: takingsResponseSchema,
    summary: 'Online and totem takings per location and day of a month',
  }),
  locations: defineRoute({
    method: 'GET',
    path: '/api/admin/takings/locations',
    area: 'takings',
    auth: 'admin',
    request: {},
    response: takingsLocationsResponseSchema,
    summary: "Every location's name, key and controller address for the takings page",
  }),
  connectionTest: defineRoute({
    method: 'POST',
    path: '/api/admin/takings/connection-test',
    area: 'takings',
    auth: 'admin',
    request: { body: connectionTestRequestSchema },
    response: connectionTestResponseSchema,
    summary: 'Test the connection of one location, or of all in turn',
  }),
} as const;
