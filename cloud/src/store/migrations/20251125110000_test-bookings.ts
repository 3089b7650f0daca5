import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// A booking an operator made by hand (Strumenti Avanzati → test booking) is marked, so the
// takings keep it out of the money taken online and the bookings list can say what it is.
// Existing rows are not tests (the default); the reservation step never sets the column, so
// PostgreSQL's reserve_lockers, which lists the columns it writes, needs no change.

export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('is_test', 'boolean', (c) => c.notNull().defaultTo(false))
    .execute();
}
