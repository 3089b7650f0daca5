import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns } from '../migration-schema';

// The cloud side of the edge bridges: one token per location (stored as its SHA-256), the command
// outbox that is the truth about every command sent to a site (whichever cloud process holds the
// bridge's socket), the last known state of every locker, the bridges' events (deduplicated by
// their id) and which process holds which location's bridge.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant, json } = dialectColumns(dialect);

  await db.schema
    .createTable('bridge_tokens')
    .addColumn('location_key', 'text', (c) => c.primaryKey().references('locations.key').onDelete('cascade'))
    .addColumn('token_hash', 'text', (c) => c.notNull())
    .addColumn('issued_at', instant, (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('bridge_commands')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('location_key', 'text', (c) => c.notNull().references('locations.key').onDelete('cascade'))
    .addColumn('op', 'text', (c) => c.notNull())
    .addColumn('locker_id', 'integer')
    .addColumn('params', json)
    .addColumn('transaction_id', 'text')
    .addColumn('issued_at', instant, (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c
        .notNull()
        .check(sql`status in ('queued', 'sent', 'acked', 'succeeded', 'failed', 'expired', 'unknown')`),
    )
    // How many times the hub put the command on a socket; the bridge's own controller attempts are in `result`.
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_sent_at', instant)
    .addColumn('acked_at', instant)
    .addColumn('completed_at', instant)
    .addColumn('result', json)
    .addColumn('error_code', 'text')
    .addColumn('error_message', 'text')
    .execute();
  await createIndex(db, 'bridge_commands_location_status_idx', 'bridge_commands', [
    'location_key',
    'status',
    'issued_at',
  ]);
  await createIndex(db, 'bridge_commands_status_issued_idx', 'bridge_commands', ['status', 'issued_at']);
  await createIndex(db, 'bridge_commands_transaction_idx', 'bridge_commands', ['transaction_id']);

  await db.schema
    .createTable('bridge_locker_states')
    .addColumn('location_key', 'text', (c) => c.notNull().references('locations.key').onDelete('cascade'))
    .addColumn('locker_id', 'integer', (c) => c.notNull())
    .addColumn('occupancy', 'text', (c) => c.notNull())
    .addColumn('door_open', 'boolean', (c) => c.notNull())
    .addColumn('code', 'integer')
    // When the bridge observed this state (its clock); older observations never overwrite newer ones.
    .addColumn('observed_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .addPrimaryKeyConstraint('bridge_locker_states_pk', ['location_key', 'locker_id'])
    .execute();

  await db.schema
    .createTable('bridge_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('location_key', 'text', (c) => c.notNull().references('locations.key').onDelete('cascade'))
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('locker_id', 'integer', (c) => c.notNull())
    .addColumn('occurred_at', instant, (c) => c.notNull())
    .addColumn('received_at', instant, (c) => c.notNull())
    .addColumn('payload', json, (c) => c.notNull())
    .execute();
  await createIndex(db, 'bridge_events_location_occurred_idx', 'bridge_events', [
    'location_key',
    'occurred_at',
  ]);

  await db.schema
    .createTable('bridge_connections')
    .addColumn('location_key', 'text', (c) => c.primaryKey().references('locations.key').onDelete('cascade'))
    .addColumn('process_id', 'text', (c) => c.notNull())
    .addColumn('bridge_version', 'text')
    .addColumn('connected_at', instant, (c) => c.notNull())
    .addColumn('heartbeat_at', instant, (c) => c.notNull())
    .execute();
}
