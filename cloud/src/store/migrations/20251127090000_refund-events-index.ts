import { sql, type Kysely } from 'kysely';

// The monthly takings subtract each refund on the day it was made (issue 16): they read the
// `refunded` transitions of a month from booking_events, which holds every transition of every
// booking; refunds are few among them.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createIndex('booking_events_refunded_idx')
    .on('booking_events')
    .column('at')
    .where(sql.ref('to_status'), '=', 'refunded')
    .execute();
}
