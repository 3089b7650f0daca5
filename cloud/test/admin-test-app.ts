import type { Clock } from '../src/clock';
import type { AdminOptions, CompositionOptions } from '../src/composition';
import { hashPassword } from '../src/auth/password';
import type { Mailer } from '../src/mail/mailer';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import { StoreLockerControl } from '../src/services/locker-control';
import type { Store } from '../src/store/store';
import {
  jsonOrText,
  listenTestCloud,
  openTestAppStore,
  servedTestApp,
  testEnv,
  type TestApp,
  type TestAppOptions,
  useTestApp,
} from './test-app';

/**
 * Cheap scrypt for tests: the same code path, a sliver of the work (16 KiB, some microseconds, where
 * N=1024 took milliseconds: the lock test's 10,001 failed logins spent most of their time hashing).
 */
export const TEST_SCRYPT_COST = { N: 16, r: 8, p: 1 };

export const TEST_ADMIN = { email: 'ops@deposito.test', password: 'correct horse battery' };

/** TEST_ADMIN in the store, its password hashed cheaply. */
export async function createTestAdmin(store: Store, clock: Clock): Promise<void> {
  await store.adminUsers.create(
    { email: TEST_ADMIN.email, passwordHash: await hashPassword(TEST_ADMIN.password, TEST_SCRYPT_COST) },
    clock.now(),
  );
}

/** The admin services' test options (cheap hashing, no waits), `options` beside them. */
export function testAdminOptions(options: AdminOptions = {}): AdminOptions {
  return {
    scryptCost: TEST_SCRYPT_COST,
    wait: async () => undefined,
    // Suites move the clock by hours between calls with one token; the idle timeout's own tests set it.
    idleTimeoutMs: 24 * 60 * 60_000,
    ...options,
  };
}

/** Sites without a bridge: the lockers as our bookings see them, every command `bridge/offline`. */
export const sitesOffline: NonNullable<CompositionOptions['lockerControl']> = ({ store, clock }) =>
  new StoreLockerControl(store, clock);

export interface AdminTestApp extends TestApp {
  /** Logs in as TEST_ADMIN and answers the token. */
  login(email?: string, password?: string): Promise<string>;
  /** JSON call with an optional bearer token. */
  call<T = unknown>(
    method: string,
    path: string,
    options?: { token?: string; body?: unknown },
  ): Promise<{
    status: number;
    headers: Headers;
    body: T;
  }>;
  close(): Promise<void>;
}

/**
 * A real cloud on an ephemeral port over a fresh SQLite file (or PostgreSQL schema) with the seed
 * locations and one administrator (TEST_ADMIN). The admin services are built with test options
 * (cheap hashing, no waits); its sites have no bridge unless `lockerControl` stands in for them, and
 * it has no morning scheduler.
 */
export async function startAdminTestApp(
  options: AdminOptions &
    TestAppOptions & {
      lockerControl?: CompositionOptions['lockerControl'];
      /** The app's e-mail (the operators' alerts among it); the environment's by default. */
      mailer?: Mailer;
    } = {},
): Promise<AdminTestApp> {
  const {
    now,
    dialect = 'sqlite',
    database: shared,
    env: extraEnv,
    lockerControl = sitesOffline,
    mailer,
    ...adminOptions
  } = options;
  const { database, store, clock } = await openTestAppStore({ database: shared, dialect, now });
  if (!shared || (await store.adminUsers.count()) === 0) {
    await seedLocationsAndDiscounts({ store, clock });
    await createTestAdmin(store, clock);
  }
  const { cloud, url } = await listenTestCloud({
    env: testEnv({
      // Suites make many holds from 127.0.0.1; failed-login limits stay at their defaults.
      LIMIT_HOLDS_PER_MINUTE: '0',
      LIMIT_HELD_LOCKERS: '0',
      LIMIT_DISCOUNT_CHECKS: '0',
      ...extraEnv,
    }),
    store,
    clock,
    admin: testAdminOptions(adminOptions),
    lockerControl,
    morningScheduler: false,
    ...(mailer ? { mailer } : {}),
  });

  async function call<T>(method: string, path: string, callOptions: { token?: string; body?: unknown } = {}) {
    const headers: Record<string, string> = {};
    if (callOptions.token !== undefined) headers.authorization = `Bearer ${callOptions.token}`;
    if (callOptions.body !== undefined) headers['content-type'] = 'application/json';
    const response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body),
    });
    return { status: response.status, headers: response.headers, body: (await jsonOrText(response)) as T };
  }

  return {
    ...servedTestApp({ url, cloud, store, clock, database }, shared),
    call,
    async login(email = TEST_ADMIN.email, password = TEST_ADMIN.password) {
      const answer = await call<{ token: string }>('POST', '/api/admin/login', { body: { email, password } });
      if (answer.status !== 200)
        throw new Error(`login failed: ${answer.status} ${JSON.stringify(answer.body)}`);
      return answer.body.token;
    },
  };
}

/**
 * The suite's admin test app (useTestApp over startAdminTestApp with `options`), TEST_ADMIN logged
 * in at its start: `token` is that session's.
 */
export function useAdminTestApp(
  options: Parameters<typeof startAdminTestApp>[0] = {},
): AdminTestApp & { token: string } {
  return useTestApp(async () => {
    const app = await startAdminTestApp(options);
    return Object.assign(app, { token: await app.login() });
  }).test;
}
