import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedLocation } from '../../test/builders';
import { createTestDatabase, type TestDatabase } from '../../test/test-store';
import { bookingQueries, lapsedHoldIds } from './booking-queries';
import type { Database } from './database';
import { toSqliteValues } from './sqlite-database';

// How SQLite reads the calendar's occupancy once it has statistics (PRAGMA optimize, as a long-lived
// database should run): most bookings share a few statuses (paid, cancelled), which made the
// lapsed-hold list a read of every booking, and the occupancy read took the locker/end index (every
// reservation still to end) instead of the short start range. With 1,000,000 bookings that was
// 11–150 ms a calendar instead of 0.03 ms (availability-latency benchmark).

const HOUR = 3_600_000;
const NOW = new Date('2026-03-10T08:00:00Z');

/** Paid and cancelled stays on every locker of `testloc`, one hour each, an hour apart, back to back. */
function fillWithPastAndFutureStays(filename: string, count: number): void {
  const db = new BetterSqlite3(filename);
  try {
    const lockers = db.prepare(`select id from lockers where location_key = 'testloc'`).all() as Array<{
      id: number;
    }>;
    const booking = db.prepare(`insert into bookings (transaction_id, location_key, status, start_at, end_at,
      size, quantity, duration_value, duration_unit, price_original_cents, price_discounted_cents, fee_cents,
      total_cents, note, lang, pin, created_at, updated_at)
      values (?, 'testloc', ?, ?, ?, 'standard', 1, 1, 'hours', 500, 500, 50, 550, 'lang:it', 'it', ?, ?, ?)`);
    const reservation = db.prepare(
      'insert into booking_lockers (transaction_id, locker_id, start_at, end_at, active) values (?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (let index = 0; index < count; index += 1) {
        const locker = lockers[index % lockers.length]!;
        const start =
          NOW.getTime() + (Math.floor(index / lockers.length) - count / lockers.length / 2) * 2 * HOUR;
        const [startAt, endAt] = [new Date(start).toISOString(), new Date(start + HOUR).toISOString()];
        const cancelled = index % 10 === 9;
        const id = `stay-${index}`;
        booking.run(
          id,
          cancelled ? 'cancelled' : 'confirmed',
          startAt,
          endAt,
          String(index),
          startAt,
          startAt,
        );
        reservation.run(id, locker.id, startAt, endAt, cancelled ? 0 : 1);
      }
    })();
    db.pragma('optimize');
  } finally {
    db.close();
  }
}

describe('the occupancy read on SQLite with statistics', () => {
  let database: TestDatabase;
  let handle: BetterSqlite3.Database;
  let queries: ReturnType<typeof bookingQueries>;
  let db: Kysely<Database>;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const store = await database.open();
    await seedLocation(store, { standard: 4, large: 2 });
    await store.close();
    if (database.target.dialect !== 'sqlite') throw new Error('a SQLite database was asked for');
    fillWithPastAndFutureStays(database.target.filename, 3_000);
    handle = new BetterSqlite3(database.target.filename, { readonly: true });
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: handle }) });
    queries = bookingQueries(db);
  });
  afterAll(async () => {
    await db?.destroy();
    await database?.dispose();
  });

  /** SQLite's plan for `query`, one step a line. */
  function planOf(query: CompiledQuery): string {
    const values = toSqliteValues(query.parameters);
    const steps = handle.prepare(`explain query plan ${query.sql}`).all(values) as Array<{ detail: string }>;
    return steps.map((step) => step.detail).join('\n');
  }

  it('finds the lapsed holds of the location through the holds’ own index, not by reading every booking', () => {
    const plan = planOf(lapsedHoldIds(db, NOW, 'testloc').compile());
    expect(plan).toMatch(/USING INDEX bookings_hold_expiry_by_size_idx/);
    expect(plan).not.toMatch(/SCAN bookings/);
  });

  it('reads each locker’s short range of starts, not every reservation still to end', () => {
    const plan = planOf(
      queries.occupations.withValues({
        locationKey: 'testloc',
        from: new Date(NOW.getTime() + 24 * HOUR),
        to: new Date(NOW.getTime() + 15 * 24 * HOUR),
        now: NOW,
      }),
    );
    expect(plan).toMatch(
      /SEARCH bl USING COVERING INDEX booking_lockers_locker_active_start_idx \(locker_id=\? AND active=\? AND start_at>\? AND start_at<\?\)/,
    );
    expect(plan).not.toMatch(/SCAN bookings|booking_lockers_locker_active_end_idx/);
  });
});
