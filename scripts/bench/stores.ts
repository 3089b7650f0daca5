// Fresh databases for the benchmarks: a SQLite file in a temporary directory, or a PostgreSQL schema
// of its own on the local test server, with the seed locations, and the way to throw them away.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { systemClock } from '@deposito/cloud/clock';
import type { DatabaseTarget } from '@deposito/cloud/env';
import { seedLocationsAndDiscounts } from '@deposito/cloud/services/demo-seed.service';
import { openStore, type Store } from '@deposito/cloud/store/store';
import pg from 'pg';

export const POSTGRES_URL = 'postgres://postgres@127.0.0.1:5432/test';

export interface BenchDatabase {
  /** What a cloud process is given as DATABASE_URL. */
  url: string;
  target: DatabaseTarget;
  schema?: string;
  /** The SQLite file (SQLite only). */
  filename?: string;
  open(): Promise<Store>;
  dispose(): Promise<void>;
}

/** A migrated database holding the seed locations, lockers and discount codes. */
export async function createBenchDatabase(dialect: 'sqlite' | 'postgres'): Promise<BenchDatabase> {
  let database: BenchDatabase;
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(path.join(tmpdir(), 'deposito-bench-'));
    const filename = path.join(dir, 'deposito.db');
    const target: DatabaseTarget = { dialect: 'sqlite', filename };
    database = {
      url: `sqlite:${filename}`,
      target,
      filename,
      open: () => openStore(target),
      dispose: async () => rmSync(dir, { recursive: true, force: true }),
    };
  } else {
    const schema = `bench_${randomBytes(5).toString('hex')}`;
    const target: DatabaseTarget = { dialect: 'postgres', connectionString: POSTGRES_URL };
    database = {
      url: POSTGRES_URL,
      target,
      schema,
      open: () => openStore(target, { schema, poolSize: 4 }),
      dispose: async () => {
        const client = new pg.Client({ connectionString: POSTGRES_URL });
        await client.connect();
        try {
          await client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`);
        } finally {
          await client.end();
        }
      },
    };
  }
  const store = await database.open();
  try {
    await seedLocationsAndDiscounts({ store, clock: systemClock });
  } finally {
    await store.close();
  }
  return database;
}
