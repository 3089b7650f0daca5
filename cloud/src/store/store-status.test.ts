import { beforeAll, describe, expect, it } from 'vitest';
import { buildBooking, seedLocation } from '../../test/builders';
import { STORE_DIALECTS, useTestStore } from '../../test/test-store';

// What the readiness probe and the metrics read from the store, on both databases.
describe.each(STORE_DIALECTS)('store status on %s', (dialect) => {
  const { store } = useTestStore(dialect);
  const now = new Date('2026-03-10T08:00:00Z');

  beforeAll(async () => {
    await seedLocation(store, { standard: 4, large: 2 });
  });

  it('has no pending migrations once opened', async () => {
    expect(await store.pendingMigrations()).toEqual([]);
  });

  it('counts bookings per status, every status present', async () => {
    expect(await store.bookings.countByStatus()).toEqual({
      pending: 0,
      scheduled: 0,
      confirmed: 0,
      cancelled: 0,
      expired: 0,
      confirmed_late: 0,
      failed_after_payment: 0,
      paying: 0,
      payment_declined: 0,
      cancelled_by_operator: 0,
      refund_due: 0,
      refunded: 0,
    });
    const held = [buildBooking(), buildBooking(), buildBooking({ quantity: 2 })];
    for (const booking of held) {
      const result = await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      expect(result.ok).toBe(true);
    }
    await store.bookings.transition(held[0].transactionId, {
      from: ['pending'],
      to: 'confirmed',
      actor: 'provider',
      reason: 'paid',
      now,
    });

    const counts = await store.bookings.countByStatus();
    // Bookings, not lockers: the two-locker booking counts once.
    expect(counts).toMatchObject({ pending: 2, confirmed: 1, expired: 0 });
  });
});
