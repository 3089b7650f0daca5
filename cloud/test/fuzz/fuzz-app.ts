import { rm } from 'node:fs/promises';
import type { CloudApp } from '../../src/app';
import { ManualClock, type Clock } from '../../src/clock';
import { seedLocationsAndDiscounts } from '../../src/services/demo-seed.service';
import { StoreLockerControl, type LockerCommandOutcome } from '../../src/services/locker-control';
import { AppError } from '../../src/errors';
import type { Store } from '../../src/store/store';
import { adminToken } from '../bridge-site';
import { listenPaymentsCloud, TEST_SANDBOX } from '../payment-test-app';
import { TEST_NOW } from '../test-app';
import { createTestDatabase, type StoreDialect } from '../test-store';

export interface FuzzApp {
  url: string;
  cloud: CloudApp;
  store: Store;
  clock: ManualClock;
  /** A fresh administrator session (a new administrator each time, straight in the store). */
  newAdminToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * The whole cloud over real HTTP for the API fuzzer: every route area, the demo seed, the sandbox
 * payment page, e-mail to a temporary outbox, cheap password hashing, abuse limits off (so 429s do
 * not hide the routes). The locker sites (bridge and controller) are outside the cloud: their
 * stand-in is `OnlineSiteLockerControl`, as no bridge is connected here (the hub would answer every
 * `open` with its designed 503 bridge/offline, which is not what this fuzzer looks for).
 */
export async function startFuzzApp(dialect: StoreDialect): Promise<FuzzApp> {
  const database = await createTestDatabase(dialect);
  const store = await database.open();
  const clock = new ManualClock(TEST_NOW);
  await seedLocationsAndDiscounts({ store, clock });
  const { cloud, url, outboxDir } = await listenPaymentsCloud({
    store,
    clock,
    outboxPrefix: 'deposito-fuzz-outbox-',
    payment: TEST_SANDBOX,
    lockerControl: (context) => new OnlineSiteLockerControl(context.store, context.clock),
  });
  return {
    url,
    cloud,
    store,
    clock,
    newAdminToken: () => adminToken(store, clock.now()),
    async close() {
      await cloud.stop();
      await store.close();
      await database.dispose();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}

/** A locker site whose bridge is online and whose controller does what it is told. */
class OnlineSiteLockerControl extends StoreLockerControl {
  constructor(
    private readonly lockerStore: Store,
    clock: Clock,
  ) {
    super(lockerStore, clock);
  }

  override siteStatus(): Promise<{ online: boolean; lastSeenAt: Date | null }> {
    return Promise.resolve({ online: true, lastSeenAt: null });
  }

  override async command(locationKey: string, lockerId: number): Promise<LockerCommandOutcome> {
    const lockers = await this.lockerStore.locations.lockers(locationKey);
    if (!lockers.some((locker) => locker.number === lockerId)) {
      throw new AppError('locker/not_found', `No locker ${lockerId} at ${locationKey}`);
    }
    return { outcome: 'executed' };
  }
}
