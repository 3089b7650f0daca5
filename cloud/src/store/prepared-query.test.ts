import { Kysely, sql, SqliteDialect } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PreparedQuery } from './prepared-query';
import { openSqliteDatabase } from './sqlite-database';

interface TestDb {
  items: { id: number; name: string; size: string; active: number };
}

describe('PreparedQuery', () => {
  let db: Kysely<TestDb>;

  beforeAll(async () => {
    db = new Kysely<TestDb>({ dialect: new SqliteDialect({ database: openSqliteDatabase(':memory:') }) });
    await sql`create table items (id integer primary key, name text, size text, active integer)`.execute(db);
    await db
      .insertInto('items')
      .values([
        { id: 1, name: 'a', size: 'large', active: 1 },
        { id: 2, name: 'b', size: 'large', active: 0 },
        { id: 3, name: 'c', size: 'standard', active: 1 },
        { id: 4, name: 'd', size: 'standard', active: 1 },
      ])
      .execute();
  });

  afterAll(async () => {
    await db.destroy();
  });

  const bySizeAbove = () =>
    new PreparedQuery(db, ['size', 'minId'], (q, p: { size: string; minId: number }) =>
      q
        .selectFrom('items')
        .select(['id', 'name'])
        .where('size', '=', p.size)
        // A constant stays as built; a parameter used twice is filled in twice.
        .where('active', '=', 1)
        .where((eb) => eb.or([eb('id', '>', p.minId), eb('id', '=', p.minId)]))
        .orderBy('id'),
    );

  it('answers each call with its own values, as the same query built each time would', async () => {
    const query = bySizeAbove();
    expect(await query.rows({ size: 'standard', minId: 0 })).toEqual([
      { id: 3, name: 'c' },
      { id: 4, name: 'd' },
    ]);
    expect(await query.rows({ size: 'standard', minId: 4 })).toEqual([{ id: 4, name: 'd' }]);
    expect(await query.rows({ size: 'large', minId: 0 })).toEqual([{ id: 1, name: 'a' }]);
    const built = await db
      .selectFrom('items')
      .select(['id', 'name'])
      .where('size', '=', 'large')
      .where('active', '=', 1)
      .orderBy('id')
      .execute();
    expect(await query.rows({ size: 'large', minId: 1 })).toEqual(built);
  });

  it('runs inside a transaction and sees its writes', async () => {
    const query = bySizeAbove();
    await db
      .transaction()
      .execute(async (trx) => {
        await trx.insertInto('items').values({ id: 5, name: 'e', size: 'large', active: 1 }).execute();
        expect((await query.rows({ size: 'large', minId: 0 }, trx)).map((r) => r.id)).toEqual([1, 5]);
        throw new Error('roll back');
      })
      .catch(() => undefined);
    expect((await query.rows({ size: 'large', minId: 0 })).map((r) => r.id)).toEqual([1]);
  });

  it('prepares writes too', async () => {
    const rename = new PreparedQuery(db, ['id', 'name'], (q, p: { id: number; name: string }) =>
      q.updateTable('items').set({ name: p.name }).where('id', '=', p.id).returning(['id', 'name']),
    );
    expect(await rename.rows({ id: 3, name: 'z' })).toEqual([{ id: 3, name: 'z' }]);
    expect(await rename.rows({ id: 99, name: 'y' })).toEqual([]);
  });

  it('refuses a parameter the query does not use as a value', async () => {
    const query = new PreparedQuery(db, ['size', 'unused'], (q, p: { size: string; unused: string }) =>
      q.selectFrom('items').select('id').where('size', '=', p.size),
    );
    await expect(query.rows({ size: 'large', unused: 'x' })).rejects.toThrow(/does not use unused/);
  });
});
