// Holds through POST /api/lockers/inhibit-multi on SQLite, many distinct windows, against raw
// better-sqlite3 transactions inserting the same rows (a booking and its locker) into the same schema.
import { randomBytes } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import { elapsedMs, type BenchOptions, type BenchResult } from './bench-result';
import { runLoad } from './http-load';
import { startCloudProcess } from './processes';
import { auditReservations, reservationResult, holdRequestBodies, holdRequests } from './reservations';
import { createBenchDatabase } from './stores';

export const name = 'reservation-sqlite';
const TARGET_RATIO = 0.4;

/**
 * The physical floor: one immediate transaction per reservation inserting a booking row and its
 * booking_lockers row with prepared statements, with the store's own pragmas (WAL, synchronous=NORMAL).
 */
export async function rawInsertRate(options: { maxRows: number; maxMs: number }): Promise<number> {
  const database = await createBenchDatabase('sqlite');
  try {
    const db = new BetterSqlite3(database.filename!);
    db.pragma('journal_mode = WAL');
    db.pragma('busy_timeout = 5000');
    db.pragma('synchronous = NORMAL');
    db.pragma('foreign_keys = ON');
    const lockers = db.prepare('select id, location_key as locationKey from lockers').all() as Array<{
      id: number;
      locationKey: string;
    }>;
    const insertBooking = db.prepare(`insert into bookings (transaction_id, location_key, status, start_at,
      end_at, size, quantity, duration_value, duration_unit, price_original_cents, price_discounted_cents,
      fee_cents, total_cents, discount_code, first_name, last_name, email, phone_prefix, phone_number, note,
      lang, pin, created_at, updated_at, expires_at)
      values (?, ?, 'pending', ?, ?, 'standard', 1, 3, 'hours', 500, 500, 50, 550, null, null, null, null,
      null, null, 'lang:it', 'it', ?, ?, ?, ?)`);
    const insertLocker = db.prepare(
      'insert into booking_lockers (transaction_id, locker_id, start_at, end_at, active) values (?, ?, ?, ?, 1)',
    );
    const reserve = db.transaction((index: number) => {
      const locker = lockers[index % lockers.length]!;
      const start = new Date(Date.UTC(2030, 0, 1) + Math.floor(index / lockers.length) * 3 * 3600_000);
      const startAt = start.toISOString();
      const endAt = new Date(start.getTime() + 3 * 3600_000).toISOString();
      const now = new Date().toISOString();
      const id = randomBytes(12).toString('base64url');
      insertBooking.run(id, locker.locationKey, startAt, endAt, '493817', now, now, now);
      insertLocker.run(id, locker.id, startAt, endAt);
    });
    const startedAt = process.hrtime.bigint();
    let rows = 0;
    while (rows < options.maxRows && elapsedMs(startedAt) < options.maxMs) {
      reserve.immediate(rows);
      rows += 1;
    }
    const rate = rows / (elapsedMs(startedAt) / 1000);
    db.close();
    return rate;
  } finally {
    await database.dispose();
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const load = options.quick ? { connections: 4, amount: 60 } : { connections: 20, duration: 10 };
  const database = await createBenchDatabase('sqlite');
  const cloud = await startCloudProcess({ databaseUrl: database.url });
  try {
    const bodies = holdRequestBodies(options.quick ? 200 : 40_000);
    const figures = await runLoad({ url: cloud.url, ...load, requests: holdRequests(bodies) });
    await cloud.stop();
    const audit = await auditReservations(database);
    const baseline = await rawInsertRate(
      options.quick ? { maxRows: 200, maxMs: 1_000 } : { maxRows: 200_000, maxMs: 5_000 },
    );
    return reservationResult(
      {
        name,
        targetRatio: TARGET_RATIO,
        target: `≥ ${TARGET_RATIO} × baseline, 0 overlaps`,
        notes: `HTTP inhibit-multi, ${load.connections} connections, 1 cloud process; baseline: raw better-sqlite3 insert transactions of the same rows`,
      },
      { audit, figures, baseline },
    );
  } finally {
    await cloud.stop();
    await database.dispose();
  }
}
