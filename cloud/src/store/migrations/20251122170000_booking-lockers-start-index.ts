import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex } from '../migration-schema';

// Occupancy reads a locker's active reservations from the latest one starting before the period up
// to the period's end; this index makes that a short range instead of every later booking.

export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await createIndex(db, 'booking_lockers_locker_active_start_idx', 'booking_lockers', [
    'locker_id',
    'active',
    'start_at',
    'end_at',
  ]);
}
