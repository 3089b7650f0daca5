import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns } from '../migration-schema';

// Private links to a visitor's own booking page (/my-booking/{token}). Only the SHA-256 hash of a
// token is kept, so a copy of the database opens no booking. A booking may have several links (one
// per e-mail, one for the completion page), each expiring and revocable on its own. No foreign key:
// the cleanup deletes old bookings, and a link whose booking is gone simply finds nothing.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant } = dialectColumns(dialect);
  await db.schema
    .createTable('booking_links')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .addColumn('revoked_at', instant)
    .execute();
  await createIndex(db, 'booking_links_transaction_idx', 'booking_links', ['transaction_id']);
}
