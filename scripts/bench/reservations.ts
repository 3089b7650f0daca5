// What the reservation benchmarks share: many distinct hold requests (so they mostly do not collide)
// and the check, in SQL, that no locker ended up with overlapping active reservations.
import { SEED_LOCATIONS, localDateTime } from '@deposito/protocol';
import BetterSqlite3 from 'better-sqlite3';
import { DateTime } from 'luxon';
import type { AutocannonRequest } from 'autocannon';
import pg from 'pg';
import { againstBaseline, type BenchResult } from './bench-result';
import type { LoadFigures } from './http-load';
import { POSTGRES_URL, type BenchDatabase } from './stores';

/** 3-hour windows that do not overlap each other within a day (a 3-hour stay is the shortest sold). */
const START_TIMES = ['06:00', '09:00', '12:00', '15:00', '18:00'];
const FIRST_DAY_OFFSET = 2;

/**
 * Bodies for POST /api/lockers/inhibit-multi: every location, both sizes, each window asked for as
 * many times as the location sells that size online, then the next window. Enough for `count`.
 */
export function holdRequestBodies(count: number): string[] {
  const bodies: string[] = [];
  const today = DateTime.now().setZone('Europe/Rome');
  for (let day = FIRST_DAY_OFFSET; bodies.length < count && day < 170; day += 1) {
    const date = today.plus({ days: day }).toISODate()!;
    for (const time of START_TIMES) {
      for (let round = 0; round < 12; round += 1) {
        for (const location of SEED_LOCATIONS) {
          for (const size of ['standard', 'large'] as const) {
            if (round >= location.maxOnline[size]) continue;
            const start = localDateTime(date, time, location.timezone);
            bodies.push(
              JSON.stringify({
                locationKey: location.key,
                dimensione: size,
                quantita: 1,
                startTimeIso: start.toUTC().toISO(),
                endTimeIso: start.plus({ hours: 3 }).toUTC().toISO(),
              }),
            );
          }
        }
      }
    }
  }
  if (bodies.length < count) throw new Error(`Only ${bodies.length} distinct holds fit the horizon`);
  return bodies.slice(0, count);
}

/** One autocannon request that sends the next body on every call. */
export function holdRequests(bodies: readonly string[]): AutocannonRequest[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/api/lockers/inhibit-multi',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => ({ ...request, body: bodies[next++ % bodies.length] }),
    },
  ];
}

export interface ReservationAudit {
  activeReservations: number;
  /** Pairs of active reservations of one locker whose periods overlap: must be 0. */
  overlaps: number;
}

const OVERLAPPING_PAIRS = `
  select count(*) as n from booking_lockers a
  join booking_lockers b on a.locker_id = b.locker_id and a.id < b.id
   and a.start_at < b.end_at and b.start_at < a.end_at
  where a.active and b.active`;
const ACTIVE_RESERVATIONS = 'select count(*) as n from booking_lockers where active';

/** Counts, in SQL on the database itself, active reservations and overlapping pairs on one locker. */
export async function auditReservations(database: BenchDatabase): Promise<ReservationAudit> {
  if (database.filename) {
    const db = new BetterSqlite3(database.filename, { readonly: true });
    try {
      const count = (query: string) => Number((db.prepare(query).get() as { n: number }).n);
      return { activeReservations: count(ACTIVE_RESERVATIONS), overlaps: count(OVERLAPPING_PAIRS) };
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({
    connectionString: POSTGRES_URL,
    options: `-c search_path=${database.schema},public`,
  });
  await client.connect();
  try {
    const count = async (query: string) => Number((await client.query<{ n: string }>(query)).rows[0]!.n);
    return { activeReservations: await count(ACTIVE_RESERVATIONS), overlaps: await count(OVERLAPPING_PAIRS) };
  } finally {
    await client.end();
  }
}

/**
 * What both reservation benchmarks report: the accepted holds per second against `baseline`, passing
 * when their ratio reaches `targetRatio` and the audit found no overlap; the audit and the load's
 * answers as details.
 */
export function reservationResult(
  bench: {
    name: string;
    targetRatio: number;
    /** The target in words. */
    target: string;
    notes: string;
  },
  { audit, figures, baseline }: { audit: ReservationAudit; figures: LoadFigures; baseline: number },
): BenchResult {
  const figure = figures.ok / figures.durationS;
  const { ratio, reported } = againstBaseline(figure, 'reservations/s', baseline);
  // Requests still in flight when the load stopped may have committed without being counted.
  const consistent = audit.overlaps === 0 && audit.activeReservations >= figures.ok;
  return {
    name: bench.name,
    ...reported,
    target: bench.target,
    pass: ratio >= bench.targetRatio && consistent,
    notes: bench.notes,
    details: {
      overlaps: audit.overlaps,
      activeReservations: audit.activeReservations,
      succeeded: figures.ok,
      refused: figures.non2xx,
      errors: figures.errors + figures.timeouts,
      p99Ms: figures.latencyP99Ms,
    },
  };
}
