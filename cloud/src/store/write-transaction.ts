import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database } from './database';
import type { SqlDialect } from './migrate';

/**
 * Runs `work` as one write transaction. SQLite: `BEGIN IMMEDIATE` takes the database's write lock
 * first, so whatever `work` reads stays true until commit, across processes too (others wait on
 * busy_timeout). PostgreSQL: an ordinary transaction; `work` takes whatever locks it needs.
 */
export async function writeTransaction<T>(
  db: Kysely<Database>,
  dialect: SqlDialect,
  work: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  if (dialect === 'postgres') {
    return db.transaction().execute((trx: Transaction<Database>) => work(trx));
  }
  // One connection for the whole step; Kysely's SQLite driver queues other queries until it is released.
  return db.connection().execute(async (connection) => {
    await sql`begin immediate`.execute(connection);
    try {
      const result = await work(connection);
      await sql`commit`.execute(connection);
      return result;
    } catch (error) {
      await sql`rollback`.execute(connection);
      throw error;
    }
  });
}

/** PostgreSQL error codes a reservation retries on: exclusion violation, deadlock, serialization failure. */
const RETRYABLE_PG_CODES = new Set(['23P01', '40P01', '40001']);

export function isRetryableConflict(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    RETRYABLE_PG_CODES.has(String((error as { code?: unknown }).code))
  );
}

/**
 * Runs `attempt` until it succeeds, again while it fails with a retryable conflict (another writer
 * took the same row first, a deadlock) and at most `maxAttempts` times; any other error, or the last
 * conflict, is thrown.
 */
export async function retryingConflicts<T>(maxAttempts: number, attempt: () => Promise<T>): Promise<T> {
  for (let attempts = 1; ; attempts += 1) {
    try {
      return await attempt();
    } catch (error) {
      if (attempts < maxAttempts && isRetryableConflict(error)) continue;
      throw error;
    }
  }
}
