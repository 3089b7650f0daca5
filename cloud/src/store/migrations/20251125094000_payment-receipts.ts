import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { dialectColumns } from '../migration-schema';

// Every payment the gateway reports as taken, once per booking and gateway reference: the money
// that really came in, whatever the booking became. A replayed notification adds nothing, so an
// operator is told once about a second payment to give back, not once per replay.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant } = dialectColumns(dialect);
  await db.schema
    .createTable('payment_receipts')
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('provider_reference', 'text', (c) => c.notNull())
    .addColumn('amount_cents', 'integer')
    .addColumn('received_at', instant, (c) => c.notNull())
    .addPrimaryKeyConstraint('payment_receipts_pkey', ['transaction_id', 'provider_reference'])
    .execute();
}
