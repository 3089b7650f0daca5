/**
 * The one life of a booking: every status it can have and every move between them, with who may
 * make each move. Every writer in the cloud goes through `assertTransition` (the store refuses a
 * move this table does not allow), so money, bookings and doors cannot drift apart behind one
 * another's back.
 *
 *   pending ──visitor opens payment──► paying ──provider: declined──► payment_declined
 *      │  ▲ (edits allowed only here)    │  ▲──────visitor retries──────────┘
 *      │                                 │
 *      ├─ visitor cancels ─► cancelled   ├─ provider: paid, amount = total ─► confirmed | scheduled
 *      ├─ operator: free extension ─► confirmed (an extension hold of no amount)
 *      ├─ hold lapses ─────► expired     └─ provider: paid, amount ≠ total ─► failed_after_payment
 *      └─ operator frees ──► cancelled_by_operator
 *
 *   expired | cancelled ──provider: paid late──► confirmed_late | failed_after_payment
 *   scheduled ──morning of its day──► confirmed
 *   scheduled | confirmed | confirmed_late ──operator cancels──► refund_due | cancelled_by_operator
 *   failed_after_payment ──operator──► refund_due
 *   refund_due ──provider: refund made (or operator: refunded by hand)──► refunded
 *   cancelled_by_operator (unpaid) ──provider: paid after all──► failed_after_payment
 */

/** Every status a booking can have (the admin area's list, in its order). */
export const BOOKING_STATUSES = [
  'pending',
  'scheduled',
  'confirmed',
  'cancelled',
  'expired',
  'confirmed_late',
  'failed_after_payment',
  'paying',
  'payment_declined',
  'cancelled_by_operator',
  'refund_due',
  'refunded',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/** A named group of statuses, in its order: checked against the list, kept as literal types. */
function statusGroup<const Group extends readonly BookingStatus[]>(statuses: Group): Group {
  return statuses;
}

/**
 * Unpaid holds: they keep their lockers until `expiresAt`, then lapse. Only `pending` may still be
 * changed; once a payment page has been opened for its amount the hold is frozen.
 */
export const HOLD_BOOKING_STATUSES = statusGroup(['pending', 'paying', 'payment_declined']);
export type HoldBookingStatus = (typeof HOLD_BOOKING_STATUSES)[number];

/** Paid and honoured: the visitor has (or will have on the day) lockers and a PIN. Counted in takings. */
export const PAID_BOOKING_STATUSES = statusGroup(['scheduled', 'confirmed', 'confirmed_late']);
export type PaidBookingStatus = (typeof PAID_BOOKING_STATUSES)[number];

/**
 * Paid and handed over now: the booking has its lockers and its PIN (a scheduled one gets them on
 * its day). Its PIN is on the controller, the visitor sees it, an operator may move or extend it.
 */
export const HANDED_OVER_BOOKING_STATUSES = statusGroup(['confirmed', 'confirmed_late']);

/**
 * Statuses that hold lockers: unpaid holds inside their payment window and paid bookings.
 * Availability counts these.
 */
export const ACTIVE_BOOKING_STATUSES = statusGroup([...HOLD_BOOKING_STATUSES, ...PAID_BOOKING_STATUSES]);
export type ActiveBookingStatus = (typeof ACTIVE_BOOKING_STATUSES)[number];

/** Money was taken and is owed back: an operator must refund it (never counted in takings). */
export const REFUND_OWED_STATUSES = statusGroup(['failed_after_payment', 'refund_due']);

/** Who moves a booking: each transition is recorded with one of these, a time and a reason. */
export const BOOKING_ACTORS = ['visitor', 'provider', 'operator', 'scheduler', 'system'] as const;
export type BookingActor = (typeof BOOKING_ACTORS)[number];

/** Why a booking moved, as recorded on the transition (operators may add words of their own). */
export const TRANSITION_REASONS = [
  'payment_opened',
  'payment_declined',
  'payment_cancelled_by_buyer',
  'paid',
  'paid_late',
  'paid_no_lockers',
  'amount_mismatch',
  'visitor_cancelled',
  'hold_lapsed',
  'morning_of_stay',
  'operator_cancelled',
  'operator_freed_locker',
  // Not a change of status: an operator moved the booking to another locker (recorded all the same).
  'operator_moved_locker',
  'operator_refund',
  // An operator gave the stay more time without charge (the extension's own booking).
  'operator_extended',
  'refund_made',
  'test_booking',
] as const;
export type TransitionReason = (typeof TRANSITION_REASONS)[number];

type Move = { to: BookingStatus; by: readonly BookingActor[] };

/** From a hold whose payment page is open or was declined. */
const PAYMENT_OPEN_MOVES: readonly Move[] = [
  { to: 'paying', by: ['visitor'] },
  { to: 'payment_declined', by: ['provider'] },
  { to: 'confirmed', by: ['provider'] },
  { to: 'scheduled', by: ['provider'] },
  { to: 'failed_after_payment', by: ['provider'] },
  { to: 'cancelled', by: ['visitor', 'provider'] },
  { to: 'expired', by: ['scheduler', 'system'] },
  { to: 'cancelled_by_operator', by: ['operator'] },
];

/** The moves the state machine allows, and who may make each. */
export const BOOKING_TRANSITIONS: Readonly<Record<BookingStatus, readonly Move[]>> = {
  pending: [
    { to: 'paying', by: ['visitor'] },
    { to: 'cancelled', by: ['visitor', 'provider'] },
    { to: 'expired', by: ['scheduler', 'system'] },
    { to: 'cancelled_by_operator', by: ['operator'] },
    // A result for a checkout opened before holds were frozen (or by an operator's test); or an
    // operator giving a stay more time without charge (an extension hold of no amount, nothing to pay).
    { to: 'confirmed', by: ['provider', 'operator'] },
    { to: 'scheduled', by: ['provider'] },
    { to: 'failed_after_payment', by: ['provider'] },
  ],
  // A declined payment leaves the hold as open as a payment page: the visitor may try again.
  paying: PAYMENT_OPEN_MOVES,
  payment_declined: PAYMENT_OPEN_MOVES,
  expired: [
    { to: 'confirmed_late', by: ['provider'] },
    { to: 'failed_after_payment', by: ['provider'] },
  ],
  cancelled: [
    { to: 'confirmed_late', by: ['provider'] },
    { to: 'failed_after_payment', by: ['provider'] },
  ],
  scheduled: [
    { to: 'confirmed', by: ['scheduler', 'operator'] },
    { to: 'refund_due', by: ['operator', 'visitor'] },
    { to: 'cancelled_by_operator', by: ['operator'] },
  ],
  confirmed: [
    { to: 'refund_due', by: ['operator', 'visitor'] },
    { to: 'cancelled_by_operator', by: ['operator'] },
  ],
  confirmed_late: [
    { to: 'refund_due', by: ['operator', 'visitor'] },
    { to: 'cancelled_by_operator', by: ['operator'] },
  ],
  failed_after_payment: [{ to: 'refund_due', by: ['operator'] }],
  // Cancelled by an operator before it was paid, then paid after all: the money is owed back.
  cancelled_by_operator: [{ to: 'failed_after_payment', by: ['provider'] }],
  refund_due: [{ to: 'refunded', by: ['provider', 'operator'] }],
  // The money went back: nothing follows.
  refunded: [],
};

export function isBookingStatus(value: unknown): value is BookingStatus {
  return typeof value === 'string' && (BOOKING_STATUSES as readonly string[]).includes(value);
}

export function isActiveBookingStatus(status: string): status is ActiveBookingStatus {
  return (ACTIVE_BOOKING_STATUSES as readonly string[]).includes(status);
}

export function isHoldBookingStatus(status: string): status is HoldBookingStatus {
  return (HOLD_BOOKING_STATUSES as readonly string[]).includes(status);
}

export function isPaidBookingStatus(status: string): status is PaidBookingStatus {
  return (PAID_BOOKING_STATUSES as readonly string[]).includes(status);
}

/** True when `actor` may move a booking from `from` to `to`. */
export function canTransition(from: BookingStatus, to: BookingStatus, actor: BookingActor): boolean {
  return BOOKING_TRANSITIONS[from].some((move) => move.to === to && move.by.includes(actor));
}

/** The statuses `actor` may move a booking to `to` from (what a conditional update may match). */
export function statusesLeadingTo(to: BookingStatus, actor: BookingActor): BookingStatus[] {
  return BOOKING_STATUSES.filter((from) => canTransition(from, to, actor));
}

/** Thrown for a move the state machine does not allow: a bug in the caller, never a visitor's doing. */
export class IllegalTransitionError extends Error {
  constructor(
    readonly from: BookingStatus,
    readonly to: BookingStatus,
    readonly actor: BookingActor,
  ) {
    super(`A booking cannot go from ${from} to ${to} by the ${actor}`);
    this.name = 'IllegalTransitionError';
  }
}

export function assertTransition(from: BookingStatus, to: BookingStatus, actor: BookingActor): void {
  if (!canTransition(from, to, actor)) throw new IllegalTransitionError(from, to, actor);
}
