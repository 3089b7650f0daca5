import { beforeAll, describe, expect, it } from 'vitest';
import { buildBooking, seedLocation } from '../../test/builders';
import { STORE_DIALECTS, useTestStore } from '../../test/test-store';
import type { NewBooking } from './booking.repository';

// The store side of payments, on both databases: a payment for a lapsed hold takes its lockers
// back (or others) atomically, and scheduled bookings are found for the morning scheduler.
describe.each(STORE_DIALECTS)('late payments and scheduled bookings on %s', (dialect) => {
  const { store } = useTestStore(dialect);
  const now = new Date('2026-03-10T08:00:00Z');
  // Each test uses its own day so lockers never collide between tests.
  let nextDay = 1;
  const window = () => {
    const day = (nextDay += 1);
    return {
      startAt: new Date(Date.UTC(2026, 4, day, 9)),
      endAt: new Date(Date.UTC(2026, 4, day, 12)),
    };
  };

  beforeAll(async () => {
    await seedLocation(store, { standard: 2, large: 1 });
  });

  async function hold(overrides: Partial<NewBooking>) {
    const booking = buildBooking({ expiresAt: new Date('2026-03-10T07:55:00Z'), ...overrides });
    const result = await store.bookings.reserveLockers({
      booking,
      maxOnline: 100,
      now: new Date('2026-03-10T07:50:00Z'),
    });
    if (!result.ok) throw new Error(`could not hold: ${result.reason}`);
    return result.booking;
  }

  /** The payment of `transactionId` arrives now, with this PIN and the gateway's reference. */
  const payLate = (transactionId: string, pin: string, providerReference: string) =>
    store.bookings.confirmLatePayment({ transactionId, now, pin, providerReference });
  /** A pending hold paid inside its window becomes `to`. */
  const paidInTime = (transactionId: string, to: 'confirmed' | 'scheduled') =>
    store.bookings.transition(transactionId, {
      from: ['pending'],
      to,
      actor: 'provider',
      reason: 'paid',
      now,
    });

  it('gives a lapsed hold its own lockers back when they are still free', async () => {
    const booking = await hold({ ...window(), quantity: 2 });
    const result = await payLate(booking.transactionId, '739184', 'BANK-1');
    expect(result.outcome).toBe('confirmed_late');
    expect(result.outcome !== 'not_late' && result.expired).toContain(booking.transactionId);
    const saved = await store.bookings.get(booking.transactionId);
    expect(saved).toMatchObject({
      status: 'confirmed_late',
      pin: '739184',
      providerReference: 'BANK-1',
      expiresAt: null,
    });
    expect(saved?.paidAt?.toISOString()).toBe(now.toISOString());
    expect(saved?.lockers.map((l) => [l.number, l.active])).toEqual([
      [1, true],
      [2, true],
    ]);
  });

  it('takes another free locker of the size when its own was taken meanwhile', async () => {
    const period = window();
    const late = await hold({ ...period });
    expect(late.lockers.map((l) => l.number)).toEqual([1]);
    // Someone else books at 08:00: the lapsed hold is expired and its locker 1 goes to them.
    const other = buildBooking({ ...period, expiresAt: new Date('2026-03-10T08:15:00Z') });
    const taken = await store.bookings.reserveLockers({ booking: other, maxOnline: 100, now });
    expect(taken.ok && taken.booking.lockers.map((l) => l.number)).toEqual([1]);
    expect((await store.bookings.get(late.transactionId))?.status).toBe('expired');

    const result = await payLate(late.transactionId, '640213', 'BANK-2');
    expect(result.outcome).toBe('confirmed_late');
    expect((await store.bookings.get(late.transactionId))?.lockers.map((l) => [l.number, l.active])).toEqual([
      [2, true],
    ]);
  });

  it('marks the booking failed_after_payment when nothing of its size is free', async () => {
    const period = window();
    const late = await hold({ ...period, size: 'large' });
    const other = buildBooking({ ...period, size: 'large', expiresAt: new Date('2026-03-10T08:15:00Z') });
    expect((await store.bookings.reserveLockers({ booking: other, maxOnline: 100, now })).ok).toBe(true);

    const result = await payLate(late.transactionId, '640213', 'BANK-3');
    expect(result.outcome).toBe('failed_after_payment');
    const saved = await store.bookings.get(late.transactionId);
    expect(saved).toMatchObject({
      status: 'failed_after_payment',
      providerReference: 'BANK-3',
      pin: '482915',
    });
    expect(saved?.paidAt?.toISOString()).toBe(now.toISOString());
    expect(saved?.lockers.every((l) => !l.active)).toBe(true);
    // The other customer keeps the locker.
    expect((await store.bookings.get(other.transactionId))?.lockers.map((l) => l.active)).toEqual([true]);
  });

  it('does nothing to a hold still inside its window, a paid booking or an unknown one', async () => {
    const live = await hold({ ...window(), expiresAt: new Date('2026-03-10T08:10:00Z') });
    const notLate = await payLate(live.transactionId, '640213', 'BANK-4');
    expect(notLate).toMatchObject({ outcome: 'not_late', booking: { status: 'pending' } });

    await paidInTime(live.transactionId, 'confirmed');
    const paid = await payLate(live.transactionId, '640213', 'BANK-4');
    expect(paid).toMatchObject({ outcome: 'not_late', booking: { status: 'confirmed' } });

    expect(await payLate('BOOKING-missing', '640213', 'BANK-4')).toEqual({
      outcome: 'not_late',
      booking: null,
    });
  });

  it('settles two racing late notifications once', async () => {
    const late = await hold({ ...window() });
    const results = await Promise.all(
      [1, 2, 3].map((n) => payLate(late.transactionId, `73918${n}`, 'BANK-5')),
    );
    expect(results.map((r) => r.outcome).sort()).toEqual(['confirmed_late', 'not_late', 'not_late']);
    expect((await store.bookings.get(late.transactionId))?.lockers.filter((l) => l.active)).toHaveLength(1);
  });

  it('lists scheduled bookings of a location that start before an instant, earliest first', async () => {
    const later = await hold({
      startAt: new Date('2026-06-02T09:00:00Z'),
      endAt: new Date('2026-06-02T12:00:00Z'),
      expiresAt: new Date('2026-03-10T08:30:00Z'),
    });
    const earlier = await hold({
      startAt: new Date('2026-06-01T15:00:00Z'),
      endAt: new Date('2026-06-01T18:00:00Z'),
      expiresAt: new Date('2026-03-10T08:30:00Z'),
    });
    const unpaid = await hold({
      startAt: new Date('2026-06-01T09:00:00Z'),
      endAt: new Date('2026-06-01T12:00:00Z'),
      expiresAt: new Date('2026-03-10T08:30:00Z'),
    });
    for (const booking of [later, earlier]) await paidInTime(booking.transactionId, 'scheduled');
    const ids = (list: { transactionId: string }[]) => list.map((b) => b.transactionId);
    expect(
      ids(await store.bookings.scheduledStartingBefore('testloc', new Date('2026-06-01T22:00:00Z'))),
    ).toEqual([earlier.transactionId]);
    expect(
      ids(await store.bookings.scheduledStartingBefore('testloc', new Date('2026-06-03T00:00:00Z'))),
    ).toEqual([earlier.transactionId, later.transactionId]);
    expect(
      await store.bookings.scheduledStartingBefore('elsewhere', new Date('2026-06-03T00:00:00Z')),
    ).toEqual([]);
    expect(
      ids(await store.bookings.scheduledStartingBefore('testloc', new Date('2026-06-03T00:00:00Z'))),
    ).not.toContain(unpaid.transactionId);
  });
});
