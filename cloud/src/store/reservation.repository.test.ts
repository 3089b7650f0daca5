import { beforeAll, describe, expect, it } from 'vitest';
import { buildBooking, seedLocation } from '../../test/builders';
import { STORE_DIALECTS, useTestStore } from '../../test/test-store';
import type { NewBooking } from './booking.repository';

// What reserveLockers answers without reading the booking back, the PIN it picks in the same step,
// and the short-lived caches of the rows every hold reads: on SQLite and PostgreSQL alike.
describe.each(STORE_DIALECTS)('reservation on %s', (dialect) => {
  const { store } = useTestStore(dialect);
  const now = new Date('2026-03-10T08:00:00Z');
  const at = (day: number, hourFrom: number, hourTo: number) => ({
    startAt: new Date(Date.UTC(2026, 4, day, hourFrom)),
    endAt: new Date(Date.UTC(2026, 4, day, hourTo)),
  });

  beforeAll(async () => {
    await seedLocation(store, { standard: 4, large: 2 });
  });

  it('answers the booking exactly as it reads back, new and moved', async () => {
    const booking = buildBooking({ ...at(1, 9, 12), quantity: 2 });
    const held = await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
    expect(held.ok).toBe(true);
    if (!held.ok) return;
    expect(held.booking).toEqual(await store.bookings.get(booking.transactionId));
    expect(held.booking.lockers.map((l) => l.number)).toEqual([1, 2]);

    const later = new Date(now.getTime() + 60_000);
    const moved = await store.bookings.reserveLockers({
      booking: { ...booking, ...at(2, 9, 12), quantity: 1, size: 'large', pin: '731946' },
      maxOnline: 100,
      now: later,
      replaceHold: true,
    });
    expect(moved.ok).toBe(true);
    if (!moved.ok) return;
    const saved = await store.bookings.get(booking.transactionId);
    expect(moved.booking).toEqual(saved);
    expect(saved?.createdAt).toEqual(now);
    expect(saved?.updatedAt).toEqual(later);
    expect(saved?.lockers.map((l) => l.number)).toEqual([5]);
  });

  /** Holds `booking` choosing its PIN among 620481 and 739152, in that order. */
  const holdWithPins = (booking: NewBooking) =>
    store.bookings.reserveLockers({ booking, maxOnline: 100, now, pinCandidates: ['620481', '739152'] });

  it('gives the booking the first PIN candidate no active booking at the location uses', async () => {
    const first = buildBooking({ ...at(3, 9, 12), pin: null });
    const held = await holdWithPins(first);
    expect(held.ok && held.booking.pin).toBe('620481');
    expect((await store.bookings.get(first.transactionId))?.pin).toBe('620481');

    const second = buildBooking({ ...at(3, 13, 15), pin: null });
    const next = await holdWithPins(second);
    expect(next.ok && next.booking.pin).toBe('739152');
  });

  it('refuses, writing nothing, when every PIN candidate is in use', async () => {
    const booking = buildBooking({ ...at(4, 9, 12), pin: null });
    const result = await holdWithPins(booking);
    expect(result).toEqual({ ok: false, reason: 'pins_taken' });
    expect(await store.bookings.get(booking.transactionId)).toBeNull();
  });

  it('writes simultaneous reservations each on its own: the refused ones leave nothing behind', async () => {
    const bookings = Array.from({ length: 6 }, () => buildBooking({ ...at(5, 9, 12) }));
    const results = await Promise.all(
      bookings.map((booking) =>
        store.bookings.reserveLockers({ booking, maxOnline: 100, now, lockerNumbers: [2] }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(1);
    expect(results.filter((r) => !r.ok)).toEqual(
      Array.from({ length: 5 }, () => ({ ok: false, reason: 'unavailable', available: 3 })),
    );
    const saved = await Promise.all(bookings.map((b) => store.bookings.get(b.transactionId)));
    expect(saved.filter((b) => b !== null).map((b) => b!.lockers.map((l) => l.number))).toEqual([[2]]);
  });

  it('answers each of several simultaneous reservations with its own outcome, whatever the others get', async () => {
    const ok = buildBooking({ ...at(6, 9, 12) });
    const large = buildBooking({ ...at(6, 9, 12), size: 'large' });
    const noPin = buildBooking({ ...at(6, 13, 15), pin: null });
    const ghost = buildBooking({ ...at(6, 9, 12) });
    const [first, second, third, fourth] = await Promise.all([
      store.bookings.reserveLockers({ booking: ok, maxOnline: 100, now }),
      store.bookings.reserveLockers({ booking: large, maxOnline: 0, now }),
      store.bookings.reserveLockers({ booking: noPin, maxOnline: 100, now, pinCandidates: ['620481'] }),
      // Moving a hold that does not exist.
      store.bookings.reserveLockers({ booking: ghost, maxOnline: 100, now, replaceHold: true }),
    ]);
    expect(first).toMatchObject({ ok: true, booking: { transactionId: ok.transactionId } });
    expect(second).toEqual({ ok: false, reason: 'unavailable', available: 0 });
    expect(third).toEqual({ ok: false, reason: 'pins_taken' });
    expect(fourth).toEqual({ ok: false, reason: 'hold_missing' });
    expect(await store.bookings.get(ok.transactionId)).not.toBeNull();
    for (const refused of [large, noPin, ghost])
      expect(await store.bookings.get(refused.transactionId)).toBeNull();
  });

  it('serves a saved location and settings change at once to the same store', async () => {
    const location = await store.locations.get('testloc');
    await store.locations.save({ ...location!, maxOnline: { standard: 3, large: 1 } }, now);
    expect((await store.locations.get('testloc'))?.maxOnline).toEqual({ standard: 3, large: 1 });

    await store.settings.set({ MAINTENANCE_MODE: false }, now);
    expect(await store.settings.all()).toMatchObject({ MAINTENANCE_MODE: false });
    await store.settings.set({ MAINTENANCE_MODE: true }, now);
    expect(await store.settings.all()).toMatchObject({ MAINTENANCE_MODE: true });
  });

  it('forgets a location deleted through the admin repository', async () => {
    await seedLocation(store, { location: { key: 'gone' }, standard: 1, large: 0 });
    expect(await store.locations.get('gone')).not.toBeNull();
    expect(await store.locationAdmin.delete('gone')).toBe('deleted');
    expect(await store.locations.get('gone')).toBeNull();
  });
});
