import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { dialectColumns } from '../migration-schema';

// Bridge liveness by evidence (issue 19). Each cloud process's hub records itself here and
// heartbeats every few seconds; a `bridge_connections` row counts as online only while its
// process's heartbeat is fresh, so the row a crashed process left behind stops counting at once
// when the process restarts (same host and pid, another id) and otherwise within a few heartbeats.
// Rows of processes that stopped heartbeating are deleted by every live hub's sweep.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant } = dialectColumns(dialect);
  await db.schema
    .createTable('cloud_processes')
    .addColumn('process_id', 'text', (c) => c.primaryKey())
    .addColumn('host', 'text', (c) => c.notNull())
    .addColumn('pid', 'integer', (c) => c.notNull())
    .addColumn('started_at', instant, (c) => c.notNull())
    .addColumn('heartbeat_at', instant, (c) => c.notNull())
    .execute();
  // Rows written before this migration have no process to vouch for them: nobody holds them.
  await sql`delete from bridge_connections`.execute(db);
}
