import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// Abuse limits (issue 14): the counters of rate-limiter-flexible's PostgreSQL store, shared by every
// cloud process on the database (holds, discount checks, failed logins per account and address).
// Created here, not by the library at first use, so concurrent processes never race to create it.
// SQLite stores serve one process, whose counters stay in memory: nothing to create there.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'postgres') return;
  await db.schema
    .createTable('rate_limits')
    .ifNotExists()
    // The library's own layout: `<limiter prefix>:<client key>`, points used, expiry in epoch ms.
    .addColumn('key', 'varchar(255)', (c) => c.primaryKey())
    .addColumn('points', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('expire', 'bigint')
    .execute();
}
