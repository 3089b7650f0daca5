import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedQuery } from './prepared-query';
import { openSqliteDatabase } from './sqlite-database';
import { WriteVersionPlugin } from './write-version';

interface TestDb {
  items: { id: number; name: string };
}

describe('WriteVersionPlugin', () => {
  const writes = new WriteVersionPlugin();
  let db: Kysely<TestDb>;

  beforeAll(async () => {
    db = new Kysely<TestDb>({
      dialect: new SqliteDialect({ database: openSqliteDatabase(':memory:') }),
    }).withPlugin(writes);
    await sql`create table items (id integer primary key, name text)`.execute(db);
  });
  afterAll(() => db.destroy());

  /** How much the version moved while `work` ran. */
  const moved = async (work: () => Promise<unknown>) => {
    const before = writes.version;
    await work();
    return writes.version - before;
  };

  it('does not move for reads', async () => {
    expect(await moved(() => db.selectFrom('items').selectAll().execute())).toBe(0);
    const prepared = new PreparedQuery(db, ['id'], (q, p: { id: number }) =>
      q.selectFrom('items').selectAll().where('id', '=', p.id),
    );
    expect(await moved(() => prepared.rows({ id: 1 }))).toBe(0);
  });

  it('moves when a write is sent and again when it has run', async () => {
    expect(await moved(() => db.insertInto('items').values({ id: 1, name: 'a' }).execute())).toBe(2);
    expect(await moved(() => db.updateTable('items').set({ name: 'b' }).execute())).toBe(2);
    expect(await moved(() => db.deleteFrom('items').where('id', '=', 9).execute())).toBe(2);
  });

  it('moves for raw SQL (commit, stored functions), and for every run of a prepared write', async () => {
    expect(await moved(() => sql`select 1`.execute(db))).toBeGreaterThan(0);
    const rename = new PreparedQuery(db, ['name'], (q, p: { name: string }) =>
      q.updateTable('items').set({ name: p.name }),
    );
    await rename.rows({ name: 'first run compiles it' });
    expect(await moved(() => rename.rows({ name: 'c' }))).toBeGreaterThan(0);
    expect(await moved(() => rename.rows({ name: 'd' }))).toBeGreaterThan(0);
  });

  it('moves when a transaction commits', async () => {
    const connection = await db.connection().execute(async (c) => {
      await sql`begin immediate`.execute(c);
      await c.insertInto('items').values({ id: 2, name: 'e' }).execute();
      const beforeCommit = writes.version;
      await sql`commit`.execute(c);
      return writes.version - beforeCommit;
    });
    expect(connection).toBeGreaterThan(0);
  });
});
