import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// A hold checks that its new PIN is not in use at the location by looking the candidates up;
// without this index that lookup read every booking of the location (reservation benchmark).

export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema
    .createIndex('bookings_location_pin_idx')
    .on('bookings')
    .columns(['location_key', 'pin'])
    .execute();
}
