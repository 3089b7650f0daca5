import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp, ROUTE_AREAS, type CloudApp } from '../../src/app';
import { ManualClock, type Clock } from '../../src/clock';
import { loadEnv } from '../../src/env';
import { adminArea, createAdminArea } from '../../src/routes/admin/admin.routes';
import {
  createPaymentsArea,
  morningSchedulerFor,
  paymentsArea,
} from '../../src/routes/payments/payments.routes';
import { seedLocationsAndDiscounts } from '../../src/services/demo-seed.service';
import { StoreLockerControl, type LockerCommandOutcome } from '../../src/services/locker-control';
import { AppError } from '../../src/errors';
import type { Store } from '../../src/store/store';
import { TEST_SCRYPT_COST } from '../admin-test-app';
import { adminToken } from '../bridge-site';
import { TEST_SANDBOX } from '../payment-test-app';
import { silentLogger, TEST_NOW } from '../test-app';
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
  const outboxDir = await mkdtemp(path.join(tmpdir(), 'deposito-fuzz-outbox-'));
  let publicUrl = '';
  const payments = createPaymentsArea({
    payment: TEST_SANDBOX,
    mail: { from: 'Deposito <no-reply@deposito.test>', transport: { kind: 'outbox', directory: outboxDir } },
    publicUrl: () => publicUrl,
  });
  const admin = createAdminArea({
    lockerControl: (context) => new OnlineSiteLockerControl(context.store, context.clock),
    scryptCost: TEST_SCRYPT_COST,
    wait: async () => undefined,
    idleTimeoutMs: 24 * 60 * 60_000,
    morningScheduler: morningSchedulerFor,
  });
  const env = loadEnv({
    DATABASE_URL: 'sqlite::memory:',
    PORT: '0',
    PAYMENT_PROVIDER: 'sandbox',
    RATE_LIMITS: 'off',
  });
  const cloud = createApp({
    env,
    store,
    clock,
    logger: silentLogger(),
    areas: ROUTE_AREAS.map((area) => (area === paymentsArea ? payments : area === adminArea ? admin : area)),
  });
  const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
  publicUrl = url;
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
