import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns } from '../migration-schema';

// A visitor's extension of a stay is a booking of its own (its own hold, payment, receipt and
// history) for the same lockers right after the stay's end; this table ties it to the stay's first
// booking. The stay's PIN stays on the lockers until the last paid extension ends. No foreign key,
// as for booking_links: the cleanup deletes old bookings, and an extension whose stay is gone is
// simply a booking of its own.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant } = dialectColumns(dialect);
  await db.schema
    .createTable('booking_extensions')
    .addColumn('transaction_id', 'text', (c) => c.primaryKey())
    .addColumn('stay_id', 'text', (c) => c.notNull())
    .addColumn('created_at', instant, (c) => c.notNull())
    .execute();
  await createIndex(db, 'booking_extensions_stay_idx', 'booking_extensions', ['stay_id']);
}
