import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely';

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

function migratorFor(db: Kysely<unknown>, dialect: SqlDialect, schema?: string): Migrator {
  return new Migrator({
    db,
    provider: new DirectoryMigrationProvider(dialect),
    // Without an explicit schema Kysely would find other schemas' migration tables in PostgreSQL.
    ...(dialect === 'postgres' ? { migrationTableSchema: schema ?? 'public' } : {}),
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
