import BetterSqlite3 from 'better-sqlite3';
import type { CompiledQuery, SqliteDatabase, SqliteStatement } from 'kysely';
import { SqliteCheckpointer, type SqliteCheckpointerOptions } from './sqlite-checkpointer';

// better-sqlite3 binds only numbers, strings, bigints, buffers and null. Repositories bind Date and
// boolean in both dialects; this adapter stores them as ISO-8601 UTC text (which sorts and compares
// as time does) and 0/1, so the SQL stays the same for SQLite and PostgreSQL.

function toSqliteValue(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'boolean') return value ? 1 : 0;
  return value;
}

/** Distinct SQL texts kept prepared; shapes with varying `in (…)` lists could otherwise grow it. */
const STATEMENT_CACHE_LIMIT = 500;

/** A compiled query's parameters as SQLite binds them (also for plans read outside the store). */
export const toSqliteValues = (parameters: ReadonlyArray<unknown>) => parameters.map(toSqliteValue);

/**
 * Compiled queries run synchronously on the same handle and statement cache as Kysely's, for a step
 * that must not yield between statements (sqlite-reservations.ts). Only for code that holds Kysely's
 * connection (`db.connection()`, a transaction): otherwise a Kysely transaction may be open on it.
 */
export interface SqliteSync {
  /** The rows the query answers; a statement that answers none is run and gives none. */
  all<Row>(query: CompiledQuery<Row>): Row[];
}

/**
 * Opens a SQLite file (or `:memory:`) tuned for a server: WAL, a busy timeout, foreign keys on. A
 * file's log is copied into it by a thread of its own (`sqlite-checkpointer.ts`).
 */
export function openSqliteDatabase(
  filename: string,
  checkpoints: SqliteCheckpointerOptions = {},
): SqliteDatabase & { readonly sync: SqliteSync; readonly checkpointer: SqliteCheckpointer | null } {
  const db = new BetterSqlite3(filename);
  if (filename !== ':memory:') db.pragma('journal_mode = WAL');
  const checkpointer =
    filename === ':memory:'
      ? null
      : new SqliteCheckpointer(filename, (pages) => db.pragma(`wal_autocheckpoint = ${pages}`), checkpoints);
  // Another process holding the write lock makes us wait rather than fail at once.
  db.pragma('busy_timeout = 5000');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Kysely asks for a statement per query; compiling the same SQL each time cost more than running
  // it. The distinct SQL texts are few (one per query shape), so the cache stays small.
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepared = (sql: string): BetterSqlite3.Statement => {
    const statement = statements.get(sql) ?? db.prepare(sql);
    if (!statements.has(sql)) {
      if (statements.size >= STATEMENT_CACHE_LIMIT) statements.clear();
      statements.set(sql, statement);
    }
    return statement;
  };
  return {
    checkpointer,
    close: () => {
      checkpointer?.stop();
      statements.clear();
      db.close();
    },
    sync: {
      all<Row>(query: CompiledQuery<Row>): Row[] {
        const statement = prepared(query.sql);
        const values = toSqliteValues(query.parameters);
        if (statement.reader) return statement.all(values) as Row[];
        statement.run(values);
        return [];
      },
    },
    prepare(sql: string): SqliteStatement {
      const statement = prepared(sql);
      return {
        reader: statement.reader,
        all: (parameters) => statement.all(toSqliteValues(parameters)),
        run: (parameters) => statement.run(toSqliteValues(parameters)),
        iterate: (parameters) => statement.iterate(toSqliteValues(parameters)),
      };
    },
  };
}
