import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// Every SQLite hold first expires the lapsed holds of its location and size. Without this index
// SQLite searched that by location alone (bookings_location_pin_idx) and read every booking of the
// location on each hold: 60 % of a hold's SQLite time after 4,000 holds, growing with the bookings.
// Only holds carry an expiry (leaving a hold status clears it), so the index keeps just those.
// PostgreSQL has its own partial index for the same search (bookings_hold_expiry_by_size_idx).

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  if (dialect !== 'sqlite') return;
  await db.schema
    .createIndex('bookings_hold_expiry_by_size_idx')
    .on('bookings')
    .columns(['location_key', 'size', 'expires_at'])
    .where(sql.ref('expires_at'), 'is not', null)
    .execute();
}
