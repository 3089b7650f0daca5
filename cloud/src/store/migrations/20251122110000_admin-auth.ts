import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns } from '../migration-schema';

// Administrators and their sessions. Passwords are stored as scrypt hashes with a per-user salt;
// sessions as the SHA-256 of an opaque random token, so a leaked table does not hand out logins.

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant, identityKey } = dialectColumns(dialect);

  await db.schema
    .createTable('admin_users')
    .addColumn('id', 'integer', identityKey)
    // Stored lower-cased: one account per address whatever the capitalisation typed.
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('password_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('password_changed_at', instant, (c) => c.notNull())
    .addColumn('last_login_at', instant)
    .execute();

  await db.schema
    .createTable('admin_sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'integer', (c) => c.notNull().references('admin_users.id').onDelete('cascade'))
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('expires_at', instant, (c) => c.notNull())
    .execute();
  await createIndex(db, 'admin_sessions_user_idx', 'admin_sessions', ['user_id']);
  await createIndex(db, 'admin_sessions_expires_idx', 'admin_sessions', ['expires_at']);
}
