// The availability call's latency with 1,000,000 past and future bookings in the store, against the
// same call with 1,000. Both stores hold the same bookings in the asked range; the million adds
// bookings outside it (and at the other locations), so the figure shows what the store's size costs.
import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { bookingQueries } from '@deposito/cloud/store/booking-queries';
import type { Database } from '@deposito/cloud/store/database';
import { toSqliteValues } from '@deposito/cloud/store/sqlite-database';
import { Kysely, SqliteDialect } from 'kysely';
import { DateTime } from 'luxon';
import { againstBaseline, round, type BenchOptions, type BenchResult } from './bench-result';
import { fifteenDayQuery, uncachedVariant } from './availability-throughput';
import { runLoad, type LoadFigures } from './http-load';
import { startCloudProcess } from './processes';
import { createBenchDatabase, type BenchDatabase } from './stores';

export const name = 'availability-latency';
const LOCATION = 'vicolo';
const BASE_BOOKINGS = 1_000;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

interface Locker {
  id: number;
  locationKey: string;
  size: string;
}

/**
 * Writes `count` bookings (one locker each) straight into the SQLite file in big transactions.
 * `slotOf(i)` gives each one's start; `skip` leaves out those that would fall in a protected span.
 */
function bulkInsertBookings(
  filename: string,
  count: number,
  slotOf: (index: number, locker: Locker, lockers: number) => number,
  skip: (locker: Locker, startMs: number) => boolean,
): number {
  const db = new BetterSqlite3(filename);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = OFF');
  const lockers = db
    .prepare('select id, location_key as locationKey, size from lockers order by id')
    .all() as Locker[];
  const insertBooking = db.prepare(`insert into bookings (transaction_id, location_key, status, start_at,
    end_at, size, quantity, duration_value, duration_unit, price_original_cents, price_discounted_cents,
    fee_cents, total_cents, note, lang, pin, created_at, updated_at)
    values (?, ?, ?, ?, ?, ?, 1, 1, 'hours', 500, 500, 50, 550, 'lang:it', 'it', ?, ?, ?)`);
  const insertLocker = db.prepare(
    'insert into booking_lockers (transaction_id, locker_id, start_at, end_at, active) values (?, ?, ?, ?, ?)',
  );
  const prefix = randomBytes(4).toString('hex');
  let written = 0;
  let index = 0;
  const batch = db.transaction((until: number) => {
    while (written < until) {
      const locker = lockers[index % lockers.length]!;
      const startMs = slotOf(index, locker, lockers.length);
      index += 1;
      if (skip(locker, startMs)) continue;
      const startAt = new Date(startMs).toISOString();
      const endAt = new Date(startMs + HOUR).toISOString();
      // One in ten was cancelled and holds nothing; the rest are paid stays.
      const cancelled = written % 10 === 9;
      const id = `${prefix}${written.toString(36).padStart(8, '0')}`;
      const pin = String(100000 + (written % 899999));
      insertBooking.run(
        id,
        locker.locationKey,
        cancelled ? 'cancelled' : 'confirmed',
        startAt,
        endAt,
        locker.size,
        pin,
        startAt,
        startAt,
      );
      insertLocker.run(id, locker.id, startAt, endAt, cancelled ? 0 : 1);
      written += 1;
    }
  });
  for (let until = 0; until < count;) {
    until = Math.min(count, until + 50_000);
    batch(until);
  }
  db.pragma('optimize');
  db.close();
  return written;
}

/** Bookings at the asked location that end after now (what an unbounded index range would read). */
function countFuture(filename: string): number {
  const db = new BetterSqlite3(filename, { readonly: true });
  try {
    const row = db
      .prepare('select count(*) as n from bookings where location_key = ? and end_at > ?')
      .get(LOCATION, new Date().toISOString()) as { n: number };
    return row.n;
  } finally {
    db.close();
  }
}

/** The plan SQLite picks for the occupancy read of the availability call: the store's own query. */
function occupancyPlan(filename: string, from: Date, to: Date): string {
  const handle = new BetterSqlite3(filename, { readonly: true });
  try {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
    const query = bookingQueries(db).occupations.withValues({
      locationKey: LOCATION,
      from,
      to,
      now: new Date(),
    });
    const values = toSqliteValues(query.parameters);
    const rows = handle.prepare(`explain query plan ${query.sql}`).all(values) as Array<{ detail: string }>;
    return rows.map((row) => row.detail).join(' | ');
  } finally {
    handle.close();
  }
}

interface SeededStores {
  /** Bookings written into the big store beyond the shared 1,000. */
  filled: number;
  seedSeconds: number;
  futureAtLocation: number;
  plan: string;
}

/** The same 1,000 bookings in both stores, and the big one filled up to `bigCount`. */
function seedStores(
  small: BenchDatabase,
  big: BenchDatabase,
  bigCount: number,
  rangeStart: DateTime,
): SeededStores {
  const protectedFrom = rangeStart.minus({ days: 2 }).toMillis();
  const protectedTo = rangeStart.plus({ days: 17 }).toMillis();
  const inProtected = (ms: number) => ms + HOUR > protectedFrom && ms < protectedTo;

  // The same 1,000 bookings in both stores: spread over the weeks around the range, the asked
  // location included, one hour each, one every 7 hours per locker.
  const baseStart = protectedFrom - 10 * DAY;
  const seedBase = (database: BenchDatabase) =>
    bulkInsertBookings(
      database.filename!,
      BASE_BOOKINGS,
      (index, _locker, lockers) => baseStart + Math.floor(index / lockers) * 7 * HOUR,
      () => false,
    );
  // The million: two years back to six months ahead, every location, never at the asked location
  // during the asked range, so both stores answer the same.
  const fillFrom = Date.now() - 730 * DAY;
  const fillSpan = 910 * DAY;
  const seedFill = (database: BenchDatabase, count: number) =>
    bulkInsertBookings(
      database.filename!,
      count,
      (index, _locker, lockers) => {
        const perLocker = Math.ceil(count / lockers) + 1;
        // About 1.9 hours apart, one hour long: each locker's bookings never overlap.
        const step = Math.max(HOUR, Math.floor(fillSpan / perLocker / 60_000) * 60_000);
        return fillFrom + Math.floor(index / lockers) * step;
      },
      (locker, ms) => locker.locationKey === LOCATION && inProtected(ms),
    );

  seedBase(small);
  seedBase(big);
  const seedStarted = Date.now();
  const filled = seedFill(big, bigCount - BASE_BOOKINGS);
  const seedSeconds = (Date.now() - seedStarted) / 1000;
  const futureAtLocation = countFuture(big.filename!);
  const plan = occupancyPlan(big.filename!, rangeStart.toJSDate(), rangeStart.plus({ days: 15 }).toJSDate());
  return { filled, seedSeconds, futureAtLocation, plan };
}

/** Both clouds' latency for the same computed availability call, in alternating rounds. */
async function compareLatency(
  smallUrl: string,
  bigUrl: string,
  requests: number,
  quick: boolean | undefined,
): Promise<{ smallRuns: LoadFigures[]; bigRuns: LoadFigures[]; sameAnswer: boolean }> {
  const path = fifteenDayQuery(LOCATION);
  // Every timed call must compute its answer: the cloud reuses an identical answer for up to a
  // second (AVAILABILITY_REUSE_MS). The start is therefore sent as a different instant of the
  // same local day on each call (the answer is the same; the request is not).
  let call = 0;
  const computed = [
    {
      method: 'GET' as const,
      setupRequest: (request: { path?: string }) => ({
        ...request,
        path: uncachedVariant(path, call++),
      }),
    },
  ];
  const bodies = new Set<string>();
  const once = async (url: string, query: string) => {
    const response = await fetch(`${url}${query}`);
    bodies.add(await response.text());
  };
  // Both stores give the same answer, to the plain range and to its variants.
  await once(smallUrl, path);
  await once(bigUrl, path);
  await once(bigUrl, uncachedVariant(path, 4321));
  // One request at a time, alternating rounds, so both see the same machine.
  const load = { connections: 1, amount: Math.ceil(requests / 2) };
  const warm = { connections: 1, amount: quick ? 5 : 100 };
  await runLoad({ url: smallUrl, requests: computed, ...warm });
  await runLoad({ url: bigUrl, requests: computed, ...warm });
  const smallRuns = [];
  const bigRuns = [];
  for (let i = 0; i < 2; i += 1) {
    smallRuns.push(await runLoad({ url: smallUrl, requests: computed, ...load }));
    bigRuns.push(await runLoad({ url: bigUrl, requests: computed, ...load }));
  }
  return { smallRuns, bigRuns, sameAnswer: bodies.size === 1 };
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const bigCount = options.quick ? 20_000 : 1_000_000;
  const requests = options.quick ? 20 : 1_500;
  const rangeStart = DateTime.now().setZone('Europe/Rome').plus({ days: 1 }).startOf('day');

  const small = await createBenchDatabase('sqlite');
  const big = await createBenchDatabase('sqlite');
  try {
    const { filled, seedSeconds, futureAtLocation, plan } = seedStores(small, big, bigCount, rangeStart);
    const smallCloud = await startCloudProcess({ databaseUrl: small.url });
    const bigCloud = await startCloudProcess({ databaseUrl: big.url });
    try {
      const { smallRuns, bigRuns, sameAnswer } = await compareLatency(
        smallCloud.url,
        bigCloud.url,
        requests,
        options.quick,
      );
      const baseline = Math.max(...smallRuns.map((r) => r.latencyP99Ms));
      const figure = Math.max(...bigRuns.map((r) => r.latencyP99Ms));
      const failures = [...smallRuns, ...bigRuns].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
      const { ratio, reported } = againstBaseline(figure, 'ms p99', baseline);
      // Each locker's short range of starts, and no table read whole (what grew with the store before).
      const usesIndex =
        /booking_lockers_locker_active_start_idx \(locker_id=\? AND active=\? AND start_at>\? AND start_at<\?\)/.test(
          plan,
        ) && !/\bSCAN (bl|bookings|booking_lockers)\b/.test(plan);
      return {
        name,
        ...reported,
        target: '≤ 2 × baseline p99',
        pass: ratio <= 2 && failures === 0 && sameAnswer && usesIndex,
        notes: `${LOCATION}, 15 days, ${(filled + BASE_BOOKINGS).toLocaleString('en')} vs ${BASE_BOOKINGS.toLocaleString('en')} bookings; 1 connection, 2 alternating rounds`,
        details: {
          bookings: filled + BASE_BOOKINGS,
          sameAnswer,
          failures,
          p50Ms: Math.max(...bigRuns.map((r) => r.latencyP50Ms)),
          baselineP50Ms: Math.max(...smallRuns.map((r) => r.latencyP50Ms)),
          seedSeconds: round(seedSeconds),
          futureBookingsAtLocation: futureAtLocation,
          usesIndex,
          plan,
        },
      };
    } finally {
      await smallCloud.stop();
      await bigCloud.stop();
    }
  } finally {
    await small.dispose();
    await big.dispose();
  }
}
