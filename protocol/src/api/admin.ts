import { z } from 'zod';
import {
  TEXT_LIMITS,
  bookingRowSchema,
  errorLogEntrySchema,
  processLogEntrySchema,
  testBookingSchema,
  zIsoDateTime,
  zQueryInt,
  zTransactionId,
} from '../schemas/index';
import { defineRoute } from './route';

export const recentBookingsQuerySchema = z.object({ limit: zQueryInt(1, 5000).default(500) });
export const recentBookingsResponseSchema = z.array(bookingRowSchema).max(5000);

export const recentErrorLogResponseSchema = z.array(errorLogEntrySchema).max(1000);

/** Older entries, newest first, a page at a time before an instant. */
export const errorLogArchiveQuerySchema = z.object({
  before: zIsoDateTime.optional(),
  limit: zQueryInt(1, 1000).default(200),
});

export const processLogResponseSchema = z.array(processLogEntrySchema).max(5000);

export const createTestBookingRequestSchema = testBookingSchema;
export const createTestBookingResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().max(TEXT_LIMITS.message).optional(),
  transactionId: zTransactionId.optional(),
  error: z.string().max(TEXT_LIMITS.message).optional(),
});

export const morningSchedulerResponseSchema = z.object({
  success: z.boolean(),
  message: z.string().max(TEXT_LIMITS.message).optional(),
  error: z.string().max(TEXT_LIMITS.message).optional(),
});

export const adminRoutes = {
  recentBookings: defineRoute({
    method: 'GET',
    path: '/api/admin/bookings/recent',
    area: 'bookings',
    auth: 'admin',
    request: { query: recentBookingsQuerySchema },
    response: recentBookingsResponseSchema,
    summary: 'Recent booking rows, one per locker, newest first',
  }),
  recentErrors: defineRoute({
    method: 'GET',
    path: '/api/admin/logs/recent',
    area: 'logs',
    auth: 'admin',
    request: {},
    response: recentErrorLogResponseSchema,
    summary: 'The latest error log entries',
  }),
  errorArchive: defineRoute({
    method: 'GET',
    path: '/api/admin/logs/archive',
    area: 'logs',
    auth: 'admin',
    request: { query: errorLogArchiveQuerySchema },
    response: recentErrorLogResponseSchema,
    summary: 'Older error log entries (the Archive Log screen)',
  }),
  processLogs: defineRoute({
    method: 'GET',
    path: '/api/admin/logs/pm2',
    area: 'logs',
    auth: 'admin',
    request: {},
    response: processLogResponseSchema,
    summary: "The server's own recent log lines",
  }),
  createTestBooking: defineRoute({
    method: 'POST',
    path: '/api/system/admin/create-test-booking',
    area: 'system',
    auth: 'admin',
    request: { body: createTestBookingRequestSchema },
    response: createTestBookingResponseSchema,
    summary: 'Create a booking by hand for testing',
  }),
  runMorningScheduler: defineRoute({
    method: 'POST',
    path: '/api/system/admin/run-morning-scheduler',
    area: 'system',
    auth: 'admin',
    request: {},
    response: morningSchedulerResponseSchema,
    summary: "Assign lockers and PINs to today's scheduled bookings now",
  }),
} as const;
