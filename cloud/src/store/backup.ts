// Backups of the cloud's store, and getting one back (`scripts/backup`, `scripts/restore`).
//
// PostgreSQL: `pg_dump --format=custom` (a consistent snapshot taken inside one transaction while
// the cloud keeps running) and `pg_restore` into an empty database, in one transaction.
// SQLite: better-sqlite3's online backup API (pages copied while the cloud keeps writing; the copy
// is the database as of one moment), and a restore that checks the copy and puts it in place of
// the database file, which the cloud must not have open.
//
// Either kind of backup is one file; restore tells them apart by their first bytes.
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  openSync,
  readSync,
  closeSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import Database from 'better-sqlite3';
import pg from 'pg';
import type { DatabaseTarget } from '../env';

export type BackupKind = 'postgres' | 'sqlite';

export interface BackupReport {
  kind: BackupKind;
  file: string;
  bytes: number;
  /** Paid bookings in the copy: a quick sign the right database was saved. */
  bookings: number;
}

export class BackupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'BackupError';
  }
}

const SQLITE_MAGIC = 'SQLite format 3\0';
const PG_CUSTOM_MAGIC = 'PGDMP';

/** Saves the store at `target` into `file` (overwritten), while the cloud may keep running. */
export async function backupStore(target: DatabaseTarget, file: string): Promise<BackupReport> {
  if (target.dialect === 'sqlite') {
    if (target.filename === ':memory:' || !existsSync(target.filename)) {
      throw new BackupError(`No SQLite database at ${target.filename}`);
    }
    const source = new Database(target.filename, { fileMustExist: true });
    try {
      source.pragma('busy_timeout = 5000');
      await source.backup(`${file}.partial`);
    } finally {
      source.close();
    }
    renameSync(`${file}.partial`, file);
    return { kind: 'sqlite', file, bytes: statSync(file).size, bookings: checkSqliteCopy(file) };
  }
  await run('pg_dump', [
    '--format=custom',
    '--no-owner',
    '--no-privileges',
    `--file=${file}.partial`,
    target.connectionString,
  ]);
  renameSync(`${file}.partial`, file);
  return { kind: 'postgres', file, bytes: statSync(file).size, bookings: await countDumpBookings(file) };
}

/**
 * Puts the backup `file` in place as the store at `target`. PostgreSQL: the database must exist and
 * be empty (create it with `createdb`). SQLite: the cloud must be stopped; an existing database file
 * is replaced only with `replace`.
 */
export async function restoreStore(
  file: string,
  target: DatabaseTarget,
  options: { replace?: boolean } = {},
): Promise<BackupReport> {
  const kind = backupKindOf(file);
  if (kind !== target.dialect) {
    throw new BackupError(
      `${file} is a ${kind} backup; it cannot be restored into a ${target.dialect} database`,
    );
  }
  if (target.dialect === 'sqlite') {
    if (target.filename === ':memory:') throw new BackupError('Cannot restore into an in-memory database');
    const bookings = checkSqliteCopy(file);
    if (existsSync(target.filename) && !options.replace) {
      throw new BackupError(`${target.filename} exists: stop the cloud and pass --replace to overwrite it`);
    }
    copyFileSync(file, `${target.filename}.restoring`);
    // A write-ahead log left by the replaced database belongs to it, not to the copy.
    for (const suffix of ['-wal', '-shm', '-journal']) rmSync(`${target.filename}${suffix}`, { force: true });
    renameSync(`${target.filename}.restoring`, target.filename);
    return { kind, file, bytes: statSync(file).size, bookings };
  }
  const tables = await userTableCount(target.connectionString);
  if (tables > 0) {
    throw new BackupError(
      `The target database already has ${tables} table(s): restore into a new, empty database (createdb)`,
    );
  }
  await run('pg_restore', [
    '--no-owner',
    '--no-privileges',
    '--exit-on-error',
    '--single-transaction',
    `--dbname=${target.connectionString}`,
    file,
  ]);
  return {
    kind,
    file,
    bytes: statSync(file).size,
    bookings: await countPaidBookings(target.connectionString),
  };
}

/** Which store a backup file is of, by its first bytes. */
export function backupKindOf(file: string): BackupKind {
  if (!existsSync(file)) throw new BackupError(`No backup file at ${file}`);
  const head = Buffer.alloc(16);
  const fd = openSync(file, 'r');
  try {
    readSync(fd, head, 0, 16, 0);
  } finally {
    closeSync(fd);
  }
  const text = head.toString('latin1');
  if (text === SQLITE_MAGIC) return 'sqlite';
  if (text.startsWith(PG_CUSTOM_MAGIC)) return 'postgres';
  throw new BackupError(`${file} is neither a SQLite database nor a pg_dump custom-format archive`);
}

const PAID = `status IN ('confirmed', 'confirmed_late', 'scheduled')`;

/** Checks a SQLite copy is whole and is a Deposito store; its paid bookings. */
function checkSqliteCopy(file: string): number {
  const copy = new Database(file, { readonly: true, fileMustExist: true });
  try {
    const integrity = copy.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new BackupError(`${file} is damaged: ${String(integrity)}`);
    const migrations = copy
      .prepare(`SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'`)
      .get() as { n: number };
    if (migrations.n === 0) throw new BackupError(`${file} is not a Deposito database`);
    return (copy.prepare(`SELECT count(*) AS n FROM bookings WHERE ${PAID}`).get() as { n: number }).n;
  } finally {
    copy.close();
  }
}

/** The paid bookings in a dump, read back through `pg_restore --list` plus a data-only pass. */
async function countDumpBookings(file: string): Promise<number> {
  const list = await run('pg_restore', ['--list', file]);
  if (!/TABLE DATA \S+ bookings /.test(list)) throw new BackupError(`${file} holds no bookings table`);
  const data = await run('pg_restore', ['--data-only', '--table=bookings', '--file=-', file]);
  const copy = /^COPY \S*bookings \(([^)]*)\) FROM stdin;\n([\s\S]*?)^\\\.$/m.exec(data);
  if (!copy) return 0;
  const status = copy[1]!.split(', ').indexOf('status');
  return copy[2]!
    .split('\n')
    .filter((line) => ['confirmed', 'confirmed_late', 'scheduled'].includes(line.split('\t')[status] ?? ''))
    .length;
}

async function withClient<T>(connectionString: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function userTableCount(connectionString: string): Promise<number> {
  return withClient(connectionString, async (client) => {
    const { rows } = await client.query<{ n: string }>(
      `SELECT count(*) AS n FROM information_schema.tables
       WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`,
    );
    return Number(rows[0]!.n);
  });
}

function countPaidBookings(connectionString: string): Promise<number> {
  return withClient(connectionString, async (client) => {
    const { rows } = await client.query<{ n: string }>(`SELECT count(*) AS n FROM bookings WHERE ${PAID}`);
    return Number(rows[0]!.n);
  });
}

/** Runs a PostgreSQL client tool; its standard output, or a BackupError with its standard error. */
function run(command: string, args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk));
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new BackupError(
          error.code === 'ENOENT'
            ? `${command} not found: install PostgreSQL's client tools (Debian: apt install postgresql-client)`
            : `${command}: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code) => {
      if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
      else
        reject(
          new BackupError(`${command} failed (exit ${code}): ${Buffer.concat(err).toString('utf8').trim()}`),
        );
    });
  });
}
