import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
  Migrator,
  sql,
  type DatabaseIntrospector,
  type Kysely,
  type Migration,
  type MigrationProvider,
} from 'kysely';

export type SqlDialect = 'sqlite' | 'postgres';

/** What a migration file exports: forward-only, written once for both dialects. */
export interface DialectMigration {
  up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void>;
}

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
/** `yyyyMMddHHmmss_what-it-does.ts`: the timestamp orders them, the name says why. */
const MIGRATION_FILE = /^(\d{14}_[a-z0-9-]+)\.ts$/;

/** Every migration file in `store/migrations/`, so a new migration needs no registration elsewhere. */
class DirectoryMigrationProvider implements MigrationProvider {
  constructor(private readonly dialect: SqlDialect) {}

  async getMigrations(): Promise<Record<string, Migration>> {
    const migrations: Record<string, Migration> = {};
    for (const file of (await readdir(MIGRATIONS_DIR)).sort()) {
      const match = MIGRATION_FILE.exec(file);
      if (!match) continue;
      const module = (await import(pathToFileURL(path.join(MIGRATIONS_DIR, file)).href)) as DialectMigration;
      migrations[match[1]] = { up: (db) => module.up(db, this.dialect) };
    }
    return migrations;
  }
}

/**
 * `db` as Kysely's migrator should see it in PostgreSQL: asking whether its own tables exist, it
 * lists only the tables of `schema`, by name. Kysely's own introspector lists every table of the
 * database with its columns, and fails ("schema … does not exist", "column … does not exist") when
 * another schema or process changes its tables meanwhile: a second cloud process migrating at start,
 * another schema's suite in the tests. Everything else is `db` itself.
 */
function scopedToSchema(db: Kysely<unknown>, schema: string): Kysely<unknown> {
  const introspection: DatabaseIntrospector = {
    getSchemas: () => db.introspection.getSchemas(),
    async getTables() {
      const { rows } = await sql<{ name: string }>`
        SELECT tablename AS name FROM pg_catalog.pg_tables WHERE schemaname = ${schema}`.execute(db);
      return rows.map(({ name }) => ({ name, schema, isView: false, columns: [] }));
    },
    async getMetadata() {
      return { tables: await this.getTables() };
    },
  };
  return new Proxy(db, {
    get(target, key) {
      if (key === 'introspection') return introspection;
      const value: unknown = Reflect.get(target, key, target);
      // Kysely's methods read its private fields, which only the object itself has.
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

function migratorFor(db: Kysely<unknown>, dialect: SqlDialect, schema?: string): Migrator {
  if (dialect === 'sqlite') return new Migrator({ db, provider: new DirectoryMigrationProvider(dialect) });
  const migrationTableSchema = schema ?? 'public';
  return new Migrator({
    db: scopedToSchema(db, migrationTableSchema),
    provider: new DirectoryMigrationProvider(dialect),
    // Without an explicit schema Kysely would find other schemas' migration tables in PostgreSQL.
    migrationTableSchema,
  });
}

/** Brings the schema up to date; throws if any migration fails (the process must not start half-migrated). */
export async function migrateToLatest(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  schema?: string,
): Promise<void> {
  const { error, results } = await migratorFor(db, dialect, schema).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName;
    throw new Error(`Database migration ${failed ?? ''} failed: ${String(error)}`, { cause: error });
  }
}

/** Migrations in `migrations/` the database has not run (readiness: none once migrated). */
export async function pendingMigrations(
  db: Kysely<unknown>,
  dialect: SqlDialect,
  schema?: string,
): Promise<string[]> {
  const migrations = await migratorFor(db, dialect, schema).getMigrations();
  return migrations.filter((migration) => migration.executedAt === undefined).map((m) => m.name);
}
