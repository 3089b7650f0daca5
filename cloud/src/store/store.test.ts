import { beforeAll, describe, expect, it } from 'vitest';
import { buildBooking, buildDiscount, newTransactionId, seedLocation } from '../../test/builders';
import { STORE_DIALECTS, withPostgresClient, useTestStore } from '../../test/test-store';

// One contract, two databases: every repository behaves the same on SQLite and PostgreSQL.
describe.each(STORE_DIALECTS)('store on %s', (dialect) => {
  const { store, database } = useTestStore(dialect);
  const now = new Date('2026-03-10T08:00:00Z');

  beforeAll(async () => {
    await seedLocation(store, { standard: 4, large: 2 });
    await seedLocation(store, {
      location: { key: 'capped', maxOnline: { standard: 2, large: 1 } },
      standard: 5,
      large: 3,
    });
  });

  it('runs its migrations once: opening the same database again changes nothing', async () => {
    const again = await database.open();
    try {
      expect(await again.locations.count()).toBe(2);
    } finally {
      await again.close();
    }
  });

  it('answers a ping', async () => {
    await expect(store.ping()).resolves.toBeUndefined();
  });

  describe('locations', () => {
    it('reads back what was saved, prices in cents and all', async () => {
      const location = await store.locations.get('testloc');
      expect(location).toMatchObject({
        key: 'testloc',
        zone: 'Europe/Rome',
        maxOnline: { standard: 100, large: 100 },
        openingHours: { opening: '06:00', closing: '22:00' },
        controller: { recipient: '127.0.0.1', port: 11000, mastercode: '1234' },
      });
      expect(location?.pricing.standard.hours['3']).toBe(500);
      expect(location?.createdAt).toBeInstanceOf(Date);
      expect(await store.locations.get('nowhere')).toBeNull();
      expect((await store.locations.list()).map((l) => l.key)).toEqual(['capped', 'testloc']);
    });

    it('updates an existing location in place', async () => {
      await seedLocation(store, { location: { key: 'renamed', name: 'Before' }, standard: 1, large: 0 });
      await seedLocation(store, { location: { key: 'renamed', name: 'After' }, standard: 1, large: 0 });
      expect((await store.locations.get('renamed'))?.name).toBe('After');
      expect(await store.locations.lockers('renamed')).toHaveLength(1);
    });

    it('lists lockers by number and takes one out of service', async () => {
      const lockers = await store.locations.lockers('testloc');
      expect(lockers.map((l) => [l.number, l.size])).toEqual([
        [1, 'standard'],
        [2, 'standard'],
        [3, 'standard'],
        [4, 'standard'],
        [5, 'large'],
        [6, 'large'],
      ]);
      expect(await store.locations.setLockerInService('renamed', 1, false)).toBe(true);
      expect((await store.locations.lockers('renamed'))[0].inService).toBe(false);
      expect(await store.locations.setLockerInService('renamed', 99, false)).toBe(false);
    });

    it("shows a locker's change in the very next occupancy read, though the lockers are kept between reads", async () => {
      await seedLocation(store, { location: { key: 'kept' }, standard: 2, large: 0 });
      const lockersNow = async () =>
        (await store.bookings.occupancy('kept', now, new Date(now.getTime() + 3600_000), now)).lockers
          .map((l) => [l.number, l.inService])
          .sort(([a], [b]) => Number(a) - Number(b));
      expect(await lockersNow()).toEqual([
        [1, true],
        [2, true],
      ]);
      await store.locations.setLockerInService('kept', 2, false);
      expect(await lockersNow()).toEqual([
        [1, true],
        [2, false],
      ]);
      await store.locations.addLockers('kept', [{ number: 3, size: 'large' }]);
      expect(await lockersNow()).toEqual([
        [1, true],
        [2, false],
        [3, true],
      ]);
    });
  });

  describe('reserveLockers', () => {
    it('refuses a hold without an expiry, which would hold its lockers for ever', async () => {
      const booking = buildBooking({ expiresAt: null });
      await expect(store.bookings.reserveLockers({ booking, maxOnline: 100, now })).rejects.toThrow(
        /needs an expiry/,
      );
      expect(await store.bookings.get(booking.transactionId)).toBeNull();
    });

    const day = (hourFrom: number, hourTo: number) => ({
      startAt: new Date(Date.UTC(2026, 3, 1, hourFrom)),
      endAt: new Date(Date.UTC(2026, 3, 1, hourTo)),
    });

    it('takes the lowest free lockers and records the booking with them', async () => {
      const booking = buildBooking({ ...day(9, 12), quantity: 2, size: 'large' });
      const result = await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      expect(result.ok).toBe(true);
      const saved = await store.bookings.get(booking.transactionId);
      expect(saved).toMatchObject({
        transactionId: booking.transactionId,
        status: 'pending',
        size: 'large',
        quantity: 2,
        duration: { value: 3, unit: 'hours' },
        totalCents: 550,
        pin: '482915',
        lang: 'it',
      });
      expect(saved?.startAt.toISOString()).toBe('2026-04-01T09:00:00.000Z');
      expect(saved?.expiresAt?.toISOString()).toBe(booking.expiresAt?.toISOString());
      expect(saved?.lockers.map((l) => [l.number, l.active])).toEqual([
        [5, true],
        [6, true],
      ]);
    });

    it('refuses an overlapping window once every locker is taken, and says how many are left', async () => {
      const result = await store.bookings.reserveLockers({
        booking: buildBooking({ ...day(11, 14), size: 'large' }),
        maxOnline: 100,
        now,
      });
      expect(result).toEqual({ ok: false, reason: 'unavailable', available: 0 });
    });

    it('lets a booking start when the previous one ends (half-open windows)', async () => {
      const result = await store.bookings.reserveLockers({
        booking: buildBooking({ ...day(12, 15), size: 'large', quantity: 2 }),
        maxOnline: 100,
        now,
      });
      expect(result.ok).toBe(true);
    });

    it('reserves exactly the locker numbers asked for, or nothing', async () => {
      const booking = buildBooking({ ...day(9, 12) });
      const first = await store.bookings.reserveLockers({ booking, maxOnline: 100, now, lockerNumbers: [3] });
      expect(first.ok && first.booking.lockers.map((l) => l.number)).toEqual([3]);
      const again = await store.bookings.reserveLockers({
        booking: buildBooking({ ...day(10, 11) }),
        maxOnline: 100,
        now,
        lockerNumbers: [3],
      });
      expect(again.ok).toBe(false);
    });

    it('caps the lockers sold online at once by maxOnline, counting the peak not the total', async () => {
      const reserve = (hours: [number, number]) =>
        store.bookings.reserveLockers({
          booking: buildBooking({ locationKey: 'capped', ...day(...hours) }),
          maxOnline: 2,
          now,
        });
      expect((await reserve([9, 10])).ok).toBe(true);
      expect((await reserve([10, 11])).ok).toBe(true);
      // Two bookings that never meet: the peak over 9–11 is 1, so one more fits.
      expect((await reserve([9, 11])).ok).toBe(true);
      expect(await reserve([9, 11])).toEqual({ ok: false, reason: 'unavailable', available: 0 });
      expect((await reserve([11, 12])).ok).toBe(true);
    });

    it('moves a pending hold to a new window in one step, keeping the id', async () => {
      const booking = buildBooking({ ...day(16, 17), quantity: 1 });
      expect((await store.bookings.reserveLockers({ booking, maxOnline: 100, now })).ok).toBe(true);
      const moved = await store.bookings.reserveLockers({
        booking: { ...booking, ...day(18, 20), quantity: 3, note: 'lang:en', lang: 'en' },
        maxOnline: 100,
        now,
        replaceHold: true,
      });
      expect(moved.ok).toBe(true);
      const saved = await store.bookings.get(booking.transactionId);
      expect(saved?.lockers).toHaveLength(3);
      expect(saved?.endAt.toISOString()).toBe('2026-04-01T20:00:00.000Z');
      expect(saved?.lang).toBe('en');
      // The 16–17 locker is free again.
      const snapshot = await store.bookings.occupancy('testloc', day(16, 17).startAt, day(16, 17).endAt, now);
      expect(snapshot.occupations).toHaveLength(0);
    });

    it('keeps the old hold when moving it fails', async () => {
      const booking = buildBooking({ ...day(6, 7), quantity: 1, size: 'large' });
      await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      const moved = await store.bookings.reserveLockers({
        booking: { ...booking, ...day(6, 7), quantity: 3 },
        maxOnline: 100,
        now,
        replaceHold: true,
      });
      expect(moved).toMatchObject({ ok: false, reason: 'unavailable' });
      expect((await store.bookings.get(booking.transactionId))?.lockers).toHaveLength(1);
    });

    it('will not replace a hold that does not exist or is no longer pending', async () => {
      const result = await store.bookings.reserveLockers({
        booking: buildBooking({ ...day(20, 21) }),
        maxOnline: 100,
        now,
        replaceHold: true,
      });
      expect(result).toEqual({ ok: false, reason: 'hold_missing' });
    });
  });

  describe('expiry and transitions', () => {
    const window = { startAt: new Date('2026-05-01T09:00:00Z'), endAt: new Date('2026-05-01T12:00:00Z') };

    it('expires lapsed holds, frees their lockers and keeps the others', async () => {
      const lapsed = buildBooking({
        ...window,
        size: 'large',
        quantity: 2,
        expiresAt: new Date('2026-03-10T08:10:00Z'),
      });
      const fresh = buildBooking({ ...window, quantity: 1, expiresAt: new Date('2026-03-10T08:30:00Z') });
      await store.bookings.reserveLockers({ booking: lapsed, maxOnline: 100, now });
      await store.bookings.reserveLockers({ booking: fresh, maxOnline: 100, now });

      const later = new Date('2026-03-10T08:20:00Z');
      const before = await store.bookings.occupancy('testloc', window.startAt, window.endAt, now);
      expect(before.occupations).toHaveLength(3);
      // Lapsed but not yet swept: no longer counted.
      const unswept = await store.bookings.occupancy('testloc', window.startAt, window.endAt, later);
      expect(unswept.occupations).toHaveLength(1);

      const swept = await store.bookings.expirePending(later);
      expect(swept).toContain(lapsed.transactionId);
      expect(swept).not.toContain(fresh.transactionId);
      expect(await store.bookings.expirePending(later)).toEqual([]);
      const expired = await store.bookings.get(lapsed.transactionId);
      expect(expired?.status).toBe('expired');
      expect(expired?.expiresAt).toBeNull();
      expect(expired?.lockers.every((l) => !l.active)).toBe(true);
      expect((await store.bookings.get(fresh.transactionId))?.status).toBe('pending');
    });

    it('lets a new reservation take the lockers of a lapsed hold even before the job ran', async () => {
      const w = { startAt: new Date('2026-05-02T09:00:00Z'), endAt: new Date('2026-05-02T12:00:00Z') };
      const lapsed = buildBooking({
        ...w,
        size: 'large',
        quantity: 2,
        expiresAt: new Date('2026-03-10T08:10:00Z'),
      });
      await store.bookings.reserveLockers({ booking: lapsed, maxOnline: 100, now });
      const later = new Date('2026-03-10T08:20:00Z');
      const result = await store.bookings.reserveLockers({
        booking: buildBooking({ ...w, size: 'large', quantity: 2 }),
        maxOnline: 100,
        now: later,
      });
      expect(result.ok && result.expired).toEqual([lapsed.transactionId]);
      expect((await store.bookings.get(lapsed.transactionId))?.status).toBe('expired');
    });

    it('updates a pending hold but not a lapsed one', async () => {
      const booking = buildBooking({
        startAt: new Date('2026-05-03T09:00:00Z'),
        endAt: new Date('2026-05-03T10:00:00Z'),
      });
      await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      const customer = {
        firstName: 'Anna',
        lastName: "D'Amico",
        email: 'anna@example.com',
        phonePrefix: '+39',
        phoneNumber: '3331234567',
      };
      const updated = await store.bookings.updateHold(
        booking.transactionId,
        { customer, discountCode: 'X' },
        now,
      );
      expect(updated?.customer).toEqual(customer);
      expect(updated?.discountCode).toBe('X');
      const afterExpiry = new Date(booking.expiresAt!.getTime() + 1000);
      expect(
        await store.bookings.updateHold(booking.transactionId, { note: 'lang:en' }, afterExpiry),
      ).toBeNull();
    });

    it('moves statuses only from the expected ones and frees lockers on cancel', async () => {
      const booking = buildBooking({
        startAt: new Date('2026-05-04T09:00:00Z'),
        endAt: new Date('2026-05-04T10:00:00Z'),
      });
      await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      const paidAt = new Date('2026-03-10T08:05:00Z');
      const confirmed = await store.bookings.transition(booking.transactionId, {
        from: ['pending'],
        to: 'confirmed',
        actor: 'provider',
        reason: 'paid',
        now: paidAt,
        paidAt,
        providerReference: 'PAY-1',
      });
      expect(confirmed).toMatchObject({ status: 'confirmed', expiresAt: null, providerReference: 'PAY-1' });
      expect(confirmed?.paidAt?.toISOString()).toBe(paidAt.toISOString());
      expect(confirmed?.lockers[0].active).toBe(true);
      expect(
        await store.bookings.transition(booking.transactionId, {
          from: ['pending'],
          to: 'cancelled',
          actor: 'visitor',
          reason: 'visitor_cancelled',
          now,
        }),
      ).toBeNull();
      const cancelled = await store.bookings.transition(booking.transactionId, {
        from: ['confirmed'],
        to: 'cancelled_by_operator',
        actor: 'operator',
        reason: 'operator_cancelled',
        now,
      });
      expect(cancelled?.lockers[0].active).toBe(false);
    });

    it('lists the PINs in use at a location', async () => {
      const pins = await store.bookings.activePins('testloc', now);
      expect(pins.has('482915')).toBe(true);
      expect((await store.bookings.activePins('capped', new Date('2030-01-01T00:00:00Z'))).size).toBe(0);
    });
  });

  describe('discounts', () => {
    it('creates, reads, lists and deletes codes', async () => {
      expect(
        await store.discounts.create(buildDiscount({ code: 'EURO5', percent: null, amountCents: 500 }), now),
      ).toBe(true);
      expect(await store.discounts.create(buildDiscount({ code: 'EURO5' }), now)).toBe(false);
      expect(await store.discounts.get('EURO5')).toMatchObject({
        amountCents: 500,
        percent: null,
        usableOnce: false,
      });
      expect((await store.discounts.list()).map((d) => d.code)).toContain('EURO5');
      expect(await store.discounts.delete('EURO5')).toBe(true);
      expect(await store.discounts.get('EURO5')).toBeNull();
    });

    it('lets exactly one of many simultaneous bookings claim a single-use code', async () => {
      await store.discounts.create(buildDiscount({ code: 'ONCE', usableOnce: true }), now);
      const claimants = Array.from({ length: 30 }, () => newTransactionId());
      const results = await Promise.all(claimants.map((id) => store.discounts.claim('ONCE', id, now)));
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = claimants[results.indexOf(true)];
      expect(await store.discounts.claim('ONCE', winner, now)).toBe(true);
      expect((await store.discounts.get('ONCE'))?.usedBy).toBe(winner);
      await store.discounts.releaseClaim('ONCE', winner);
      expect((await store.discounts.get('ONCE'))?.usedAt).toBeNull();
    });

    it('gives a claim back when the claiming hold expires', async () => {
      await store.discounts.create(buildDiscount({ code: 'ONCE2', usableOnce: true }), now);
      const booking = buildBooking({
        startAt: new Date('2026-05-05T09:00:00Z'),
        endAt: new Date('2026-05-05T10:00:00Z'),
        expiresAt: new Date('2026-03-10T08:01:00Z'),
      });
      await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      expect(await store.discounts.claim('ONCE2', booking.transactionId, now)).toBe(true);
      await store.bookings.expirePending(new Date('2026-03-10T08:02:00Z'));
      expect((await store.discounts.get('ONCE2'))?.usedBy).toBeNull();
    });
  });

  describe('settings and error log', () => {
    it('stores JSON values by key and overwrites them', async () => {
      await store.settings.set(
        { BOOKING_EXPIRATION_MINUTES: 20, BLOCK_WINDOWS: [{ from: '01:00', to: '02:00' }] },
        now,
      );
      await store.settings.set({ BOOKING_EXPIRATION_MINUTES: 25, MAINTENANCE_MODE: 'text' }, now);
      expect(await store.settings.all()).toEqual({
        BOOKING_EXPIRATION_MINUTES: 25,
        BLOCK_WINDOWS: [{ from: '01:00', to: '02:00' }],
        MAINTENANCE_MODE: 'text',
      });
      expect(await store.settings.get('MISSING')).toBeUndefined();
    });

    it('keeps error log entries newest first', async () => {
      await store.errorLog.add({
        at: new Date('2026-03-10T08:00:00Z'),
        type: 'bridge',
        locationKey: 'testloc',
        lockerId: 3,
        message: 'first',
      });
      await store.errorLog.add({
        at: new Date('2026-03-10T09:00:00Z'),
        type: 'bridge',
        locationKey: null,
        lockerId: null,
        message: 'second',
      });
      expect((await store.errorLog.recent(10)).map((e) => e.message)).toEqual(['second', 'first']);
    });
  });

  if (dialect === 'postgres') {
    it('has PostgreSQL itself refuse two active overlapping reservations of one locker', async () => {
      const booking = buildBooking({
        startAt: new Date('2026-06-01T09:00:00Z'),
        endAt: new Date('2026-06-01T10:00:00Z'),
      });
      const result = await store.bookings.reserveLockers({ booking, maxOnline: 100, now });
      if (!result.ok) throw new Error('reservation failed');
      const lockerId = result.booking.lockers[0].lockerId;
      await withPostgresClient(database.schema!, async (client) => {
        const insert = (start: string, end: string, active: boolean) =>
          client.query(
            'insert into booking_lockers (transaction_id, locker_id, start_at, end_at, active) values ($1, $2, $3, $4, $5)',
            [booking.transactionId, lockerId, start, end, active],
          );
        await expect(insert('2026-06-01T09:30:00Z', '2026-06-01T11:00:00Z', true)).rejects.toMatchObject({
          code: '23P01',
        });
        await expect(insert('2026-06-01T09:30:00Z', '2026-06-01T11:00:00Z', false)).resolves.toBeDefined();
        await expect(insert('2026-06-01T10:00:00Z', '2026-06-01T11:00:00Z', true)).resolves.toBeDefined();
      });
    });
  }
});
