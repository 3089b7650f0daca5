import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createTestDatabase, testPostgresUrl } from '../../test/test-store';

/**
 * Keeps changing tables in other schemas of the test database, as a second cloud process migrating
 * or another suite would, until `stop` is called.
 */
async function keepChangingOtherSchemas(): Promise<{ stop(): Promise<number> }> {
  const client = new pg.Client({ connectionString: testPostgresUrl() });
  await client.connect();
  let stopping = false;
  let changes = 0;
  const loop = (async () => {
    while (!stopping) {
      const schema = `churn_${randomBytes(4).toString('hex')}`;
      // One statement at a time, each committed, as a migration's steps are seen from outside.
      await client.query(`CREATE SCHEMA ${schema}`);
      for (const table of ['a', 'b', 'c']) {
        await client.query(`CREATE TABLE ${schema}.${table} (id serial PRIMARY KEY, extra integer)`);
      }
      await client.query(`ALTER TABLE ${schema}.a DROP COLUMN extra`);
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      changes += 1;
    }
  })();
  return {
    async stop() {
      stopping = true;
      await loop;
      await client.end();
      return changes;
    },
  };
}

describe('migrating a PostgreSQL schema', () => {
  it('neither migration nor the readiness check fails while other schemas of the database change', async () => {
    const failures: string[] = [];
    let churn: { stop(): Promise<number> } | undefined;
    try {
      for (let round = 0; round < 5; round += 1) {
        const database = await createTestDatabase('postgres');
        // The worker's database exists once the first test database is made.
        churn ??= await keepChangingOtherSchemas();
        try {
          const store = await database.open();
          try {
            for (let check = 0; check < 3; check += 1) {
              expect(await store.pendingMigrations()).toEqual([]);
            }
          } finally {
            await store.close();
          }
        } catch (error) {
          failures.push(String(error));
        } finally {
          await database.dispose();
        }
      }
    } finally {
      expect(await churn?.stop()).toBeGreaterThan(0);
    }
    expect(failures).toEqual([]);
  });
});
