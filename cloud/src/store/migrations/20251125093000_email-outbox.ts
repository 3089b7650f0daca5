import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { dialectColumns } from '../migration-schema';

// The visitor's booking e-mails as rows written in the same transaction as the status change that
// calls for them, sent by a worker with retries and marked sent once: a crash between the payment's
// commit and the send no longer loses the confirmation. One row per booking and kind.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant, bigSerial } = dialectColumns(dialect);
  await db.schema
    .createTable('email_outbox')
    .addColumn('id', bigSerial.type, bigSerial.key)
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', instant, (c) => c.notNull())
    // A sender's lease: another sender leaves the row alone until it passes.
    .addColumn('claimed_until', instant)
    .addColumn('sent_at', instant)
    .addColumn('message_id', 'text')
    .addColumn('last_error', 'text')
    .addUniqueConstraint('email_outbox_booking_kind_key', ['transaction_id', 'kind'])
    .execute();
  await sql`CREATE INDEX email_outbox_due_idx ON email_outbox (next_attempt_at) WHERE sent_at IS NULL`.execute(
    db,
  );
}
