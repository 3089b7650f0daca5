import { createServer } from 'node:net';
import {
  connectionTestResponseSchema,
  recentErrorLogResponseSchema,
  SEED_LOCATIONS,
  takingsLocationsResponseSchema,
  takingsResponseSchema,
  totemProceedsResponseSchema,
} from '@deposito/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startAdminTestApp, type AdminTestApp } from '../../../test/admin-test-app';
import { buildBooking } from '../../../test/builders';
import { PromotecSimulator, simulatedProceeds } from '../../takings/promotec-simulator';

/** A port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The test app's clock is 27 March 2026; February is over.
const MONTH = '2026-02';
// Every seed location gets a simulated kiosk except `magna`, whose kiosk is down.
const DOWN = 'magna';

describe('takings over HTTP', () => {
  let app: AdminTestApp;
  let token: string;
  let downPort: number;
  const kiosks = new Map<string, PromotecSimulator>();
  const get = <T>(path: string, auth = token) => app.call<T>('GET', path, { token: auth });

  beforeAll(async () => {
    app = await startAdminTestApp();
    token = await app.login();
    downPort = await closedPort();
    for (const seed of SEED_LOCATIONS) {
      const location = (await app.store.locations.get(seed.key))!;
      let address = { recipient: '127.0.0.1', port: downPort };
      if (seed.key !== DOWN) {
        const kiosk = await PromotecSimulator.start({ locationKey: seed.key, zone: location.zone });
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
    expect(records.map((record) => record.billNo)).toEqual(expected.map((proceed) => proceed.billNo));
    expect(records[0]).toEqual({
      date: expected[0].date,
      amount: expected[0].amountCents / 100,
      locker: expected[0].lockerId,
      billNo: expected[0].billNo,
      discount: expected[0].discountCents / 100,
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

    const ocaTotem = simulatedProceeds('oca', 'Europe/Rome', MONTH)
      .filter((proceed) => proceed.date.startsWith('2026-02-10'))
      .reduce((sum, proceed) => sum + proceed.amountCents, 0);
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
    });

    const tested = await app.call('POST', '/api/admin/takings/connection-test', { token, body: {} });
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
      token,
      body: { location: 'campo' },
    });
    expect(connectionTestResponseSchema.parse(one.body)).toEqual([
      { key: 'campo', name: expect.any(String), ...kiosks.get('campo')!.address, success: true },
    ]);
  });
});
