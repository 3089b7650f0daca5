import { z } from 'zod';
import {
  TEXT_LIMITS,
  zBookingNote,
  zBookingStatus,
  zEmail,
  zEuros,
  zIsoDateTime,
  zLocationKey,
  zLockerNumber,
  zLockerSize,
  zPersonName,
  zPin,
  zQuantity,
  zTransactionId,
} from './primitives';
import { bookingTotalFits, eurosToCents } from '../pricing/money';

/** Most lockers one booking row list may carry; quantities are at most 3, admin test bookings a few more. */
const MAX_LOCKERS_IN_BOOKING = 10;

/** Duration units the booking state uses: `ore` or `h` for hours, `g` for days (customer spec §3). */
export const DURATION_UNITS = ['ore', 'h', 'g'] as const;

/**
 * A booking's duration: `{ value, unit }` from the booking flows, or a bare number of hours
 * (fast-track saves `duration: 3`).
 */
export const bookingDurationSchema = z.union([
  z.number().int().min(1).max(24),
  z.object({ value: z.number().int().min(1).max(24), unit: z.enum(DURATION_UNITS) }),
]);
export type BookingDuration = z.infer<typeof bookingDurationSchema>;

/** With END_AFTER_START, the refinement of every body that carries a period. */
export const endsAfterStart = (booking: { startTimeIso: string; endTimeIso: string }) =>
  Date.parse(booking.endTimeIso) > Date.parse(booking.startTimeIso);
export const END_AFTER_START = { message: 'The end must be after the start', path: ['endTimeIso'] };

/**
 * The booking record a browser saves as pending (customer spec §3, `POST /api/bookings/save`).
 * The server is the authority: it assigns the transaction id, PIN, lockers and prices itself;
 * the browser's `transactionId`, `pin`, `price` and `prezzoScontato` are accepted for shape only.
 */
export const savedBookingSchema = z
  .object({
    transactionId: zTransactionId.optional(),
    location: zLocationKey,
    startTimeIso: zIsoDateTime,
    endTimeIso: zIsoDateTime,
    createdAtIso: zIsoDateTime.optional(),
    locker: z.object({
      lockerId: zLockerNumber.nullable().optional(),
      size: zLockerSize,
      duration: bookingDurationSchema,
    }),
    reservedLockers: z.array(zLockerNumber).max(MAX_LOCKERS_IN_BOOKING).default([]),
    quantita: zQuantity,
    pin: zPin.optional(),
    prezzoScontato: zEuros.optional(),
    price: zEuros.optional(),
    note: zBookingNote.default(''),
    // Fast-track records repeat a few fields under older names (customer spec §3).
    status: z.literal('pending').optional(),
    createdAt: zIsoDateTime.optional(),
    startTime: zIsoDateTime.optional(),
    endTime: zIsoDateTime.optional(),
    duration: z.number().int().min(1).max(24).optional(),
  })
  .refine(endsAfterStart, END_AFTER_START);
export type SavedBooking = z.infer<typeof savedBookingSchema>;

/**
 * A booking as the completion page reads it back (customer spec §3). A `scheduled` booking has
 * no PIN and no lockers yet: they are assigned on the day.
 */
export const bookingReadBackSchema = z.object({
  transactionId: zTransactionId,
  location: zLocationKey,
  nome: z.string().max(TEXT_LIMITS.name),
  cognome: z.string().max(TEXT_LIMITS.name),
  email: z.string().max(TEXT_LIMITS.email),
  lockerType: zLockerSize,
  quantita: z.number().int().min(1).max(MAX_LOCKERS_IN_BOOKING),
  reservedLockers: z.array(zLockerNumber).max(MAX_LOCKERS_IN_BOOKING),
  startTimeIso: zIsoDateTime,
  endTimeIso: zIsoDateTime,
  price_discounted: zEuros.nullable(),
  /** What the card is (or was) charged: the booking's total, fee and minimum charge included. */
  total: zEuros.optional(),
  status: zBookingStatus,
  pin: zPin.nullable(),
  note: zBookingNote,
});
export type BookingReadBack = z.infer<typeof bookingReadBackSchema>;

/** One row of the admin bookings list: one per locker, several per transaction (admin spec §3). */
export const bookingRowSchema = z.object({
  TRANSACTION_ID: zTransactionId,
  STATUS: zBookingStatus,
  LOCATION_KEY: zLocationKey,
  START_TIME: zIsoDateTime,
  END_TIME: zIsoDateTime,
  created_at: zIsoDateTime,
  locker_id: zLockerNumber.nullable(),
  locker_type: zLockerSize,
  nome: z.string().max(TEXT_LIMITS.name).nullable(),
  cognome: z.string().max(TEXT_LIMITS.name).nullable(),
  email: z.string().max(TEXT_LIMITS.email).nullable(),
  telefono_prefisso: z.string().max(8).nullable(),
  telefono_numero: z.string().max(20).nullable(),
  PIN: zPin.nullable(),
  note: zBookingNote.nullable(),
  price_original: zEuros.nullable(),
  price_discounted: zEuros.nullable(),
  /** Ours, beside the spec's fields: made by an operator as a test, so never counted as takings. */
  is_test: z.boolean().optional(),
});
export type BookingRow = z.infer<typeof bookingRowSchema>;

/** Statuses an admin may give a test booking (admin spec §4). */
export const TEST_BOOKING_STATUSES = ['scheduled', 'pending', 'confirmed', 'expired'] as const;

/**
 * The admin's test booking (admin spec §3). Defaults follow spec §9: status scheduled, type
 * standard, quantity 1. A missing transaction id is generated; a missing PIN is generated for
 * statuses that need one. Specific lockers are only chosen for statuses other than scheduled.
 */
export const testBookingSchema = z
  .object({
    location: zLocationKey,
    status: z.enum(TEST_BOOKING_STATUSES).default('scheduled'),
    type: zLockerSize.default('standard'),
    pin: zPin.nullable().optional(),
    quantity: z.number().int().min(1).max(MAX_LOCKERS_IN_BOOKING).default(1),
    lockerIds: z.array(zLockerNumber).max(MAX_LOCKERS_IN_BOOKING).optional(),
    startTime: zIsoDateTime,
    endTime: zIsoDateTime,
    nome: zPersonName,
    cognome: zPersonName,
    email: zEmail,
    confermaEmail: zEmail.optional(),
    note: zBookingNote.default(''),
    paidAt: zIsoDateTime.nullable().optional(),
    priceOriginal: zEuros.nullable().optional(),
    priceDiscounted: zEuros.nullable().optional(),
    transactionId: zTransactionId.optional(),
  })
  .refine((b) => Date.parse(b.endTime) > Date.parse(b.startTime), {
    message: 'The end must be after the start',
    path: ['endTime'],
  })
  .refine((b) => b.confermaEmail === undefined || b.confermaEmail === b.email, {
    message: 'The confirmation e-mail differs',
    path: ['confermaEmail'],
  })
  .refine((b) => !(b.status === 'scheduled' && b.lockerIds && b.lockerIds.length > 0), {
    message: 'Lockers are assigned on the day for scheduled bookings',
    path: ['lockerIds'],
  })
  .refine((b) => !b.lockerIds || b.lockerIds.length === 0 || b.lockerIds.length === b.quantity, {
    message: 'One locker per unit of quantity',
    path: ['lockerIds'],
  })
  // The booking's total adds the service fee: it too must be an amount the answers can carry. The
  // price charged is the discounted one, else the original one (as the server reads them).
  .superRefine((b, ctx) => {
    const charged = b.priceDiscounted ?? b.priceOriginal;
    if (charged == null || bookingTotalFits(eurosToCents(charged))) return;
    ctx.addIssue({
      code: 'custom',
      message: 'With the service fee the total would pass the largest amount',
      path: [b.priceDiscounted != null ? 'priceDiscounted' : 'priceOriginal'],
    });
  });
export type TestBooking = z.infer<typeof testBookingSchema>;
