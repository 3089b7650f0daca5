import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';

// Roles of the admin area (issue 17): an administrator (every account so far), a site operator or
// a technician limited to the sites listed in `sites` (a JSON array of location keys; null: all).

export async function up(db: Kysely<unknown>, _dialect: SqlDialect): Promise<void> {
  await db.schema
    .alterTable('admin_users')
    .addColumn('role', 'text', (c) => c.notNull().defaultTo('administrator'))
    .execute();
  await db.schema.alterTable('admin_users').addColumn('sites', 'text').execute();
}
