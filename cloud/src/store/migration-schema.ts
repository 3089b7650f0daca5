import type { ColumnDefinitionBuilder, Kysely } from 'kysely';
import type { SqlDialect } from './migrate';

// What the migrations in `migrations/` say the same way for every table. Applied migrations must
// keep running the same SQL, so these only name what the migrations spelled out each time; they
// never change what it compiles to. (Outside `migrations/`: the migrator would take a file there
// for a migration.)

type ColumnModifier = (column: ColumnDefinitionBuilder) => ColumnDefinitionBuilder;

/** The column types and keys that differ between the dialects. */
export interface DialectColumns {
  pg: boolean;
  /** A UTC instant. */
  instant: 'timestamptz' | 'text';
  /** JSON is kept as text in both dialects: the store serialises it, nothing queries inside it. */
  json: 'text';
  /** An `integer` key the database numbers: an identity column in PostgreSQL, AUTOINCREMENT in SQLite. */
  identityKey: ColumnModifier;
  /** A 64-bit key the database numbers, for logs that only grow: PostgreSQL's bigserial. */
  bigSerial: { type: 'bigserial' | 'integer'; key: ColumnModifier };
}

export function dialectColumns(dialect: SqlDialect): DialectColumns {
  const pg = dialect === 'postgres';
  return {
    pg,
    instant: pg ? 'timestamptz' : 'text',
    json: 'text',
    identityKey: (c) => (pg ? c.primaryKey().generatedByDefaultAsIdentity() : c.primaryKey().autoIncrement()),
    bigSerial: {
      type: pg ? 'bigserial' : 'integer',
      key: (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()),
    },
  };
}

/** A plain index (not unique, not partial) on `columns` of `table`, in that order. */
export async function createIndex(
  db: Kysely<unknown>,
  name: string,
  table: string,
  columns: string[],
): Promise<void> {
  await db.schema.createIndex(name).on(table).columns(columns).execute();
}
