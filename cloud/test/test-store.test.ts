import { describe, expect, it } from 'vitest';
import { buildBooking } from './builders';
import { ManualClock } from '../src/clock';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import type { Store } from '../src/store/store';
import { TEST_NOW } from './test-app';
import {
  createTestDatabase,
  emptyTestDatabase,
  STORE_DIALECTS,
  withPostgresClient,
  type TestDatabase,
} from './test-store';

/**
 * The seed locations, their lockers (with the ids the database gave them), the discount codes, and
 * the bookings, which refer to locations and lockers.
 */
async function contents(store: Store) {
  const locations = await store.locations.list();
  const lockers = await Promise.all(locations.map((location) => store.locations.lockers(location.key)));
  const bookings = await store.bookings.countByStatus();
  return { locations, lockers, discounts: await store.discounts.list(), pending: bookings.pending };
}

/** Seeds the demo locations and discounts into `database`, and a hold; what it then holds. */
async function seeded(database: TestDatabase) {
  const store = await database.open();
  try {
    await seedLocationsAndDiscounts({ store, clock: new ManualClock(TEST_NOW) });
    const [location] = await store.locations.list();
    const hold = buildBooking({ locationKey: location!.key });
    expect(
      (await store.bookings.reserveLockers({ booking: hold, maxOnline: 100, now: new Date(TEST_NOW) })).ok,
    ).toBe(true);
    return await contents(store);
  } finally {
    await store.close();
  }
}

describe.each(STORE_DIALECTS)('emptying a test database, on %s', (dialect) => {
  it('leaves it as freshly migrated: no rows, and ids counted from the start again', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const first = await seeded(database);
      expect(first.lockers.flat().length).toBeGreaterThan(0);

      await emptyTestDatabase(database);
      const store = await database.open();
      try {
        expect(await contents(store)).toEqual({ locations: [], lockers: [], discounts: [], pending: 0 });
      } finally {
        await store.close();
      }
      // The same seed gives the same rows with the same ids as on the fresh database.
      expect(await seeded(database)).toEqual(first);
    } finally {
      await database.dispose();
    }
  });
});

describe('emptying a PostgreSQL test database', () => {
  it('needs no superuser: the owner of the tables may do it, foreign keys and all', async () => {
    const database = await createTestDatabase('postgres');
    const owner = 'deposito_test_owner';
    try {
      await seeded(database);
      await withPostgresClient(database.schema!, async (client) => {
        await client.query(`DO $$ BEGIN
          IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${owner}') THEN
            CREATE ROLE ${owner} NOSUPERUSER NOLOGIN;
          END IF; END $$`);
        await client.query(`GRANT USAGE ON SCHEMA ${database.schema} TO ${owner}`);
        const { rows } = await client.query<{ name: string }>(
          `SELECT tablename AS name FROM pg_tables WHERE schemaname = $1`,
          [database.schema],
        );
        // A table's owner owns its id sequences too.
        for (const { name } of rows) await client.query(`ALTER TABLE "${name}" OWNER TO ${owner}`);
      });
      await emptyTestDatabase(database, { asRole: owner });
      const store = await database.open();
      try {
        expect(await contents(store)).toEqual({ locations: [], lockers: [], discounts: [], pending: 0 });
      } finally {
        await store.close();
      }
    } finally {
      await database.dispose();
    }
  });
});
