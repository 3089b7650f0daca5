import { z } from 'zod';
import {
  TEXT_LIMITS,
  bookingRowSchema,
  errorLogEntrySchema,
  processLogEntrySchema,
  testBookingSchema,
  zIsoDateTime,
  zLocationKey,
  zLockerNumber,
  zQueryInt,
  zTransactionId,
} from '../schemas/index';
import { okResponseSchema } from './common';
import { extensionOfferSchema } from './my-booking';
import { defineRoute } from './route';
import { BOOKING_ACTORS, BOOKING_STATUSES } from '../booking/status';

/** `byHand`: the operator gave the money back outside the gateway and records it; else the gateway is asked. */
export const refundBookingRequestSchema = z.object({ byHand: z.boolean().default(false) });

/**
 * An operator gives a stay more time without charge (a fault on site, a goodwill gesture): one of
 * the offered ends, and why (kept in the booking's history and the audit trail).
 */
export const extendBookingRequestSchema = z.object({
  endIso: zIsoDateTime,
  reason: z.string().trim().min(3).max(200),
});
export const extendBookingResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().max(TEXT_LIMITS.message),
  /** The extension's own booking reference, and the stay's new end. */
  extension: zTransactionId,
  endIso: zIsoDateTime,
});
export type ExtendBookingResponse = z.infer<typeof extendBookingResponseSchema>;
export const refundBookingResponseSchema = z.object({
  success: z.boolean(),
  status: z.enum(BOOKING_STATUSES),
  message: z.string().max(500),
});
export type RefundBookingResponse = z.infer<typeof refundBookingResponseSchema>;

/** The booking's e-mail queued again: which one, and to which address, in Italian. */
export const resendBookingEmailResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().max(500),
});
export type ResendBookingEmailResponse = z.infer<typeof resendBookingEmailResponseSchema>;

/** One of the booking's lockers (`from`) given up for another free one of its size (`to`). */
export const moveBookingLockerRequestSchema = z
  .object({ from: zLockerNumber, to: zLockerNumber })
  .refine((body) => body.from !== body.to, { message: 'The new locker is the same', path: ['to'] });
export const moveBookingLockerResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().max(500),
  lockers: z.array(zLockerNumber),
});
export type MoveBookingLockerResponse = z.infer<typeof moveBookingLockerResponseSchema>;

/** An operator's alert (issue 17): a bridge offline, a door open, a command failed, a PIN or a payment to check. */
export const alertSchema = z.object({
  id: z.number().int().min(1),
  kind: z.string().max(40),
  locationKey: zLocationKey.nullable(),
  lockerId: zLockerNumber.nullable(),
  message: z.string().max(1000),
  raisedAt: zIsoDateTime,
  /** Its cause went away (null while it lasts). */
  resolvedAt: zIsoDateTime.nullable(),
  acknowledgedAt: zIsoDateTime.nullable(),
  acknowledgedBy: z.string().max(254).nullable(),
});
export type Alert = z.infer<typeof alertSchema>;
export const alertsResponseSchema = z.array(alertSchema).max(500);

/** One move of a booking, as recorded: when, from and to which status, by whom, why. */
export const bookingHistoryEntrySchema = z.object({
  at: zIsoDateTime,
  from: z.enum(BOOKING_STATUSES),
  to: z.enum(BOOKING_STATUSES),
  actor: z.enum(BOOKING_ACTORS),
  reason: z.string().max(100),
  detail: z.string().max(1000).nullable(),
  /** The visitor's extension of the stay this move was of, when not of the booking itself. */
  extension: zTransactionId.optional(),
});
export const bookingHistoryResponseSchema = z.array(bookingHistoryEntrySchema);
export type BookingHistoryEntry = z.infer<typeof bookingHistoryEntrySchema>;

export const recentBookingsQuerySchema = z.object({
  limit: zQueryInt(1, 5000).default(500),
  /**
   * Only bookings whose reference, name, e-mail or phone contains this (any case; the phone by its
   * digits), however old: an operator looking up a visitor who calls.
   */
  q: z.string().trim().min(2).max(TEXT_LIMITS.shortText).optional(),
});
export const recentBookingsResponseSchema = z.array(bookingRowSchema).max(5000);

export const recentErrorLogResponseSchema = z.array(errorLogEntrySchema).max(1000);

/**
 * Older entries, newest first, a page at a time before an instant; narrowed (the audit trail) to a
 * kind of entry (`admin/` is every operator's action), a site, a locker, a period, or a text in the
 * message (an operator's e-mail: each action names who did it).
 */
export const errorLogArchiveQuerySchema = z.object({
  before: zIsoDateTime.optional(),
  limit: zQueryInt(1, 1000).default(200),
  /** The type, or the start of types (`admin/`, `bridge/`). */
  type: z.string().trim().min(1).max(80).optional(),
  location: zLocationKey.optional(),
  locker: zQueryInt(1, 99_999).optional(),
  /** Entries at or after this instant (with `before`, a period). */
  from: zIsoDateTime.optional(),
  q: z.string().trim().min(2).max(TEXT_LIMITS.shortText).optional(),
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
    summary:
      'Recent booking rows, one per locker, newest first; `q` searches reference, name, e-mail and phone',
  }),
  bookingHistory: defineRoute({
    method: 'GET',
    path: '/api/admin/bookings/:transactionId/history',
    area: 'bookings',
    auth: 'admin',
    request: { params: z.object({ transactionId: zTransactionId }) },
    response: bookingHistoryResponseSchema,
    summary:
      "A booking's history: every move of its status (payments, cancellations, refunds), oldest first (BOOKING_NOT_FOUND)",
  }),
  bookingExtension: defineRoute({
    method: 'GET',
    path: '/api/admin/bookings/:transactionId/extension',
    area: 'bookings',
    auth: 'admin',
    request: { params: z.object({ transactionId: zTransactionId }) },
    response: extensionOfferSchema,
    summary: "The longer stays a booking's stay may be given now, or why none (BOOKING_NOT_FOUND)",
  }),
  extendBooking: defineRoute({
    method: 'POST',
    path: '/api/admin/bookings/:transactionId/extend',
    area: 'bookings',
    auth: 'admin',
    request: { params: z.object({ transactionId: zTransactionId }), body: extendBookingRequestSchema },
    response: extendBookingResponseSchema,
    summary:
      'Gives the stay more time on its lockers without charge, as the operator (my_booking/extension_not_available, my_booking/extension_locker_taken)',
  }),
  refundBooking: defineRoute({
    method: 'POST',
    path: '/api/admin/bookings/:transactionId/refund',
    area: 'bookings',
    auth: 'admin',
    request: {
      params: z.object({ transactionId: zTransactionId }),
      body: refundBookingRequestSchema,
    },
    response: refundBookingResponseSchema,
    summary:
      'A refund owed: asked of the payment gateway, or recorded as made by hand (booking/invalid_state unless refund_due)',
  }),
  resendBookingEmail: defineRoute({
    method: 'POST',
    path: '/api/admin/bookings/:transactionId/resend',
    area: 'bookings',
    auth: 'admin',
    request: { params: z.object({ transactionId: zTransactionId }) },
    response: resendBookingEmailResponseSchema,
    summary:
      "Sends the booking's confirmation (with the PIN) or scheduled notice again to its own e-mail (my_booking/resend_not_available when it has none to send)",
  }),
  moveBookingLocker: defineRoute({
    method: 'POST',
    path: '/api/admin/bookings/:transactionId/move',
    area: 'bookings',
    auth: 'admin',
    request: { params: z.object({ transactionId: zTransactionId }), body: moveBookingLockerRequestSchema },
    response: moveBookingLockerResponseSchema,
    summary:
      'Moves a paid booking from one of its lockers to a free one of the same size for the rest of its stay; the PIN follows (booking/locker_unavailable when taken)',
  }),
  alerts: defineRoute({
    method: 'GET',
    path: '/api/admin/alerts',
    area: 'logs',
    auth: 'admin',
    request: {},
    response: alertsResponseSchema,
    summary: 'The alerts operators still have to see (not acknowledged, or still going on), newest first',
  }),
  acknowledgeAlert: defineRoute({
    method: 'POST',
    path: '/api/admin/alerts/:id/acknowledge',
    area: 'logs',
    auth: 'admin',
    request: { params: z.object({ id: zQueryInt(1, 2_147_483_647) }) },
    response: okResponseSchema,
    summary:
      'An operator has seen the alert; it closes once its cause is gone (route/not_found when there is no such open alert)',
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
    summary:
      'Older error log entries (the Archive Log screen), narrowed by type prefix, site, locker, period and text: the audit trail',
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
