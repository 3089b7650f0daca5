import type { Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { dialectColumns } from '../migration-schema';

// Optimistic concurrency for operator edits. Every row an operator edits carries a `version` that
// each save raises by one and checks (a save made from an older read is refused, never merged),
// and who saved it last (`updated_by`, the operator's e-mail) so the refusal can name them.
// Locations and settings already have `updated_at`; discounts and administrators get one.
// Existing rows start at version 1, saved by nobody known.

const EDITED_TABLES = ['locations', 'settings', 'discounts', 'admin_users'] as const;

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant } = dialectColumns(dialect);
  for (const table of EDITED_TABLES) {
    await db.schema
      .alterTable(table)
      .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
      .execute();
    await db.schema.alterTable(table).addColumn('updated_by', 'text').execute();
  }
  for (const table of ['discounts', 'admin_users'] as const) {
    await db.schema.alterTable(table).addColumn('updated_at', instant).execute();
  }
}
