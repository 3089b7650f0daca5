import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex } from '../migration-schema';

// A location's open commands are delivered to its bridge in the order they were issued. Ordered by
// `(issued_at, id)`, two commands of one millisecond went by id after a reconnect: "book…" before
// "unbook…", so a locker still booked refused the next visitor's PIN and was freed after it. `seq`
// numbers the commands as they are added (one more than the greatest so far, read by the insert):
// a command issued after another's insert has finished always comes after it, whatever the clocks
// of the cloud processes say. Commands added at once by two processes have no order to keep.

const LOCATION_INDEX = 'bridge_commands_location_status_idx';

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  await db.schema
    .alterTable('bridge_commands')
    .addColumn('seq', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The commands stored so far keep the order they were delivered in.
  await sql`
    update bridge_commands set seq = ordered.n
    from (select id, row_number() over (order by issued_at, id) as n from bridge_commands) as ordered
    where ordered.id = bridge_commands.id
  `.execute(db);
  await db.schema.dropIndex(LOCATION_INDEX).execute();
  await createIndex(db, LOCATION_INDEX, 'bridge_commands', ['location_key', 'status', 'seq']);
  // The insert's max(seq): one step down this index.
  await createIndex(db, 'bridge_commands_seq_idx', 'bridge_commands', ['seq']);
}
