import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createApp, ROUTE_AREAS, type AppContext, type CloudApp } from '../src/app';
import type { LockerControl } from '../src/services/locker-control';
import { hashPassword } from '../src/auth/password';
import { ManualClock } from '../src/clock';
import { loadEnv } from '../src/env';
import { readOutbox, type OutboxMessage } from '../src/mail/outbox';
import type { Mailer } from '../src/mail/mailer';
import { BOOKING_EMAIL_HEADER, BOOKING_EMAIL_KIND_HEADER } from '../src/mail/booking-email';
import type { PaymentConfig } from '../src/payments/payment-config';
import { adminArea, createAdminArea } from '../src/routes/admin/admin.routes';
import {
  createPaymentsArea,
  morningSchedulerFor,
  paymentsArea,
  refundsFor,
} from '../src/routes/payments/payments.routes';
import type { PaymentModule } from '../src/routes/payments/payment-module';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import type { Store } from '../src/store/store';
import { TEST_ADMIN, TEST_SCRYPT_COST } from './admin-test-app';
import { silentLogger, TEST_NOW } from './test-app';
import { createTestDatabase, type StoreDialect, type TestDatabase } from './test-store';

export const TEST_SANDBOX: PaymentConfig = {
  provider: 'sandbox',
  merchantName: 'Deposito Test',
  timeoutMs: 5_000,
  secret: 'payment-tests-sandbox-secret-long-enough',
  secretGenerated: false,
  shopLogin: 'DEPOSITO-SANDBOX',
};

export interface PaymentTestApp {
  url: string;
  cloud: CloudApp;
  store: Store;
  clock: ManualClock;
  payments: PaymentModule;
  outboxDir: string;
  /** The e-mails written so far, optionally only those about one booking. */
  mails(transactionId?: string): Promise<Array<OutboxMessage & { kind: string }>>;
  /** An administrator's bearer token. */
  adminToken(): Promise<string>;
  close(): Promise<void>;
}

/**
 * A real cloud on an ephemeral port, over a fresh database with the seed locations, with the
 * payments area on the given gateway (the sandbox by default) and e-mail written to a temporary
 * outbox. Its public URL is the server's own, so the gateway's notifications reach it.
 */
export async function startPaymentTestApp(
  options: {
    dialect?: StoreDialect;
    now?: string;
    payment?: PaymentConfig;
    mailer?: (outboxDir: string) => Mailer;
    /** The operators' locker control (the controllers are outside our system); bridge/offline without. */
    lockerControl?: (context: AppContext) => LockerControl;
    /** A database of the caller's (not disposed on close); a fresh one of `dialect` by default. */
    database?: TestDatabase;
    /** Seed the locations, discounts and test administrator (default); off for a restored store. */
    seed?: boolean;
  } = {},
): Promise<PaymentTestApp> {
  const ownDatabase = options.database === undefined;
  const database: TestDatabase = options.database ?? (await createTestDatabase(options.dialect ?? 'sqlite'));
  const store = await database.open();
  const clock = new ManualClock(options.now ?? TEST_NOW);
  if (options.seed ?? true) {
    await seedLocationsAndDiscounts({ store, clock });
    await store.adminUsers.create(
      { email: TEST_ADMIN.email, passwordHash: await hashPassword(TEST_ADMIN.password, TEST_SCRYPT_COST) },
      clock.now(),
    );
  }
  const outboxDir = await mkdtemp(path.join(tmpdir(), 'deposito-payments-outbox-'));
  let publicUrl = '';
  const payments = createPaymentsArea({
    payment: options.payment ?? TEST_SANDBOX,
    mail: { from: 'Deposito <no-reply@deposito.test>', transport: { kind: 'outbox', directory: outboxDir } },
    ...(options.mailer ? { mailer: options.mailer(outboxDir) } : {}),
    publicUrl: () => publicUrl,
  });
  const admin = createAdminArea({
    ...(options.lockerControl ? { lockerControl: options.lockerControl } : {}),
    scryptCost: TEST_SCRYPT_COST,
    wait: async () => undefined,
    // Suites move the clock by hours between calls with one token.
    idleTimeoutMs: 24 * 60 * 60_000,
    morningScheduler: morningSchedulerFor,
    refunds: refundsFor,
  });
  const env = loadEnv({
    DATABASE_URL: 'sqlite::memory:',
    PORT: '0',
    PAYMENT_PROVIDER: 'sandbox',
    // Suites make many holds from 127.0.0.1; the limits' own tests turn them on.
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
    payments: payments.moduleFor(cloud.context),
    outboxDir,
    async mails(transactionId) {
      const all = (await readOutbox(outboxDir)).map((mail) => ({
        ...mail,
        kind: mail.headers[BOOKING_EMAIL_KIND_HEADER.toLowerCase()] ?? '',
      }));
      return transactionId
        ? all.filter((mail) => mail.headers[BOOKING_EMAIL_HEADER.toLowerCase()] === transactionId)
        : all;
    },
    async adminToken() {
      const response = await fetch(`${url}/api/admin/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(TEST_ADMIN),
      });
      const body = (await response.json()) as { token?: string };
      if (!body.token) throw new Error(`admin login failed: ${JSON.stringify(body)}`);
      return body.token;
    },
    async close() {
      await cloud.stop();
      await store.close();
      if (ownDatabase) await database.dispose();
      await rm(outboxDir, { recursive: true, force: true });
    },
  };
}
