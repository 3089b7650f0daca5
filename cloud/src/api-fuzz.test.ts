import { ACTIVE_BOOKING_STATUSES, apiRoutes, PAID_BOOKING_STATUSES, type ApiRoute } from '@deposito/protocol';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  answerProblem,
  materialize,
  requestPlans,
  send,
  type HttpAnswer,
  type IdPools,
  type RequestPlan,
} from '../test/fuzz/api-requests';
import { startFuzzApp, type FuzzApp } from '../test/fuzz/fuzz-app';
import { STORE_DIALECTS } from '../test/test-store';
import type { BookingRecord } from './store/booking.repository';

// The API fuzzer (issue: property-based fuzzing of every route): for each route of protocol's
// catalogue, fast-check sends valid requests made from the route's zod schemas and hostile
// mutations of them to a real cloud over HTTP, on SQLite and on PostgreSQL. Every answer must be
// 2xx or 4xx — never 5xx — a success must match the route's response contract and an error the one
// error shape. Afterwards the store's invariants still hold and the cloud is still ready.
// Each dialect prints its seed: FUZZ_SEED=<seed> replays a run, FUZZ_RUNS=<n> lengthens it (valid
// and hostile requests per route each).

// About 20 s per dialect on a 2-core machine with the defaults.
const RUNS = Number(process.env.FUZZ_RUNS ?? 6);
const HOSTILE_RUNS = Number(process.env.FUZZ_RUNS ?? 10);

interface Tally {
  valid2xx: number;
  valid: number;
  byStatus: Map<number, number>;
  /** Routes none of whose valid requests succeeded (refinements, ids, state), to see what is shallow. */
  neverSucceeded: Set<string>;
}

describe.each(STORE_DIALECTS)('API fuzzer on %s', (dialect) => {
  let app: FuzzApp;
  let token = '';
  const pools: IdPools = {
    locationKeys: [],
    createdLocationKeys: [],
    transactionIds: [],
    discountCodes: [],
    userIds: [],
    myBookingTokens: [],
  };
  const seedKeys = new Set<string>();
  /** Bookings an operator made by hand (create-test-booking): any status, prices and payment time. */
  const handMade = new Set<string>();

  beforeAll(async () => {
    app = await startFuzzApp(dialect);
    token = await app.newAdminToken();
    for (const key of (await app.store.locations.list()).map((location) => location.key)) seedKeys.add(key);
    // A real hold per seeded location (the first offered window tomorrow), so the id pools name
    // bookings from the start and the booking, payment and my-booking routes get past "not found".
    let held = 0;
    for (const locationKey of seedKeys) {
      search: for (const hour of [9, 10, 12, 14]) {
        for (const hours of [1, 2, 3, 4, 24]) {
          const start = new Date(Date.UTC(2026, 2, 28, hour));
          const hold = await send(app.url, {
            method: 'POST',
            path: '/api/lockers/inhibit-multi',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({
              locationKey,
              dimensione: 'standard',
              quantita: 1,
              startTimeIso: start.toISOString(),
              endTimeIso: new Date(start.getTime() + hours * 3_600_000).toISOString(),
            }),
            label: 'warm-up hold',
          });
          if (hold.status === 200) {
            held += 1;
            break search;
          }
        }
      }
    }
    expect(held, 'no seeded location took a warm-up hold').toBeGreaterThan(0);
    await refreshPools();
  });
  afterAll(async () => {
    await app?.close();
  });

  async function refreshPools(): Promise<void> {
    const { store } = app;
    pools.locationKeys = (await store.locations.list()).map((location) => location.key);
    pools.createdLocationKeys = pools.locationKeys.filter((key) => !seedKeys.has(key));
    pools.discountCodes = (await store.discounts.list()).map((discount) => discount.code);
    pools.userIds = (await store.adminUsers.list()).map((user) => user.id);
    pools.transactionIds = (await store.bookingAdmin.recentRows(200)).map((row) => row.transactionId);
  }

  /** Ids the answer names that the store cannot list (private booking-link tokens). */
  function collectIds(answer: HttpAnswer): void {
    const body = answer.json as Record<string, unknown> | undefined;
    if (answer.status >= 300 || typeof body !== 'object' || body === null) return;
    if (typeof body.token === 'string' && !pools.myBookingTokens.includes(body.token)) {
      pools.myBookingTokens.push(body.token);
    }
    const url = typeof body.url === 'string' ? body.url : typeof body.link === 'string' ? body.link : '';
    const fromUrl = /\/my-booking\/([A-Za-z0-9_-]{20,})/.exec(url)?.[1];
    if (fromUrl && !pools.myBookingTokens.includes(fromUrl)) pools.myBookingTokens.push(fromUrl);
  }

  /** Keeps the fixture useful after routes that change what the other routes need. */
  async function repair(route: ApiRoute, plan: RequestPlan, answer: HttpAnswer): Promise<void> {
    // Our session was revoked (logout, our administrator deleted or its password changed): a new one.
    if (route.auth === 'admin' && plan.auth === 'token' && answer.status === 401) {
      token = await app.newAdminToken();
    }
    // Maintenance mode or a block window over the clock closes bookings for every later route
    // (a designed 503 booking/maintenance): reopen them.
    if (route.path === '/api/admin/settings/system' && route.method === 'POST' && answer.status < 300) {
      const reopened = await send(app.url, {
        method: 'POST',
        path: '/api/admin/settings/system',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ MAINTENANCE_MODE: false, BLOCK_WINDOWS: [] }),
        label: 'reopen bookings',
      });
      expect(reopened.status, reopened.text).toBe(200);
    }
    // A site put in maintenance by a location call (its own switch) closes its bookings the same
    // way: reopen every site so later routes still reach a working location.
    if (/^\/api\/(?:admin\/)?locations/.test(route.path) && route.method !== 'GET' && answer.status < 300) {
      const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
      const listed = await send(app.url, {
        method: 'GET',
        path: '/api/admin/locations',
        headers: auth,
        label: 'sites',
      });
      const sites = JSON.parse(listed.text) as Record<string, { manutenzione?: boolean }>;
      for (const [id, site] of Object.entries(sites)) {
        if (!site.manutenzione) continue;
        const reopened = await send(app.url, {
          method: 'PATCH',
          path: `/api/admin/locations/${id}`,
          headers: auth,
          body: JSON.stringify({ manutenzione: false }),
          label: 'reopen the site',
        });
        expect(reopened.status, reopened.text).toBe(200);
      }
    }
  }

  it('answers every route 2xx or 4xx (never 5xx) as its contract says, and keeps the store sound', async () => {
    const seed = Number(process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.log(`[api-fuzz] ${dialect}: seed ${seed} (replay with FUZZ_SEED=${seed})`);
    const tally: Tally = {
      valid2xx: 0,
      valid: 0,
      byStatus: new Map(),
      neverSucceeded: new Set(apiRoutes.map((route) => `${route.method} ${route.path}`)),
    };
    const failures: string[] = [];
    const now = app.clock.now();

    for (const [index, route] of apiRoutes.entries()) {
      for (const kind of ['valid', 'hostile'] as const) {
        const details = await fc.check(
          fc.asyncProperty(requestPlans(route, now, kind), async (plan) => {
            const request = materialize(route, plan, pools, token);
            const answer = await send(app.url, request);
            tally.byStatus.set(answer.status, (tally.byStatus.get(answer.status) ?? 0) + 1);
            if (kind === 'valid') {
              tally.valid += 1;
              if (answer.status < 300) {
                tally.valid2xx += 1;
                tally.neverSucceeded.delete(`${route.method} ${route.path}`);
              }
            }
            collectIds(answer);
            const made = (answer.json as { transactionId?: unknown } | undefined)?.transactionId;
            if (route.path === '/api/system/admin/create-test-booking' && typeof made === 'string') {
              handMade.add(made);
            }
            await app.cloud.context.events.idle();
            await repair(route, plan, answer);
            const problem = answerProblem(route, answer);
            if (problem) {
              const sent = typeof request.body === 'string' ? request.body.slice(0, 300) : '(bytes)';
              throw new Error(
                `${route.method} ${route.path} [${request.label}] ${request.method} ${request.path.slice(0, 200)} ` +
                  `body ${sent} → ${answer.status}: ${problem}\n${answer.text.slice(0, 500)}`,
              );
            }
          }),
          {
            seed: seed + index * 2 + (kind === 'hostile' ? 1 : 0),
            numRuns: kind === 'valid' ? RUNS : HOSTILE_RUNS,
            // The server's state moves on between runs: a shrunk replay seldom means more than the
            // first counterexample, and shrinking over HTTP would take the whole budget.
            endOnFailure: true,
          },
        );
        if (details.failed) failures.push(String(details.errorInstance));
        await refreshPools();
      }
    }

    console.log(
      `[api-fuzz] ${dialect}: ${[...tally.byStatus].map(([status, n]) => `${status}×${n}`).join(' ')}; ` +
        `valid requests answered 2xx: ${tally.valid2xx}/${tally.valid}; ` +
        `routes without a 2xx: ${[...tally.neverSucceeded].join(', ') || 'none'}`,
    );
    expect(failures, failures.join('\n\n')).toEqual([]);
    // The generator is not producing only garbage: a fair share of valid requests succeed.
    expect(tally.valid2xx).toBeGreaterThan(tally.valid / 4);

    await expectStoreInvariants(app, handMade);
    const ready = await fetch(`${app.url}/readyz`);
    expect(ready.status).toBe(200);
  }, 240_000);
});

const isOneOf = (status: string, statuses: readonly string[]) => statuses.includes(status);

/** What no sequence of requests may break (mirrors booking-lifecycle.model.test.ts). */
async function expectStoreInvariants(app: FuzzApp, handMade: ReadonlySet<string>): Promise<void> {
  const { store } = app;
  const rows = await store.bookingAdmin.recentRows(100_000);
  const ids = [...new Set(rows.map((row) => row.transactionId))];
  const bookings = (await Promise.all(ids.map((id) => store.bookings.get(id)))).filter(
    (booking): booking is BookingRecord => booking !== null,
  );
  const where = (booking: BookingRecord) => `${booking.transactionId} (${booking.status})`;
  for (const booking of bookings) {
    // Lockers are held exactly while the status says so.
    const active = booking.lockers.filter((locker) => locker.active);
    if (isOneOf(booking.status, ACTIVE_BOOKING_STATUSES)) {
      expect(active, where(booking)).toHaveLength(booking.quantity);
    } else {
      expect(active, where(booking)).toHaveLength(0);
    }
    // Money: a paid booking has its payment time (unless an operator made it by hand, with any
    // status and prices); amounts are whole cents, never negative.
    const paidOnline = isOneOf(booking.status, PAID_BOOKING_STATUSES) && !handMade.has(booking.transactionId);
    if (paidOnline) expect(booking.paidAt, where(booking)).not.toBeNull();
    for (const cents of [
      booking.priceOriginalCents,
      booking.priceDiscountedCents,
      booking.feeCents,
      booking.totalCents,
    ]) {
      expect(Number.isInteger(cents) && cents >= 0, `${where(booking)}: ${cents} cents`).toBe(true);
    }
    // protocol's bookingTotals: the discounted price and fee, topped up to the minimum charge.
    expect(booking.totalCents, where(booking)).toBeGreaterThanOrEqual(
      booking.priceDiscountedCents + booking.feeCents,
    );
    expect(booking.startAt.getTime(), where(booking)).toBeLessThan(booking.endAt.getTime());
    // History: the last recorded move is the status.
    const events = await store.bookings.events(booking.transactionId);
    if (events.length > 0) expect(events.at(-1)!.to, where(booking)).toBe(booking.status);
  }
  // Never two live bookings on one locker of a location at once.
  const live = bookings.filter((booking) => isOneOf(booking.status, ACTIVE_BOOKING_STATUSES));
  const byLocker = new Map<string, BookingRecord[]>();
  for (const booking of live) {
    for (const locker of booking.lockers.filter((l) => l.active)) {
      const key = `${booking.locationKey}#${locker.number}`;
      byLocker.set(key, [...(byLocker.get(key) ?? []), booking]);
    }
  }
  for (const [locker, holders] of byLocker) {
    for (const a of holders) {
      for (const b of holders) {
        if (a.transactionId === b.transactionId) continue;
        const overlap = a.startAt < b.endAt && b.startAt < a.endAt;
        expect(overlap, `locker ${locker} held by ${a.transactionId} and ${b.transactionId}`).toBe(false);
      }
    }
  }
}
