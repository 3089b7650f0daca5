import { z } from 'zod';
import {
  TEXT_LIMITS,
  lockerFullStateSchema,
  lockerSchema,
  zIsoDateTime,
  zLocationKey,
  zLockerNumber,
  zLockerNumberInput,
  zLockerSize,
  zQuantity,
  zTransactionId,
  zBookingNote,
  zBookingStatus,
  zCents,
  bookingDurationSchema,
  zQueryInt,
} from '../schemas/index';
import { locationQuerySchema } from './common';
import { defineRoute } from './route';

const MAX_LOCKERS_PER_LOCATION = 1000;

export const lockerStateResponseSchema = z.array(lockerSchema).max(MAX_LOCKERS_PER_LOCATION);
export const lockerFullStateResponseSchema = z.array(lockerFullStateSchema).max(MAX_LOCKERS_PER_LOCATION);

/**
 * Hold lockers of a size while the visitor fills the summary (customer spec §7). The server picks
 * the lockers and makes the hold expire with the pending booking. The times are our addition so the
 * hold covers the booked period; without them it covers the next fast-track window (3 hours from now).
 */
export const inhibitMultiRequestSchema = z
  .object({
    locationKey: zLocationKey,
    dimensione: zLockerSize,
    quantita: zQuantity,
    startTimeIso: zIsoDateTime.optional(),
    endTimeIso: zIsoDateTime.optional(),
    transactionId: zTransactionId.optional(),
  })
  .refine((body) => (body.startTimeIso === undefined) === (body.endTimeIso === undefined), {
    message: 'Give both startTimeIso and endTimeIso, or neither',
    path: ['endTimeIso'],
  })
  .refine(
    (body) =>
      body.startTimeIso === undefined ||
      body.endTimeIso === undefined ||
      Date.parse(body.endTimeIso) > Date.parse(body.startTimeIso),
    { message: 'The end must be after the start', path: ['endTimeIso'] },
  );

export const inhibitMultiResponseSchema = z.object({
  success: z.boolean(),
  reservedLockers: z.array(zLockerNumber).max(10),
  message: z.string().max(TEXT_LIMITS.message).optional(),
  /** The pending booking that owns the hold; the browser uses it for the next calls. */
  transactionId: zTransactionId.optional(),
  /** When the hold lapses unless paid. */
  expiresAt: zIsoDateTime.optional(),
});

/** The most an operator may write as the reason for cancelling a booking. */
export const OPERATOR_REASON_MAX_LENGTH = TEXT_LIMITS.note;

/**
 * An operator's action on one locker. The locker id may arrive as text from the number field;
 * `duration` is what the legacy customer page sent to `/inhibit` and is ignored.
 *
 * Disattiva, Attiva and Annulla prenotazione take any booking off the controller's locker, so
 * when a live booking holds the locker (now, or its PIN is on the controller for later) the
 * action also cancels that booking. Without `confirm: true` such a request changes nothing and
 * is answered 409 `locker/booking_live`, whose details (`lockerBookingLiveDetailsSchema`) name the
 * bookings so the page can ask. `reason` is kept with the cancellation; `refund` says whether a
 * paid booking's money is owed back (refund_due) or not (cancelled_by_operator). Left out, a paid
 * booking is owed its money: nobody loses a payment by an omission.
 */
export const lockerActionRequestSchema = z.object({
  location: zLocationKey,
  lockerId: zLockerNumberInput,
  duration: bookingDurationSchema.optional(),
  confirm: z.boolean().optional(),
  reason: z.string().trim().max(OPERATOR_REASON_MAX_LENGTH).optional(),
  refund: z.boolean().optional(),
});

/** A booking an operator's locker action would cancel, as the confirmation dialog shows it. */
export const liveLockerBookingSchema = z.object({
  transactionId: zTransactionId,
  status: zBookingStatus,
  /** Paid and honoured (scheduled, confirmed, confirmed_late): cancelling it may owe a refund. */
  paid: z.boolean(),
  /** What the visitor paid; 0 for an unpaid hold. */
  paidCents: zCents,
  startTimeIso: zIsoDateTime,
  endTimeIso: zIsoDateTime,
  lockerNumbers: z.array(zLockerNumber).max(10),
  customerName: z
    .string()
    .max(2 * TEXT_LIMITS.name + 1)
    .nullable(),
});
export type LiveLockerBooking = z.infer<typeof liveLockerBookingSchema>;

/** `details` of a 409 `locker/booking_live`: the bookings the action would cancel (usually one). */
export const lockerBookingLiveDetailsSchema = z.object({
  lockerId: zLockerNumber,
  bookings: z.array(liveLockerBookingSchema).min(1).max(10),
});
export type LockerBookingLiveDetails = z.infer<typeof lockerBookingLiveDetailsSchema>;

/**
 * The legacy customer page's `POST /api/lockers/inhibit` (customer spec §7): a visitor blocks the one
 * locker it was offered, starting now, for `duration`. It is told apart from the operator's action by
 * the `duration` and the absence of an admin token; the server creates an ordinary pending hold.
 */
export const customerInhibitRequestSchema = z.object({
  location: zLocationKey,
  lockerId: zLockerNumberInput,
  duration: bookingDurationSchema,
  note: zBookingNote.optional(),
});

/** `executed` when the controller confirmed; `queued` when the bridge is offline and will run it later. */
export const lockerActionResponseSchema = z.object({
  success: z.literal(true),
  outcome: z.enum(['executed', 'queued']),
  commandId: z.string().max(80).optional(),
  message: z.string().max(TEXT_LIMITS.message).optional(),
  /** The bookings the action cancelled (confirmed by the operator), with the status each went to. */
  cancelledBookings: z
    .array(z.object({ transactionId: zTransactionId, status: zBookingStatus }))
    .max(10)
    .optional(),
});

const lockerAction = <
  const Path extends string,
  Response extends z.ZodType = typeof lockerActionResponseSchema,
>(
  path: Path,
  summary: string,
  response: Response = lockerActionResponseSchema as unknown as Response,
) =>
  defineRoute({
    method: 'POST',
    path,
    area: 'lockers',
    auth: 'admin',
    request: { body: lockerActionRequestSchema },
    response,
    // 202 with outcome 'queued': the bridge is offline and runs the command when it is back.
    alsoStatuses: [202],
    summary,
  });

/** `?location=…&lockerId=…`: one locker of a location. */
export const lockerHistoryQuerySchema = z.object({ location: zLocationKey, lockerId: zQueryInt(1, 99_999) });

const shortText = z.string().max(TEXT_LIMITS.shortText);

/**
 * One thing that happened to a locker, from whichever record keeps it: a booking on it, a move of
 * such a booking, a command sent to it, what its controller reported, an operator's action.
 */
export const lockerHistoryEntrySchema = z.discriminatedUnion('source', [
  z.object({
    source: z.literal('booking'),
    at: zIsoDateTime,
    transactionId: zTransactionId,
    status: zBookingStatus,
    startAt: zIsoDateTime,
    endAt: zIsoDateTime,
    name: shortText,
  }),
  z.object({
    source: z.literal('booking_event'),
    at: zIsoDateTime,
    transactionId: zTransactionId,
    from: zBookingStatus,
    to: zBookingStatus,
    actor: shortText,
    reason: shortText,
    detail: z.string().max(TEXT_LIMITS.message).nullable(),
  }),
  z.object({
    source: z.literal('command'),
    at: zIsoDateTime,
    op: shortText,
    status: shortText,
    error: z.string().max(TEXT_LIMITS.message).nullable(),
    transactionId: zTransactionId.nullable(),
  }),
  z.object({
    source: z.literal('controller'),
    at: zIsoDateTime,
    kind: shortText,
    /** The event as the bridge reported it, e.g. {"door":"opened"}. */
    payload: z.string().max(TEXT_LIMITS.message),
  }),
  z.object({
    source: z.literal('operator'),
    at: zIsoDateTime,
    type: shortText,
    message: z.string().max(4000),
  }),
]);
export type LockerHistoryEntry = z.infer<typeof lockerHistoryEntrySchema>;
export const lockerHistoryResponseSchema = z.array(lockerHistoryEntrySchema).max(500);

export const lockerRoutes = {
  state: defineRoute({
    method: 'GET',
    path: '/api/lockers/state',
    area: 'lockers',
    auth: 'public',
    request: { query: locationQuerySchema },
    response: lockerStateResponseSchema,
    summary: "A location's lockers with size and status, without booking references",
  }),
  lockerHistory: defineRoute({
    method: 'GET',
    path: '/api/lockers/history',
    area: 'lockers',
    auth: 'admin',
    request: { query: lockerHistoryQuerySchema },
    response: lockerHistoryResponseSchema,
    summary:
      "One locker's history, newest first: its bookings and their moves, the commands sent to it, what its controller reported and what operators did",
  }),
  fullState: defineRoute({
    method: 'GET',
    path: '/api/lockers/full-state',
    area: 'lockers',
    auth: 'admin',
    request: { query: locationQuerySchema },
    response: lockerFullStateResponseSchema,
    summary: "A location's lockers with status and the transaction occupying each",
  }),
  inhibitMulti: defineRoute({
    method: 'POST',
    path: '/api/lockers/inhibit-multi',
    area: 'lockers',
    auth: 'public',
    request: { body: inhibitMultiRequestSchema },
    response: inhibitMultiResponseSchema,
    summary: 'Hold up to 3 lockers of a size for a pending booking',
  }),
  open: lockerAction('/api/lockers/open', 'Open a locker (Apri)'),
  inhibit: lockerAction(
    '/api/lockers/inhibit',
    'Take a locker out of service (Disattiva). Without a token and with a duration: a visitor holds that one locker from now (customerInhibitRequestSchema → inhibitMultiResponseSchema)',
    // Two callers, two answers (customer spec §7, admin spec §7): the contract admits both.
    z.union([lockerActionResponseSchema, inhibitMultiResponseSchema]),
  ),
  unbook: lockerAction('/api/lockers/unbook', 'Put a locker back in service (Attiva)'),
  unbookSoap: lockerAction(
    '/api/lockers/unbook-soap',
    'Cancel the booking on a locker at the controller (Annulla prenotazione)',
  ),
} as const;
