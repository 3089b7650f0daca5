import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { CloudApp, Services } from '../src/app';
import type { CompositionOptions } from '../src/composition';
import { ManualClock, type Clock } from '../src/clock';
import { readOutbox, type OutboxMessage } from '../src/mail/outbox';
import type { Mailer } from '../src/mail/mailer';
import { BOOKING_EMAIL_HEADER, BOOKING_EMAIL_KIND_HEADER } from '../src/mail/booking-email';
import { startAxerveStub, type AxerveStub } from '../src/payments/axerve-stub';
import type { PaymentConfig } from '../src/payments/payment-config';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import type { Store } from '../src/store/store';
import { createTestAdmin, sitesOffline, TEST_ADMIN, testAdminOptions } from './admin-test-app';
import { LIMITS_OFF, listenTestCloud, openTestAppStore, testEnv } from './test-app';
import type { StoreDialect, TestDatabase } from './test-store';

export const TEST_SANDBOX: PaymentConfig = {
  provider: 'sandbox',
  merchantName: 'Deposito Test',
  timeoutMs: 5_000,
  secret: 'payment-tests-sandbox-secret-long-enough',
  secretGenerated: false,
  shopLogin: 'DEPOSITO-SANDBOX',
};

/** The payment side of a test app's services, as its tests drive them. */
export interface PaymentParts {
  payments: Services['payments'];
  emails: Services['emails'];
  scheduler: NonNullable<Services['morningScheduler']>;
  gateway: Services['gateway'];
}

/**
 * Serves `store` with every area: payments on `payment`, e-mail written to a fresh temporary
 * outbox (named from `outboxPrefix`), the admin services with test options, and the sites through
 * `lockerControl`. Its public URL is the server's own, so the gateway's notifications reach it.
 */
export async function listenPaymentsCloud(options: {
  store: Store;
  clock: Clock;
  outboxPrefix: string;
  payment: PaymentConfig;
  mailer?: (outboxDir: string) => Mailer;
  lockerControl: NonNullable<CompositionOptions['lockerControl']>;
}): Promise<{ cloud: CloudApp; url: string; payments: PaymentParts; outboxDir: string }> {
  const outboxDir = await mkdtemp(path.join(tmpdir(), options.outboxPrefix));
  let publicUrl = '';
  const { cloud, url } = await listenTestCloud({
    env: testEnv(LIMITS_OFF),
    store: options.store,
    clock: options.clock,
    payment: options.payment,
    mail: { from: 'Deposito <no-reply@deposito.test>', transport: { kind: 'outbox', directory: outboxDir } },
    ...(options.mailer ? { mailer: options.mailer(outboxDir) } : {}),
    publicUrl: () => publicUrl,
    admin: testAdminOptions(),
    lockerControl: options.lockerControl,
  });
  publicUrl = url;
  const { payments, emails, morningScheduler, gateway } = cloud.context.services;
  if (!morningScheduler) throw new Error('a payments test app runs the morning scheduler');
  return { cloud, url, payments: { payments, emails, scheduler: morningScheduler, gateway }, outboxDir };
}

export interface PaymentTestApp {
  url: string;
  cloud: CloudApp;
  store: Store;
  clock: ManualClock;
  payments: PaymentParts;
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
    lockerControl?: CompositionOptions['lockerControl'];
    /** A database of the caller's (not disposed on close); a fresh one of `dialect` by default. */
    database?: TestDatabase;
    /** Seed the locations, discounts and test administrator (default); off for a restored store. */
    seed?: boolean;
  } = {},
): Promise<PaymentTestApp> {
  const ownDatabase = options.database === undefined;
  const { database, store, clock } = await openTestAppStore(options);
  if (options.seed ?? true) {
    await seedLocationsAndDiscounts({ store, clock });
    await createTestAdmin(store, clock);
  }
  const { cloud, url, payments, outboxDir } = await listenPaymentsCloud({
    store,
    clock,
    outboxPrefix: 'deposito-payments-outbox-',
    payment: options.payment ?? TEST_SANDBOX,
    ...(options.mailer ? { mailer: options.mailer } : {}),
    lockerControl: options.lockerControl ?? sitesOffline,
  });

  return {
    url,
    cloud,
    store,
    clock,
    payments,
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

/** A payment test app whose gateway is the local Axerve stub (closed with it). */
export interface AxervePaymentTestApp extends PaymentTestApp {
  stub: AxerveStub;
}

/** {@link startPaymentTestApp} with PAYMENT_PROVIDER=axerve, paying through a fresh Axerve stub. */
export async function startAxervePaymentTestApp(account: {
  shopLogin: string;
  apiKey: string;
}): Promise<AxervePaymentTestApp> {
  const stub = await startAxerveStub(account);
  const app = await startPaymentTestApp({
    payment: {
      provider: 'axerve',
      merchantName: 'Deposito Test',
      timeoutMs: 2_000,
      ...account,
      baseUrl: stub.baseUrl,
      pageUrl: stub.pageUrl,
    },
  }).catch(async (error: unknown) => {
    await stub.close();
    throw error;
  });
  return {
    ...app,
    stub,
    async close() {
      await app.close();
      await stub.close();
    },
  };
}
