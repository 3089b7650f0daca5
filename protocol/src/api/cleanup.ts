import { z } from 'zod';
import { BOOKING_STATUSES } from '../booking/index';
import {
  MAX_CLEANUP_AGE_DAYS,
  cleanupFilterSchema,
  cleanupPreviewSchema,
  cleanupResultSchema,
  cleanupStatsSchema,
  zBookingStatus,
  zQueryBoolean,
  zQueryInt,
} from '../schemas/index';
import { adminEnvelopeSchema } from './common';
import { defineRoute } from './route';

/** `statuses=expired,cancelled` → ['expired', 'cancelled']. */
const statusListQuery = z
  .string()
  .max(200)
  .transform((text) =>
    text
      .split(',')
      .map((status) => status.trim())
      .filter((status) => status !== ''),
  )
  .pipe(z.array(zBookingStatus).min(1).max(BOOKING_STATUSES.length));

/** The preview reads the filter from the query; missing parts take the spec defaults. */
export const cleanupPreviewQuerySchema = z.object({
  statuses: statusListQuery.default(['expired']),
  olderThanDays: zQueryInt(0, MAX_CLEANUP_AGE_DAYS).default(30),
  excludeWithLocker: zQueryBoolean.default(true),
});

/** Deleting needs the whole filter spelled out: no defaults on a destructive call. */
export const cleanupExecuteRequestSchema = z.object({
  statuses: cleanupFilterSchema.shape.statuses.unwrap(),
  olderThanDays: cleanupFilterSchema.shape.olderThanDays.unwrap(),
  excludeWithLocker: cleanupFilterSchema.shape.excludeWithLocker.unwrap(),
});

export const cleanupPreviewResponseSchema = adminEnvelopeSchema(cleanupPreviewSchema);
export const cleanupExecuteResponseSchema = adminEnvelopeSchema(cleanupResultSchema);
export const cleanupStatsResponseSchema = adminEnvelopeSchema(cleanupStatsSchema);

export const cleanupRoutes = {
  preview: defineRoute({
    method: 'GET',
    path: '/api/admin/cleanup/preview',
    area: 'cleanup',
    auth: 'admin',
    request: { query: cleanupPreviewQuerySchema },
    response: cleanupPreviewResponseSchema,
    summary: 'How many bookings the cleanup filter would delete',
  }),
  execute: defineRoute({
    method: 'POST',
    path: '/api/admin/cleanup/execute',
    area: 'cleanup',
    auth: 'admin',
    request: { body: cleanupExecuteRequestSchema },
    response: cleanupExecuteResponseSchema,
    summary: 'Delete the bookings the filter selects',
  }),
  stats: defineRoute({
    method: 'GET',
    path: '/api/admin/cleanup/stats',
    area: 'cleanup',
    auth: 'admin',
    request: {},
    response: cleanupStatsResponseSchema,
    summary: 'Booking counts by status and older than 30 days',
  }),
} as const;
