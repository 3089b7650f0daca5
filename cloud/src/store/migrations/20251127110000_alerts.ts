import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns } from '../migration-schema';

// Operators' alerts (issue 17): a site's bridge offline, a door left open, a command that failed,
// a PIN not delivered, a payment to check. Each is raised once per subject while it is open (the
// partial unique index: several cloud processes evaluating at once raise it once), e-mailed to the
// operators, resolved by itself when its cause goes away, and acknowledged by an operator.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant, identityKey } = dialectColumns(dialect);
  await db.schema
    .createTable('alerts')
    .addColumn('id', 'integer', identityKey)
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('location_key', 'text')
    .addColumn('locker_id', 'integer')
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('raised_at', instant, (c) => c.notNull())
    .addColumn('resolved_at', instant)
    .addColumn('acknowledged_at', instant)
    .addColumn('acknowledged_by', 'text')
    .addColumn('closed', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
  // One open alert per subject; a closed one (resolved and acknowledged) lets it be raised again.
  await db.schema
    .createIndex('alerts_open_subject_idx')
    .on('alerts')
    .column('subject')
    .unique()
    .where(sql.ref('closed'), '=', false)
    .execute();
  await createIndex(db, 'alerts_raised_idx', 'alerts', ['raised_at']);
}
