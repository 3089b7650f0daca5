import BetterSqlite3 from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import type { DatabaseTarget } from '../src/env';
import { pidRuns } from '../src/pid-runs';
import { openStore, type Store } from '../src/store/store';

export const STORE_DIALECTS = ['sqlite', 'postgres'] as const;
export type StoreDialect = (typeof STORE_DIALECTS)[number];

/** The PostgreSQL server the root vitest config names. Tests fail, never skip, without it. */
function testPostgresServer(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set (the root vitest.config.ts sets it)');
  return url;
}

/**
 * The database of this Vitest worker on that server (`<database>_w<worker>`), or the server's own
 * outside a worker. Suites in one database are safe (each has its schema, and migrations look at
 * their own schema only: `store/migrate.test.ts`), but share its catalogue's locks; two workers at
 * once go faster apart.
 */
function workerDatabaseName(): string | null {
  const worker = process.env.VITEST_POOL_ID;
  if (!worker) return null;
  const database = decodeURIComponent(new URL(testPostgresServer()).pathname.slice(1)) || 'postgres';
  return `${database}_w${worker}`.replace(/[^A-Za-z0-9_]/g, '_');
}

/** The PostgreSQL database this test worker uses (see `workerDatabaseName`). */
export function testPostgresUrl(): string {
  const name = workerDatabaseName();
  if (!name) return testPostgresServer();
  return Object.assign(new URL(testPostgresServer()), { pathname: `/${name}` }).toString();
}

/** Runs `work` on a connection of its own, closed afterwards. */
async function withClient<T>(config: pg.ClientConfig, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client(config);
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Runs one statement on the server (its default database), in a connection of its own. */
async function onTestServer(sql: string): Promise<void> {
  await withClient({ connectionString: testPostgresServer() }, (client) => client.query(sql));
}

let workerDatabaseReady: Promise<void> | undefined;

/** Creates this worker's database the first time a suite needs one (error 42P04: it exists already). */
function ensureWorkerDatabase(): Promise<void> {
  const name = workerDatabaseName();
  if (!name) return Promise.resolve();
  workerDatabaseReady ??= onTestServer(`CREATE DATABASE ${name}`).catch((error: unknown) => {
    if ((error as { code?: string }).code !== '42P04') throw error;
  });
  return workerDatabaseReady;
}

let sqliteTemplate: Promise<string> | undefined;

/** The folder of a worker's migrated SQLite template: `<tmp>/deposito-test-template-<pid>`. */
const TEMPLATE_PREFIX = 'deposito-test-template-';

/**
 * Removes the templates of workers that are gone. Vitest may kill a worker rather than let it exit,
 * so its own `exit` handler does not always run.
 */
function removeTemplatesOfEndedWorkers(): void {
  for (const name of readdirSync(tmpdir())) {
    if (!name.startsWith(TEMPLATE_PREFIX)) continue;
    const pid = Number(name.slice(TEMPLATE_PREFIX.length));
    if (Number.isInteger(pid) && pid > 0 && !pidRuns(pid)) {
      rmSync(path.join(tmpdir(), name), { recursive: true, force: true });
    }
  }
}

/**
 * A SQLite database this worker migrated once, removed when it exits (or by a later worker once
 * this one is gone). Each test's SQLite database starts as a copy of it (a millisecond) instead of
 * running every migration again (~70 ms, a hundred times in a run of the cloud's tests).
 * `openStore` still checks the copy's migrations.
 */
function migratedSqliteTemplate(): Promise<string> {
  sqliteTemplate ??= (async () => {
    removeTemplatesOfEndedWorkers();
    // A folder of this process's id left by an earlier process with the same id is stale.
    const dir = path.join(tmpdir(), `${TEMPLATE_PREFIX}${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(dir);
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    const filename = path.join(dir, 'deposito.db');
    await (await openStore({ dialect: 'sqlite', filename })).close();
    // Closing the last connection folds the write-ahead log into the file: the file is the database.
    if (existsSync(`${filename}-wal`)) throw new Error(`the migrated template kept its log: ${filename}-wal`);
    return filename;
  })();
  return sqliteTemplate;
}

/** A fresh, empty database for one test file or suite, and the way to throw it away. */
export interface TestDatabase {
  target: DatabaseTarget;
  /** PostgreSQL schema of this database (undefined for SQLite). */
  schema?: string;
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

/**
 * SQLite: a file in a temporary directory (so several connections and processes can share it).
 * PostgreSQL: a schema of its own named `t_<random>`, dropped afterwards, so suites run in parallel.
 */
export async function createTestDatabase(dialect: StoreDialect): Promise<TestDatabase> {
  if (dialect === 'sqlite') {
    const template = await migratedSqliteTemplate();
    const dir = mkdtempSync(path.join(tmpdir(), 'deposito-test-'));
    const target: DatabaseTarget = { dialect: 'sqlite', filename: path.join(dir, 'deposito.db') };
    copyFileSync(template, target.filename);
    return {
      target,
      open: () => openStore(target),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  }
  await ensureWorkerDatabase();
  const connectionString = testPostgresUrl();
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const target: DatabaseTarget = { dialect: 'postgres', connectionString };
  return {
    target,
    schema,
    open: () => openStore(target, { schema, poolSize: 12 }),
    dispose: async () => {
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
      } finally {
        await client.end();
      }
    },
  };
}

/**
 * A whole PostgreSQL database of its own (`d_<random>`, dropped afterwards), for tests of what
 * works on databases rather than schemas (backups and restores). The store uses its public schema.
 */
export async function createPostgresDatabase(): Promise<TestDatabase & { connectionString: string }> {
  const name = `d_${randomBytes(6).toString('hex')}`;
  await onTestServer(`CREATE DATABASE ${name}`);
  const connectionString = Object.assign(new URL(testPostgresServer()), { pathname: `/${name}` }).toString();
  const target: DatabaseTarget = { dialect: 'postgres', connectionString };
  return {
    target,
    connectionString,
    open: () => openStore(target, { poolSize: 12 }),
    dispose: () => onTestServer(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`),
  };
}

/** Kysely's own record of the migrations run: kept, so an emptied database needs none again. */
const MIGRATION_TABLES = ['kysely_migration', 'kysely_migration_lock'];

/**
 * Deletes every row a store wrote to `database` (migrated, no store open on it) and sets its id
 * counters back: as empty as when freshly migrated, without running the migrations again.
 */
export async function emptyTestDatabase(
  database: TestDatabase,
  options: { asRole?: string } = {},
): Promise<void> {
  if (database.target.dialect === 'sqlite') emptySqliteDatabase(database.target.filename);
  else await emptyPostgresSchema(database.schema!, options.asRole);
}

function emptySqliteDatabase(filename: string): void {
  const db = new BetterSqlite3(filename);
  try {
    const tables = db
      .prepare(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'`)
      .pluck()
      .all() as string[];
    // Every row goes, so the foreign keys need no order of the deletes.
    db.pragma('foreign_keys = OFF');
    db.transaction(() => {
      for (const table of tables.filter((name) => !MIGRATION_TABLES.includes(name)))
        db.exec(`DELETE FROM "${table}"`);
      // AUTOINCREMENT's counters, in a table SQLite makes once such a key is first used.
      if (db.prepare(`SELECT 1 FROM sqlite_master WHERE name = 'sqlite_sequence'`).get())
        db.exec('DELETE FROM sqlite_sequence');
    })();
  } finally {
    db.close();
  }
}

/** PostgreSQL: as the server's user, or as `role` (a user that owns the schema's tables, no more). */
async function emptyPostgresSchema(schema: string, role?: string): Promise<void> {
  await withPostgresClient(schema, async (client) => {
    if (role) await client.query(`SET ROLE ${role}`);
    const rows = async <Row>(sql: string) => (await client.query(sql, [schema])).rows as Row[];
    const tables = (
      await rows<{ name: string }>(`SELECT tablename AS name FROM pg_tables WHERE schemaname = $1`)
    )
      .map((row) => row.name)
      .filter((name) => !MIGRATION_TABLES.includes(name));
    const references = await rows<{ referencing: string; referenced: string }>(
      `SELECT referencing.relname AS referencing, referenced.relname AS referenced
         FROM pg_constraint c
         JOIN pg_class referencing ON referencing.oid = c.conrelid
         JOIN pg_class referenced ON referenced.oid = c.confrelid
         JOIN pg_namespace n ON n.oid = c.connamespace
        WHERE c.contype = 'f' AND n.nspname = $1`,
    );
    const sequences = await rows<{ name: string }>(
      `SELECT sequencename AS name FROM pg_sequences WHERE schemaname = $1`,
    );
    // DELETE rather than TRUNCATE: the few hundred rows of a test go in milliseconds, where TRUNCATE
    // makes new files for every table (~0.4 s). Each table goes before those it refers to, so the
    // foreign keys hold throughout and the server's user needs no more than the schema's owner does.
    await client.query(
      [
        'BEGIN',
        ...referencingFirst(tables, references).map((table) => `DELETE FROM "${table}"`),
        ...sequences.map(({ name }) => `ALTER SEQUENCE "${name}" RESTART`),
        'COMMIT',
      ].join(';\n'),
    );
  });
}

/** `tables` ordered so that a table comes before every table it refers to (a table may refer to itself). */
function referencingFirst(
  tables: readonly string[],
  references: ReadonlyArray<{ referencing: string; referenced: string }>,
): string[] {
  const ordered: string[] = [];
  let left = [...tables];
  while (left.length > 0) {
    // Those no table still to be emptied refers to.
    const free = left.filter(
      (table) =>
        !references.some(
          (ref) => ref.referenced === table && ref.referencing !== table && left.includes(ref.referencing),
        ),
    );
    if (free.length === 0) throw new Error(`Foreign keys in a cycle among ${left.join(', ')}`);
    ordered.push(...free);
    left = left.filter((table) => !free.includes(table));
  }
  return ordered;
}

/** Runs SQL directly against a PostgreSQL test schema, for tests of the database's own guarantees. */
export function withPostgresClient<T>(schema: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  return withClient(
    { connectionString: testPostgresUrl(), options: `-c search_path=${schema},public` },
    work,
  );
}

/** A fresh database of `dialect` for one suite, and its store, open. */
export async function openTestStore(
  dialect: StoreDialect,
): Promise<{ database: TestDatabase; store: Store }> {
  const database = await createTestDatabase(dialect);
  return { database, store: await database.open() };
}

/** Closes a suite's store and throws its database away; either is missing when opening failed. */
export async function closeTestStore(
  store: Store | undefined,
  database: TestDatabase | undefined,
): Promise<void> {
  await store?.close();
  await database?.dispose();
}

/**
 * Stands for the object `current()` answers when used: each property read goes to it, methods bound
 * to it. For what a suite's before-hook makes, named at the suite's top.
 */
export function standIn<T extends object>(current: () => T): T {
  return new Proxy({} as T, {
    get: (_target, key) => {
      const value: unknown = Reflect.get(current(), key);
      return typeof value === 'function' ? value.bind(current()) : value;
    },
  });
}

/**
 * The suite's store: a fresh database of `dialect` opened before its tests, closed and thrown away
 * after them; `store` and `database` stand for them from the start.
 */
export function useTestStore(dialect: StoreDialect): { store: Store; database: TestDatabase } {
  let opened: { database: TestDatabase; store: Store } | undefined;
  const current = () => {
    if (!opened) throw new Error('the test store is used before the suite opened it');
    return opened;
  };
  beforeAll(async () => {
    opened = await openTestStore(dialect);
  });
  afterAll(() => closeTestStore(opened?.store, opened?.database));
  return { store: standIn(() => current().store), database: standIn(() => current().database) };
}
