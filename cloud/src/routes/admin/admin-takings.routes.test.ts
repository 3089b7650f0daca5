import {
  connectionTestResponseSchema,
  recentBookingsResponseSchema,
  recentErrorLogResponseSchema,
  SEED_LOCATIONS,
  takingsLocationsResponseSchema,
  takingsResponseSchema,
  totemProceedsResponseSchema,
  toTotemRevenueRecord,
  type TakingsData,
} from '@deposito/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/admin-test-app';
import { buildBooking, newTransactionId } from '../../../test/builders';
import { STORE_DIALECTS } from '../../../test/test-store';
import { PromotecSimulator, simulatedProceeds } from '../../takings/promotec-simulator';
import { closedPort } from '../../../test/closed-port';

/** A location's online takings of the month in the answer's data, in euros. */
function onlineEuros(data: TakingsData, key: string): number {
  return Object.values(data[key] ?? {}).reduce<number>(
    (sum, day) => sum + (typeof day === 'number' ? day : day.online),
    0,
  );
}

// The test app's clock is 27 March 2026; February is over.
const MONTH = '2026-02';
// Every seed location gets a simulated kiosk except `magna`, whose kiosk is down.
const DOWN = 'magna';

describe.each(STORE_DIALECTS)('takings over HTTP on %s', (dialect) => {
  const app = useAdminTestApp({ dialect });
  let downPort: number;
  const kiosks = new Map<string, PromotecSimulator>();
  const get = <T>(path: string, auth = app.token) => app.call<T>('GET', path, { token: auth });
  /** What oca's simulated kiosk took on `day` (yyyy-mm-dd) of `month`, up to `until`, in cents. */
  const ocaTotemCents = (month: string, day: string, until?: Date) =>
    simulatedProceeds('oca', 'Europe/Rome', month, until)
      .filter((proceed) => proceed.date.startsWith(day))
      .reduce((sum, proceed) => sum + proceed.amountCents, 0);

  beforeAll(async () => {
    downPort = await closedPort();
    for (const seed of SEED_LOCATIONS) {
      const location = (await app.store.locations.get(seed.key))!;
      let address = { recipient: '127.0.0.1', port: downPort };
      if (seed.key !== DOWN) {
        const kiosk = await PromotecSimulator.start({
          locationKey: seed.key,
          zone: location.zone,
          now: () => app.clock.now(),
        });
        kiosks.set(seed.key, kiosk);
        address = kiosk.address;
      }
      await app.store.locations.save(
        { ...location, controller: { ...location.controller, ...address } },
        app.clock.now(),
      );
    }
    // 23:30 UTC on 9 February is 00:30 on 10 February in Rome.
    const createdAt = new Date('2026-02-09T23:30:00Z');
    await app.store.bookings.reserveLockers({
      booking: buildBooking({
        locationKey: 'oca',
        status: 'confirmed',
        startAt: new Date('2026-02-12T09:00:00Z'),
        endAt: new Date('2026-02-12T12:00:00Z'),
        priceDiscountedCents: 1250,
        expiresAt: null,
      }),
      maxOnline: 100,
      now: createdAt,
    });
    await app.store.bookings.reserveLockers({
      booking: buildBooking({
        locationKey: DOWN,
        status: 'scheduled',
        startAt: new Date('2026-02-20T09:00:00Z'),
        endAt: new Date('2026-02-20T12:00:00Z'),
        priceDiscountedCents: 900,
        expiresAt: null,
      }),
      maxOnline: 100,
      now: new Date('2026-02-18T10:00:00Z'),
    });
  });

  afterAll(async () => {
    await Promise.all([...kiosks.values()].map((kiosk) => kiosk.close()));
    await app?.close();
  });

  it('refuses every takings call without a valid admin token', async () => {
    for (const [method, path] of [
      ['GET', `/api/admin/promotec/proceeds?location=oca&month=${MONTH}`],
      ['GET', `/api/admin/takings?month=${MONTH}&location=all`],
      ['GET', '/api/admin/takings/locations'],
      ['POST', '/api/admin/takings/connection-test'],
    ] as const) {
      for (const auth of [undefined, 'not-a-session-token']) {
        const answer = await app.call<{ error: { code: string } }>(method, path, {
          token: auth,
          body: method === 'POST' ? {} : undefined,
        });
        expect(answer.status, `${method} ${path}`).toBe(401);
        expect(answer.body.error.code).toBe('auth/unauthorized');
      }
    }
    for (const kiosk of kiosks.values()) expect(kiosk.requestedMonths).toEqual([]);
  });

  it("answers a location's totem records, and [] with an error-log entry when its kiosk is down", async () => {
    const answer = await get(`/api/admin/promotec/proceeds?location=vicolo&month=${MONTH}`);
    expect(answer.status).toBe(200);
    const records = totemProceedsResponseSchema.parse(answer.body);
    const expected = simulatedProceeds('vicolo', 'Europe/Rome', MONTH);
    expect(records).toEqual(expected.map(toTotemRevenueRecord));
    const [first] = expected;
    expect(records[0]).toMatchObject({
      amount: first.amountCents / 100,
      discount: first.discountCents / 100,
    });

    const down = await get(`/api/admin/promotec/proceeds?location=${DOWN}&month=${MONTH}`);
    expect(down).toMatchObject({ status: 200, body: [] });
    const log = recentErrorLogResponseSchema.parse((await get('/api/admin/logs/recent')).body);
    expect(JSON.stringify(log[0])).toContain(
      `Impossibile contattare il sistema Promotec: 127.0.0.1:${downPort} non raggiungibile (ECONNREFUSED)`,
    );
    expect(JSON.stringify(log[0])).toContain(DOWN);

    expect((await get(`/api/admin/promotec/proceeds?location=oca&month=2026-13`)).status).toBe(400);
    expect((await get(`/api/admin/promotec/proceeds?location=nowhere&month=${MONTH}`)).status).toBe(404);
  });

  it('answers the month in the takings data shape, from memory until reload=1', async () => {
    const first = await get(`/api/admin/takings?month=${MONTH}&location=all`);
    expect(first.status).toBe(200);
    const body = takingsResponseSchema.parse(first.body);
    expect(body).toMatchObject({ month: MONTH, location: 'all' });
    expect(Object.keys(body.data).sort()).toEqual(SEED_LOCATIONS.map((seed) => seed.key).sort());

    const ocaTotem = ocaTotemCents(MONTH, '2026-02-10');
    expect(body.data.oca['10/02/2026']).toEqual({
      online: 12.5,
      totem: ocaTotem / 100,
      total: (1250 + ocaTotem) / 100,
    });
    // The location whose kiosk is down still shows its online takings.
    expect(body.data[DOWN]).toEqual({ '18/02/2026': { online: 9, totem: 0, total: 9 } });

    const oca = kiosks.get('oca')!;
    const before = oca.requestedMonths.length;
    expect((await get(`/api/admin/takings?month=${MONTH}&location=all`)).body).toEqual(first.body);
    expect(oca.requestedMonths).toHaveLength(before);
    expect((await get(`/api/admin/takings?month=${MONTH}&location=all&reload=1`)).status).toBe(200);
    expect(oca.requestedMonths).toHaveLength(before + 1);

    const single = takingsResponseSchema.parse(
      (await get(`/api/admin/takings?month=${MONTH}&location=oca`)).body,
    );
    expect(Object.keys(single.data)).toEqual(['oca']);
    expect(single.location).toBe('oca');

    expect((await get(`/api/admin/takings?month=02-2026&location=all`)).status).toBe(400);
    expect((await get(`/api/admin/takings?month=${MONTH}&location=nowhere`)).status).toBe(404);
  });

  it('lists the locations with their kiosk address and tests them in turn', async () => {
    const locations = takingsLocationsResponseSchema.parse((await get('/api/admin/takings/locations')).body);
    expect(locations.map((location) => location.key)).toEqual(SEED_LOCATIONS.map((s) => s.key).sort());
    expect(locations.find((location) => location.key === 'oca')).toEqual({
      key: 'oca',
      name: SEED_LOCATIONS.find((seed) => seed.key === 'oca')!.nome,
      ...kiosks.get('oca')!.address,
      timezone: 'Europe/Rome',
    });
    // Each location's own zone, so the page's current month is that of the site (London is not Rome).
    expect(locations.find((location) => location.key === 'campo')?.timezone).toBe('Europe/London');

    const tested = await app.call('POST', '/api/admin/takings/connection-test', {
      token: app.token,
      body: {},
    });
    expect(tested.status).toBe(200);
    const results = connectionTestResponseSchema.parse(tested.body);
    expect(results.map((result) => [result.key, result.success])).toEqual(
      locations.map((location) => [location.key, location.key !== DOWN]),
    );
    expect(results.find((result) => result.key === DOWN)).toMatchObject({
      recipient: '127.0.0.1',
      port: downPort,
      error: `127.0.0.1:${downPort} non raggiungibile (ECONNREFUSED)`,
    });

    const one = await app.call('POST', '/api/admin/takings/connection-test', {
      token: app.token,
      body: { location: 'campo' },
    });
    expect(connectionTestResponseSchema.parse(one.body)).toEqual([
      { key: 'campo', name: expect.any(String), ...kiosks.get('campo')!.address, success: true },
    ]);
  });

  it("keeps operators' test bookings out of the online takings and shows them apart", async () => {
    // 27 March 2026 (the app's clock): the running month.
    const month = '2026-03';
    const now = app.clock.now();
    const inAnHour = (hours: number) => new Date(now.getTime() + hours * 3_600_000).toISOString();
    const testBooking = (body: Record<string, unknown>) =>
      app.call<{ transactionId: string }>('POST', '/api/system/admin/create-test-booking', {
        token: app.token,
        body: {
          nome: 'Prova',
          cognome: 'Operatore',
          email: 'ops@deposito.test',
          startTime: inAnHour(1),
          endTime: inAnHour(4),
          ...body,
        },
      });
    // A real paid booking, made today at oca: it counts.
    const real = await app.store.bookings.reserveLockers({
      booking: buildBooking({
        transactionId: newTransactionId(),
        locationKey: 'oca',
        status: 'confirmed',
        startAt: new Date(inAnHour(1)),
        endAt: new Date(inAnHour(3)),
        priceDiscountedCents: 1250,
        expiresAt: null,
      }),
      maxOnline: 100,
      now,
    });
    expect(real.ok).toBe(true);
    // Test bookings: paid ones would have counted; a pending one would not have anyway.
    const confirmed = await testBooking({ location: 'oca', status: 'confirmed', priceDiscounted: 40 });
    const scheduled = await testBooking({ location: 'oca', status: 'scheduled', priceDiscounted: 15.5 });
    const elsewhere = await testBooking({ location: 'vicolo', status: 'confirmed', priceDiscounted: 25 });
    const pending = await testBooking({ location: 'oca', status: 'pending', priceDiscounted: 99 });
    for (const answer of [confirmed, scheduled, elsewhere, pending]) expect(answer.status).toBe(200);

    const all = takingsResponseSchema.parse(
      (await get(`/api/admin/takings?month=${month}&location=all&reload=1`)).body,
    );
    const ocaTotem = ocaTotemCents(month, '2026-03-27', now);
    expect(all.data.oca['27/03/2026']).toEqual({
      online: 12.5,
      totem: ocaTotem / 100,
      total: (1250 + ocaTotem) / 100,
    });
    expect(onlineEuros(all.data, 'vicolo')).toBe(0);
    expect(onlineEuros(all.data, 'oca')).toBe(12.5);
    expect(all.testBookings).toEqual({ oca: { count: 2, amount: 55.5 }, vicolo: { count: 1, amount: 25 } });

    const oca = takingsResponseSchema.parse(
      (await get(`/api/admin/takings?month=${month}&location=oca`)).body,
    );
    expect(oca.testBookings).toEqual({ oca: { count: 2, amount: 55.5 } });
    expect(oca.data.oca['27/03/2026']).toMatchObject({ online: 12.5 });

    // The bookings list marks them.
    const rows = recentBookingsResponseSchema.parse((await get('/api/admin/bookings/recent')).body);
    const isTest = (transactionId: string) =>
      rows.filter((row) => row.TRANSACTION_ID === transactionId).map((row) => row.is_test);
    for (const answer of [confirmed, scheduled, elsewhere, pending]) {
      expect(isTest(answer.body.transactionId)).toEqual([true]);
    }
    if (real.ok) expect(isTest(real.booking.transactionId)).toEqual([false]);
  });

  it('says per location when its totem data could not be read, with the reason, and reads it again', async () => {
    const oca = kiosks.get('oca')!;
    const all = () => get(`/api/admin/takings?month=${MONTH}&location=all&reload=1`);
    try {
      const down = takingsResponseSchema.parse((await all()).body);
      expect(down.totemMissing).toEqual([
        { location: DOWN, reason: `127.0.0.1:${downPort} non raggiungibile (ECONNREFUSED)` },
      ]);

      oca.failWith('http-500');
      const failing = takingsResponseSchema.parse((await all()).body);
      expect(failing.totemMissing).toEqual([
        { location: DOWN, reason: `127.0.0.1:${downPort} non raggiungibile (ECONNREFUSED)` },
        { location: 'oca', reason: `127.0.0.1:${oca.port} ha risposto HTTP 500` },
      ]);
      // The online takings are still there; the answer says the totem part is missing.
      expect(failing.data.oca['10/02/2026']).toEqual({ online: 12.5, totem: 0, total: 12.5 });
      const single = takingsResponseSchema.parse(
        (await get(`/api/admin/takings?month=${MONTH}&location=oca&reload=1`)).body,
      );
      expect(single.totemMissing).toEqual([
        { location: 'oca', reason: `127.0.0.1:${oca.port} ha risposto HTTP 500` },
      ]);

      // A month read while a kiosk failed is read again (soon, or at once with reload=1).
      oca.failWith(null);
      const back = takingsResponseSchema.parse((await all()).body);
      expect(back.totemMissing.map((missing) => missing.location)).toEqual([DOWN]);
      expect(back.data.oca['10/02/2026']).not.toEqual(failing.data.oca['10/02/2026']);
      expect(back.data.oca['10/02/2026']).toMatchObject({ online: 12.5 });
    } finally {
      oca.failWith(null);
    }
  });
});
