import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex } from '../migration-schema';

// A hold checks that its new PIN is not in use at the location by looking the candidates up;
// without this index that lookup read every booking of the location (reservation benchmark).

export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await createIndex(db, 'bookings_location_pin_idx', 'bookings', ['location_key', 'pin']);
}
