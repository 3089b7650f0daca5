import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// Maintenance of one site (issue 17): an operator pauses that location's bookings (a broken
// controller, works on the premises) while the others keep selling. Existing sites are open.

export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema
    .alterTable('locations')
    .addColumn('maintenance', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
