import { z } from 'zod';
import { BOOKING_STATUSES } from '../booking/index';
import { zBookingStatus, zCount } from './primitives';

export const MAX_CLEANUP_AGE_DAYS = 365;

/** Which old bookings the cleanup removes (admin spec §5, §9 for the defaults). */
export const cleanupFilterSchema = z.object({
  statuses: z.array(zBookingStatus).min(1).max(BOOKING_STATUSES.length).default(['expired']),
  olderThanDays: z.number().int().min(0).max(MAX_CLEANUP_AGE_DAYS).default(30),
  excludeWithLocker: z.boolean().default(true),
});
export type CleanupFilter = z.infer<typeof cleanupFilterSchema>;

const statusBreakdownSchema = z
  .array(z.object({ status: zBookingStatus, count: zCount }))
  .max(BOOKING_STATUSES.length);

/**
 * Why a cleanup left bookings the filter matched: `not_ended` = paid or still holding lockers and
 * their period is not over (deleting them would drop takings and PINs), or money is owed back to
 * the visitor (kept until refunded, however old).
 */
export const CLEANUP_KEPT_REASONS = ['not_ended'] as const;

/** What the filter matched but the cleanup never deletes, counted like the rest. */
export const cleanupKeptSchema = z.object({
  totalBookings: zCount,
  totalTransactions: zCount,
  statusBreakdown: statusBreakdownSchema,
  reason: z.enum(CLEANUP_KEPT_REASONS),
});
export type CleanupKept = z.infer<typeof cleanupKeptSchema>;

export const cleanupPreviewSchema = z.object({
  totalBookings: zCount,
  totalTransactions: zCount,
  statusBreakdown: statusBreakdownSchema,
  /** Matched by the filter, left out of the deletion (always sent by this server). */
  kept: cleanupKeptSchema.optional(),
});
export type CleanupPreview = z.infer<typeof cleanupPreviewSchema>;

export const cleanupStatsSchema = z.object({
  totalBookings: zCount,
  oldBookings: z.object({ count: zCount }),
  byStatus: z.array(z.object({ STATUS: zBookingStatus, count: zCount })).max(BOOKING_STATUSES.length),
});
export type CleanupStats = z.infer<typeof cleanupStatsSchema>;

export const cleanupResultSchema = z.object({
  deletedRows: zCount,
  totalTransactions: zCount,
  /** Matched by the filter and not deleted (always sent by this server). */
  kept: cleanupKeptSchema.optional(),
});
export type CleanupResult = z.infer<typeof cleanupResultSchema>;
