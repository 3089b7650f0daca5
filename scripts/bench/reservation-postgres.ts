// Holds through POST /api/lockers/inhibit-multi on PostgreSQL served by two cloud processes on one
// fresh schema, the load alternating between them; afterwards no locker may hold overlapping periods.
// The baseline: raw `pg` insert transactions of the same rows from as many connections.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { elapsedMs, type BenchOptions, type BenchResult } from './bench-result';
import { runLoad } from './http-load';
import { startCloudProcess, type ServerProcess } from './processes';
import { auditReservations, reservationResult, holdRequestBodies, holdRequests } from './reservations';
import { POSTGRES_URL, createBenchDatabase } from './stores';

export const name = 'reservation-postgres';
const TARGET_RATIO = 0.5;

/**
 * The physical floor: `connections` clients each committing one transaction per reservation that
 * inserts a booking row and its booking_lockers row (distinct lockers and windows, so nothing
 * waits on a lock), on a fresh schema of the same server.
 */
export async function rawPgInsertRate(options: { connections: number; maxMs: number }): Promise<number> {
  const database = await createBenchDatabase('postgres');
  const clients = Array.from(
    { length: options.connections },
    () => new pg.Client({ connectionString: POSTGRES_URL, options: `-c search_path=${database.schema}` }),
  );
  try {
    await Promise.all(clients.map((client) => client.connect()));
    const lockers = (
      await clients[0]!.query<{ id: number; locationKey: string }>(
        'select id, location_key as "locationKey" from lockers order by id',
      )
    ).rows;
    let next = 0;
    const startedAt = process.hrtime.bigint();
    const reserveUntilDone = async (client: pg.Client) => {
      while (elapsedMs(startedAt) < options.maxMs) {
        const index = next++;
        const locker = lockers[index % lockers.length]!;
        const start = new Date(Date.UTC(2030, 0, 1) + Math.floor(index / lockers.length) * 3 * 3600_000);
        const end = new Date(start.getTime() + 3 * 3600_000);
        const now = new Date();
        const id = randomBytes(12).toString('base64url');
        await client.query('begin');
        await client.query(
          `insert into bookings (transaction_id, location_key, status, start_at, end_at, size, quantity,
            duration_value, duration_unit, price_original_cents, price_discounted_cents, fee_cents,
            total_cents, note, lang, pin, created_at, updated_at, expires_at)
           values ($1, $2, 'pending', $3, $4, 'standard', 1, 3, 'hours', 500, 500, 50, 550, 'lang:it',
            'it', '493817', $5, $5, $5)`,
          [id, locker.locationKey, start, end, now],
        );
        await client.query(
          'insert into booking_lockers (transaction_id, locker_id, start_at, end_at, active) values ($1, $2, $3, $4, true)',
          [id, locker.id, start, end],
        );
        await client.query('commit');
      }
    };
    await Promise.all(clients.map(reserveUntilDone));
    return next / (elapsedMs(startedAt) / 1000);
  } finally {
    await Promise.all(clients.map((client) => client.end().catch(() => undefined)));
    await database.dispose();
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const load = options.quick ? { connections: 4, amount: 60 } : { connections: 24, duration: 10 };
  const database = await createBenchDatabase('postgres');
  const clouds: ServerProcess[] = [];
  try {
    for (let i = 0; i < 2; i += 1) {
      clouds.push(
        await startCloudProcess({ databaseUrl: database.url, schema: database.schema, poolSize: 12 }),
      );
    }
    const bodies = holdRequestBodies(options.quick ? 200 : 40_000);
    // autocannon spreads its connections over the URLs in turn.
    const figures = await runLoad({
      url: clouds.map((cloud) => cloud.url),
      ...load,
      requests: holdRequests(bodies),
    });
    await Promise.all(clouds.map((cloud) => cloud.stop()));
    const audit = await auditReservations(database);
    const baseline = await rawPgInsertRate({
      connections: load.connections,
      maxMs: options.quick ? 1_000 : 5_000,
    });
    return reservationResult(
      {
        name,
        targetRatio: TARGET_RATIO,
        target: `≥ ${TARGET_RATIO} × raw pg insert transactions from ${load.connections} connections, 0 overlaps`,
        notes: `HTTP inhibit-multi, ${load.connections} connections alternating over 2 cloud processes, one schema`,
      },
      { audit, figures, baseline },
    );
  } finally {
    await Promise.all(clouds.map((cloud) => cloud.stop()));
    await database.dispose();
  }
}
