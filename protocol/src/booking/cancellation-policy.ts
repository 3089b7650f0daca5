import { DateTime } from 'luxon';
import { z } from 'zod';
import { VISITOR_CANCELLATION_POLICIES, type VisitorCancellationPolicy } from './cancellation-policy-names';
import { isPaidBookingStatus, type BookingStatus } from './status';

/**
 * When a visitor may cancel a paid booking from their booking page, with the money owed back. One
 * system setting (`VISITOR_CANCELLATION_POLICY` in the settings table, read by the server) chooses
 * among these; the page shows the policy and the server alone decides with {@link visitorCancellationVerdict}.
 *
 * future_days_until_start (default): a booking for a later day than the one it was made on, until
 *   its start; a same-day booking is not cancellable online, and nothing is once started.
 * until_start: any paid booking, until its start.
 * never: no cancellation online (the visitor contacts the operators).
 */
export { VISITOR_CANCELLATION_POLICIES, type VisitorCancellationPolicy };
export const zVisitorCancellationPolicy = z.enum(VISITOR_CANCELLATION_POLICIES);
export const VISITOR_CANCELLATION_POLICY_SETTING = 'VISITOR_CANCELLATION_POLICY';
export const DEFAULT_VISITOR_CANCELLATION_POLICY: VisitorCancellationPolicy = 'future_days_until_start';

/** The stored setting, or the default when absent or not one of ours. */
export function readVisitorCancellationPolicy(stored: unknown): VisitorCancellationPolicy {
  const parsed = zVisitorCancellationPolicy.safeParse(stored);
  return parsed.success ? parsed.data : DEFAULT_VISITOR_CANCELLATION_POLICY;
}

/** Why a visitor may not cancel: not paid (or already cancelled), started, booked for the same day, or the policy says never. */
export const CANCELLATION_REFUSALS = ['not_paid', 'started', 'same_day', 'not_allowed'] as const;
export type CancellationRefusal = (typeof CANCELLATION_REFUSALS)[number];

export type CancellationVerdict = { allowed: true } | { allowed: false; reason: CancellationRefusal };

export function visitorCancellationVerdict(input: {
  policy: VisitorCancellationPolicy;
  status: BookingStatus;
  /** When the booking was made, and its start: UTC instants, compared as days in `zone`. */
  bookedAt: Date;
  startAt: Date;
  zone: string;
  now: Date;
}): CancellationVerdict {
  if (!isPaidBookingStatus(input.status)) return { allowed: false, reason: 'not_paid' };
  if (input.policy === 'never') return { allowed: false, reason: 'not_allowed' };
  if (input.now.getTime() >= input.startAt.getTime()) return { allowed: false, reason: 'started' };
  if (input.policy === 'future_days_until_start') {
    const day = (instant: Date) => DateTime.fromJSDate(instant, { zone: input.zone }).toISODate();
    if (day(input.bookedAt)! >= day(input.startAt)!) return { allowed: false, reason: 'same_day' };
  }
  return { allowed: true };
}
