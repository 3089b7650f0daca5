import { describe, expect, it } from 'vitest';
import { canTransition } from './status';
import { readVisitorCancellationPolicy, visitorCancellationVerdict } from './cancellation-policy';

// The visitor's own cancellation (issue 16): who may, until when, under each policy. Rome, whose
// day starts at 23:00 UTC in winter.

const ROME = 'Europe/Rome';
const booking = {
  status: 'scheduled' as const,
  bookedAt: new Date('2026-03-27T08:00:00Z'),
  startAt: new Date('2026-03-28T10:00:00Z'),
  zone: ROME,
};

describe('visitorCancellationVerdict', () => {
  it('by default lets a later-day booking be cancelled until its start, and not after', () => {
    const policy = 'future_days_until_start';
    expect(visitorCancellationVerdict({ ...booking, policy, now: new Date('2026-03-28T09:59:59Z') })).toEqual(
      {
        allowed: true,
      },
    );
    expect(visitorCancellationVerdict({ ...booking, policy, now: new Date('2026-03-28T10:00:00Z') })).toEqual(
      {
        allowed: false,
        reason: 'started',
      },
    );
  });

  it('by default refuses a booking made on its own day, the day counted in the location zone', () => {
    const policy = 'future_days_until_start';
    const sameDay = { ...booking, status: 'confirmed' as const, startAt: new Date('2026-03-27T15:00:00Z') };
    expect(visitorCancellationVerdict({ ...sameDay, policy, now: booking.bookedAt })).toEqual({
      allowed: false,
      reason: 'same_day',
    });
    // 23:30 UTC on the 27th is already the 28th in Rome: booked then for the 28th is the same day.
    const lateNight = { ...booking, bookedAt: new Date('2026-03-27T23:30:00Z') };
    expect(visitorCancellationVerdict({ ...lateNight, policy, now: lateNight.bookedAt })).toMatchObject({
      reason: 'same_day',
    });
  });

  it('under until_start allows same-day bookings, under never nothing; unpaid ones never', () => {
    const sameDay = { ...booking, status: 'confirmed' as const, startAt: new Date('2026-03-27T15:00:00Z') };
    const now = booking.bookedAt;
    expect(visitorCancellationVerdict({ ...sameDay, policy: 'until_start', now })).toEqual({ allowed: true });
    expect(visitorCancellationVerdict({ ...booking, policy: 'never', now })).toEqual({
      allowed: false,
      reason: 'not_allowed',
    });
    for (const status of ['pending', 'refund_due', 'cancelled'] as const) {
      expect(visitorCancellationVerdict({ ...booking, status, policy: 'until_start', now })).toEqual({
        allowed: false,
        reason: 'not_paid',
      });
    }
  });

  it('reads the stored setting, falling back to the default', () => {
    expect(readVisitorCancellationPolicy('never')).toBe('never');
    expect(readVisitorCancellationPolicy(undefined)).toBe('future_days_until_start');
    expect(readVisitorCancellationPolicy('sometimes')).toBe('future_days_until_start');
  });

  it('is a move the state machine lets the visitor make from every paid status', () => {
    for (const from of ['scheduled', 'confirmed', 'confirmed_late'] as const) {
      expect(canTransition(from, 'refund_due', 'visitor')).toBe(true);
    }
  });
});
