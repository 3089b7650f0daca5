import {
  isHoldBookingStatus,
  type BookingStatus,
  type Duration,
  type Language,
  type LockerSize,
} from '@deposito/protocol';

// What a reservation asks for and answers, and the rows it writes: shared by the SQLite path
// (sqlite-reservations.ts, synchronous on the handle) and the rest of the booking repository.

/** Most reservations written under one SQLite commit or one PostgreSQL batch, so other writers never wait long. */
export const MAX_GROUPED_RESERVATIONS = 32;

export interface Customer {
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phonePrefix: string | null;
  phoneNumber: string | null;
}

export interface ReservedLocker {
  lockerId: number;
  number: number;
  /** False once the booking stopped holding the locker (expired, cancelled). */
  active: boolean;
}

export interface BookingRecord {
  transactionId: string;
  locationKey: string;
  status: BookingStatus;
  startAt: Date;
  endAt: Date;
  size: LockerSize;
  quantity: number;
  duration: Duration;
  priceOriginalCents: number;
  priceDiscountedCents: number;
  feeCents: number;
  totalCents: number;
  discountCode: string | null;
  customer: Customer;
  note: string;
  lang: Language;
  pin: string | null;
  providerReference: string | null;
  createdAt: Date;
  updatedAt: Date;
  /** When an unpaid hold lapses; null once paid or ended. */
  expiresAt: Date | null;
  paidAt: Date | null;
  lockers: ReservedLocker[];
}

export type NewBooking = Omit<
  BookingRecord,
  'lockers' | 'createdAt' | 'updatedAt' | 'paidAt' | 'providerReference'
>;

export interface ReservationRequest {
  booking: NewBooking;
  /** Most lockers of this size the location sells online at one instant. */
  maxOnline: number;
  now: Date;
  /** Exactly these locker numbers (a visitor blocking one locker); otherwise the lowest free numbers. */
  lockerNumbers?: readonly number[];
  /**
   * The booking's id is an existing pending hold: its lockers are given back and the new ones taken
   * in the same step, so a changed window or size never leaves the visitor with nothing or with both.
   */
  replaceHold?: boolean;
  /**
   * PINs to choose from, in order: the booking gets the first that no booking holding lockers at the
   * location uses (as `pinsInUse` sees it), checked in the same step; `booking.pin` is kept when absent.
   */
  pinCandidates?: readonly string[];
}

export type ReservationResult =
  | { ok: true; booking: BookingRecord; expired: string[] }
  | { ok: false; reason: 'unavailable'; available: number }
  | { ok: false; reason: 'hold_missing' }
  /** Every PIN candidate is in use at the location: ask again with others, or with `booking.pin`. */
  | { ok: false; reason: 'pins_taken' };

/** A refused reservation: its savepoint (SQLite) or call (PostgreSQL) is undone, the refusal answered. */
export class ReservationRejected extends Error {
  constructor(readonly result: Exclude<ReservationResult, { ok: true }>) {
    super('reservation rejected');
  }
}

/** The record a reservation wrote, as `get` would read it back: lockers lowest number first. */
export function reservedBooking(
  booking: NewBooking,
  now: Date,
  lockers: ReservedLocker[],
  kept: Pick<BookingRecord, 'createdAt' | 'providerReference' | 'paidAt'>,
): BookingRecord {
  return {
    ...booking,
    customer: { ...booking.customer },
    duration: { ...booking.duration },
    updatedAt: now,
    ...kept,
    lockers: [...lockers].sort((a, b) => a.number - b.number),
  };
}

export function customerColumns(customer: Customer) {
  return {
    first_name: customer.firstName,
    last_name: customer.lastName,
    email: customer.email,
    phone_prefix: customer.phonePrefix,
    phone_number: customer.phoneNumber,
  };
}

export function bookingRow(booking: NewBooking, now: Date) {
  // The lapsed-hold rule reads a hold's expiry (`lapsedHoldIds`): a hold without one would hold its
  // lockers for ever.
  if (isHoldBookingStatus(booking.status) && booking.expiresAt === null) {
    throw new Error(`A hold (${booking.status}) needs an expiry: ${booking.transactionId}`);
  }
  return {
    transaction_id: booking.transactionId,
    location_key: booking.locationKey,
    status: booking.status,
    start_at: booking.startAt,
    end_at: booking.endAt,
    size: booking.size,
    quantity: booking.quantity,
    duration_value: booking.duration.value,
    duration_unit: booking.duration.unit,
    price_original_cents: booking.priceOriginalCents,
    price_discounted_cents: booking.priceDiscountedCents,
    fee_cents: booking.feeCents,
    total_cents: booking.totalCents,
    discount_code: booking.discountCode,
    ...customerColumns(booking.customer),
    note: booking.note,
    lang: booking.lang,
    pin: booking.pin,
    created_at: now,
    updated_at: now,
    expires_at: booking.expiresAt,
  };
}
