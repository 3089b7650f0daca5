import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildBooking, newTransactionId, seedLocation } from '../../test/builders';
import { startTestApp, TEST_NOW, useTestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-store';
import { createApp, ROUTE_AREAS, type CloudApp, type RouteArea } from '../app';
import { ManualClock } from '../clock';
import { loadEnv } from '../env';
import type { Store } from '../store/store';
import { METRIC_NAMES, type BridgeMetricsSource } from './metrics';
import { storeReadinessChecks } from './observability';
import { checkReadiness } from './readiness';

const TOKEN = 'metrics-token-for-tests-0123456789';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface ObservedApp {
  url: string;
  cloud: CloudApp;
  store: Store;
  /** Every JSON line the app logged. */
  logs: Array<Record<string, unknown>>;
  close(): Promise<void>;
}

/** A real cloud on an ephemeral port over a fresh SQLite file, logging into an array. */
async function startObservedApp(
  env: Record<string, string> = {},
  areas: readonly RouteArea[] = ROUTE_AREAS,
): Promise<ObservedApp> {
  const database: TestDatabase = await createTestDatabase('sqlite');
  const store = await database.open();
  const logs: Array<Record<string, unknown>> = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n')) if (line) logs.push(JSON.parse(line));
      done();
    },
  });
  const cloud = createApp({
    env: loadEnv({
      DATABASE_URL: 'sqlite::memory:',
      PORT: '0',
      PAYMENT_PROVIDER: 'sandbox',
      METRICS_TOKEN: TOKEN,
      ...env,
    }),
    store,
    clock: new ManualClock('2026-03-10T08:00:00Z'),
    logger: pino({ level: 'info' }, sink),
    areas,
  });
  const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
  let closed = false;
  return {
    url,
    cloud,
    store,
    logs,
    async close() {
      if (closed) return;
      closed = true;
      await cloud.stop();
      await store.close();
      await database.dispose();
    },
  };
}

async function scrape(
  url: string,
  headers: Record<string, string> = { authorization: `Bearer ${TOKEN}` },
): Promise<string> {
  const response = await fetch(`${url}/metrics`, { headers });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return response.text();
}

/** The value of one sample, e.g. `deposito_bookings{status="pending"}`. */
function sample(exposition: string, series: string): number | undefined {
  const line = exposition.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('readiness and metrics over HTTP', () => {
  const { test: app } = useTestApp(() => startObservedApp());

  it('is ready when the store answers and its migrations ran', async () => {
    const response = await fetch(`${app.url}/readyz`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      status: 'ready',
      checks: { store: 'ok', migrations: 'ok', accepting: 'ok' },
    });
  });

  it('keeps /healthz answering beside /readyz', async () => {
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });

  it('times requests by route pattern, never by raw URL', async () => {
    const transactionId = newTransactionId();
    const missing = await fetch(`${app.url}/api/bookings/${transactionId}`);
    expect(missing.status).toBe(404);
    expect((await fetch(`${app.url}/api/no-such-thing/${transactionId}`)).status).toBe(404);

    const exposition = await scrape(app.url);
    const bucket = `${METRIC_NAMES.httpDuration}_count{method="GET",route="/api/bookings/:transactionId",status_class="4xx"}`;
    expect(sample(exposition, bucket)).toBe(1);
    expect(
      sample(
        exposition,
        `${METRIC_NAMES.httpDuration}_count{method="GET",route="unmatched",status_class="4xx"}`,
      ),
    ).toBe(1);
    expect(exposition).toContain(`${METRIC_NAMES.httpDuration}_bucket{le="0.005",method="GET"`);
    // The id a client sent appears in no label.
    expect(exposition).not.toContain(transactionId);
  });

  it('gauges bookings by status from the store', async () => {
    await seedLocation(app.store, { standard: 4, large: 2 });
    const now = new Date('2026-03-10T08:00:00Z');
    const bookings = [buildBooking(), buildBooking({ quantity: 2 }), buildBooking()];
    for (const booking of bookings) {
      expect((await app.store.bookings.reserveLockers({ booking, maxOnline: 100, now })).ok).toBe(true);
    }
    await app.store.bookings.transition(bookings[2].transactionId, {
      from: ['pending'],
      to: 'cancelled',
      actor: 'visitor',
      reason: 'visitor_cancelled',
      now,
    });

    const exposition = await scrape(app.url);
    expect(sample(exposition, `${METRIC_NAMES.bookings}{status="pending"}`)).toBe(2);
    expect(sample(exposition, `${METRIC_NAMES.bookings}{status="cancelled"}`)).toBe(1);
    expect(sample(exposition, `${METRIC_NAMES.bookings}{status="confirmed"}`)).toBe(0);
  });

  it('exposes the process defaults', async () => {
    const exposition = await scrape(app.url);
    expect(exposition).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(exposition).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });
});

describe('bridge figures without a hub', () => {
  // No area at all: the app's hub is built but never attached, so no area reports its figures.
  const { test: app } = useTestApp(() => startObservedApp({}, []));

  it('reads no bridges and no commands while no hub is running', async () => {
    const exposition = await scrape(app.url);
    expect(sample(exposition, METRIC_NAMES.bridgesConnected)).toBe(0);
    expect(sample(exposition, METRIC_NAMES.oldestPendingCommandAge)).toBe(0);
    expect(exposition).not.toMatch(new RegExp(`^${METRIC_NAMES.bridgeCommands}\\{`, 'm'));
  });

  it("gauges the hub's bridges and commands once it reports them", async () => {
    const hub: BridgeMetricsSource = {
      bridgesConnected: async () => 3,
      commandsByStatus: async () => ({ queued: 2, succeeded: 40, unknown: 1 }),
      oldestPendingCommandAgeSeconds: async () => 12.5,
    };
    app.cloud.context.metrics.useBridgeSource(hub);
    const exposition = await scrape(app.url);
    expect(sample(exposition, METRIC_NAMES.bridgesConnected)).toBe(3);
    expect(sample(exposition, `${METRIC_NAMES.bridgeCommands}{status="queued"}`)).toBe(2);
    expect(sample(exposition, `${METRIC_NAMES.bridgeCommands}{status="succeeded"}`)).toBe(40);
    expect(sample(exposition, METRIC_NAMES.oldestPendingCommandAge)).toBe(12.5);
  });
});

describe("the bridge hub's figures", () => {
  const { test: app } = useTestApp(() => startTestApp({ env: { METRICS_TOKEN: TOKEN } }));

  it("reads the outbox through the running app's hub", async () => {
    const now = new Date(TEST_NOW);
    await app.store.bridge.insertCommand({
      id: 'cmd-metrics-1',
      locationKey: 'vicolo',
      op: 'open',
      lockerId: 3,
      params: null,
      transactionId: null,
      issuedAt: new Date(now.getTime() - 30_000),
      expiresAt: new Date(now.getTime() + 60_000),
    });
    const exposition = await scrape(app.url);
    expect(sample(exposition, `${METRIC_NAMES.bridgeCommands}{status="queued"}`)).toBe(1);
    expect(sample(exposition, `${METRIC_NAMES.bridgeCommands}{status="succeeded"}`)).toBe(0);
    expect(sample(exposition, METRIC_NAMES.oldestPendingCommandAge)).toBe(30);
    expect(sample(exposition, METRIC_NAMES.bridgesConnected)).toBe(0);
  });
});

describe('request ids', () => {
  const { test: app } = useTestApp(() => startObservedApp());

  const completionLine = (id: string) =>
    app.logs.find((line) => line.reqId === id && line.msg === 'request completed');

  it('echoes a usable X-Request-Id and logs the request under it', async () => {
    const id = 'edge-7f3a9c21.b4:42';
    const response = await fetch(`${app.url}/api/locations/vicolo`, { headers: { 'X-Request-Id': id } });
    expect(response.headers.get('x-request-id')).toBe(id);
    await expect.poll(() => completionLine(id)).toBeDefined();
  });

  it('generates a UUID when none is sent', async () => {
    const response = await fetch(`${app.url}/healthz`);
    expect(response.headers.get('x-request-id')).toMatch(UUID);
  });

  it('replaces an id that is too long or carries other characters', async () => {
    for (const sent of ['a'.repeat(129), 'bad id', 'x\u00e9', '<script>']) {
      const response = await fetch(`${app.url}/healthz`, { headers: { 'X-Request-Id': sent } });
      expect(response.headers.get('x-request-id')).toMatch(UUID);
    }
  });

  it('keeps booking ids, payment tokens, private-link tokens and sessions out of the request log', async () => {
    const bookingId = newTransactionId();
    const calls: Array<[string, Record<string, string>]> = [
      [`/api/bookings/${bookingId}`, {}],
      [`/api/bookings/${bookingId}/cancel`, {}],
      [`/api/my-booking/PRIVATELINKTOKEN0123456789abcdef/calendar.ics`, {}],
      [`/sandbox-pay?a=SHOPLOGINSECRET&b=PAYMENTTOKENSECRET`, {}],
      [`/api/payments/notification?a=SHOPLOGINSECRET&b=PAYMENTTOKENSECRET`, {}],
      [
        `/booking-complete?transactionId=${bookingId}&lng=it`,
        {
          authorization: 'Bearer SESSIONSECRET0123456789',
          referer: `https://host.example/booking-complete?transactionId=${bookingId}`,
        },
      ],
    ];
    for (const [path, headers] of calls) {
      const id = `redaction-${calls.findIndex(([p]) => p === path)}`;
      await (await fetch(`${app.url}${path}`, { headers: { ...headers, 'X-Request-Id': id } })).text();
      await expect.poll(() => app.logs.some((line) => line.reqId === id && 'req' in line)).toBe(true);
    }
    const logged = JSON.stringify(app.logs.filter((line) => String(line.reqId).startsWith('redaction-')));
    for (const secret of [
      bookingId,
      bookingId.slice('BOOKING-'.length),
      'PRIVATELINKTOKEN',
      'SHOPLOGINSECRET',
      'PAYMENTTOKENSECRET',
      'SESSIONSECRET',
    ]) {
      expect(logged).not.toContain(secret);
    }
    // What the logs are for is still there: the route, and the harmless parameters.
    expect(logged).toContain('/api/bookings/BOOKING-[redacted]/cancel');
    expect(logged).toContain('/api/my-booking/[redacted]/calendar.ics');
    expect(logged).toContain('lng=it');
  });

  it('puts the id in the log lines of an error answer', async () => {
    const id = 'error-request-1';
    const response = await fetch(`${app.url}/api/bookings/save`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'X-Request-Id': id },
      body: '{"not json',
    });
    expect(response.status).toBe(400);
    expect(response.headers.get('x-request-id')).toBe(id);
    await expect
      .poll(() => completionLine(id))
      .toMatchObject({
        level: 40,
        reqId: id,
        res: { statusCode: 400 },
      });
  });
});

describe('the metrics token', () => {
  const { test: app } = useTestApp(() => startObservedApp({ METRICS_TOKEN: TOKEN }));

  it('refuses a scrape without the token, or with another', async () => {
    for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: TOKEN }] as Array<
      Record<string, string>
    >) {
      const response = await fetch(`${app.url}/metrics`, { headers });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
      expect(await response.json()).toMatchObject({ error: { code: 'auth/unauthorized' } });
    }
  });

  it('serves the metrics with the Bearer token', async () => {
    const exposition = await scrape(app.url, { authorization: `Bearer ${TOKEN}` });
    expect(exposition).toContain(`# TYPE ${METRIC_NAMES.bookings} gauge`);
  });

  it('leaves the probes open', async () => {
    expect((await fetch(`${app.url}/readyz`)).status).toBe(200);
  });

  it('stays closed without a token outside a demo, and open in a demo (DEMO=1) without one', async () => {
    const closed = await startObservedApp({ METRICS_TOKEN: '' });
    try {
      const response = await fetch(`${closed.url}/metrics`);
      expect(response.status).toBe(401);
      expect(await response.json()).toMatchObject({ error: { code: 'auth/unauthorized' } });
      const guessed = await fetch(`${closed.url}/metrics`, { headers: { authorization: 'Bearer ' } });
      expect(guessed.status).toBe(401);
    } finally {
      await closed.close();
    }
    const demo = await startObservedApp({ METRICS_TOKEN: '', DEMO: '1' });
    try {
      expect(await scrape(demo.url, {})).toContain(`# TYPE ${METRIC_NAMES.bookings} gauge`);
    } finally {
      await demo.close();
    }
  });

  it('is refused as too short at start-up', () => {
    expect(() => loadEnv({ METRICS_TOKEN: 'short' })).toThrow(/METRICS_TOKEN needs at least 16 characters/);
  });
});

describe('readiness when the store is gone', () => {
  let app: ObservedApp;

  afterEach(async () => {
    await app?.close();
  });

  it('answers 503 once the store is closed', async () => {
    app = await startObservedApp();
    await app.store.close();
    const response = await fetch(`${app.url}/readyz`);
    expect(response.status).toBe(503);
    expect(await response.json()).toMatchObject({ status: 'unavailable', checks: { store: 'failing' } });
    expect(app.logs.some((line) => line.msg === 'readiness check failed' && line.check === 'store')).toBe(
      true,
    );
  });

  it('still serves /metrics without the store, leaving the booking figures out', async () => {
    app = await startObservedApp();
    await app.store.close();
    const exposition = await scrape(app.url);
    expect(exposition).not.toMatch(new RegExp(`^${METRIC_NAMES.bookings}\\{`, 'm'));
    expect(exposition).toMatch(/^process_cpu_user_seconds_total /m);
  });
});

describe('checkReadiness', () => {
  it('reports a check that does not answer in time as a timeout', async () => {
    const report = await checkReadiness(
      [
        { name: 'quick', check: async () => {} },
        { name: 'stuck', check: () => new Promise<void>(() => {}) },
      ],
      20,
    );
    expect(report.ready).toBe(false);
    expect(report.checks).toEqual({ quick: 'ok', stuck: 'timeout' });
  });

  it('reports pending migrations as failing', async () => {
    const checks = storeReadinessChecks({
      ping: async () => {},
      pendingMigrations: async () => ['20991231000000_future'],
    });
    const report = await checkReadiness(checks);
    expect(report.checks).toEqual({ store: 'ok', migrations: 'failing' });
    expect(String(report.failures[0].error)).toContain('20991231000000_future');
  });
});
