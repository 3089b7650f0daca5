import { describe, expect, it } from 'vitest';
import { ManualClock } from '../src/clock';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import type { Store } from '../src/store/store';
import { TEST_NOW } from './test-app';
import { createTestDatabase, emptyTestDatabase, STORE_DIALECTS, type TestDatabase } from './test-store';

/** The seed locations, their lockers (with the ids the database gave them) and the discount codes. */
async function contents(store: Store) {
  const locations = await store.locations.list();
  const lockers = await Promise.all(locations.map((location) => store.locations.lockers(location.key)));
  return { locations, lockers, discounts: await store.discounts.list() };
}

/** Seeds the demo locations and discounts into `database`; what it then holds. */
async function seeded(database: TestDatabase) {
  const store = await database.open();
  try {
    await seedLocationsAndDiscounts({ store, clock: new ManualClock(TEST_NOW) });
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
        expect(await contents(store)).toEqual({ locations: [], lockers: [], discounts: [] });
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
