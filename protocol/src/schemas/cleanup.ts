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

export const cleanupPreviewSchema = z.object({
  totalBookings: zCount,
  totalTransactions: zCount,
  statusBreakdown: z.array(z.object({ status: zBookingStatus, count: zCount })).max(BOOKING_STATUSES.length),
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
});
export type CleanupResult = z.infer<typeof cleanupResultSchema>;
