import type { Kysely } from 'kysely';

// Who holds an e-mail's lease: the cloud process (its id in `cloud_processes`). A process that died
// holding leases is removed from there (by its next life at start, or by the others' sweep); its
// leases are then void, so the e-mails it was sending go out in seconds, not once the lease ends.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('email_outbox').addColumn('claimed_by', 'text').execute();
}
