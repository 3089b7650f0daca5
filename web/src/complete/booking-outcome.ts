import type { BookingStatus } from '@deposito/protocol/booking/status';

/**
 * What the completion page tells the visitor about a booking, by its status. A booking is called
 * confirmed only when it is paid and honoured; every other status says what happened to the money.
 */
export type BookingOutcome =
  /** Paid: PIN and lockers now (confirmed, confirmed_late). */
  | 'paid'
  /** Paid for a later day: PIN and lockers are assigned and sent on the day. */
  | 'scheduled'
  /** The payment page is open or its result has not reached us yet. */
  | 'processing'
  /** The card was declined; the hold lives on and may be paid again. */
  | 'declined'
  /** Not paid in time: the lockers were released. */
  | 'expired'
  /** Cancelled by the visitor or an operator, nothing owed. */
  | 'cancelled'
  /** Money was taken but the booking is not honoured: an operator refunds it. */
  | 'refund'
  /** A hold nobody has started paying. */
  | 'unpaid';

// A Record, so a status added to protocol fails the type check until it has an outcome here.
const OUTCOMES: Record<BookingStatus, BookingOutcome> = {
  confirmed: 'paid',
  confirmed_late: 'paid',
  scheduled: 'scheduled',
  paying: 'processing',
  payment_declined: 'declined',
  expired: 'expired',
  cancelled: 'cancelled',
  cancelled_by_operator: 'cancelled',
  failed_after_payment: 'refund',
  refund_due: 'refund',
  refunded: 'refund',
  pending: 'unpaid',
};

export function bookingOutcome(status: BookingStatus): BookingOutcome {
  return OUTCOMES[status];
}
