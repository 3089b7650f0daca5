import { pino } from 'pino';
import { createApp, type CloudApp } from '../src/app';
import { ManualClock, type Clock } from '../src/clock';
import { loadEnv } from '../src/env';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import type { Store } from '../src/store/store';
import { createTestDatabase, type StoreDialect, type TestDatabase } from './test-store';

/** Friday 27 March 2026, 09:00 in Rome: two days before the spring DST change. */
export const TEST_NOW = '2026-03-27T08:00:00.000Z';

export interface TestApp {
  url: string;
  cloud: CloudApp;
  store: Store;
  clock: ManualClock;
  database: TestDatabase;
  close(): Promise<void>;
}

export const silentLogger = () => pino({ level: 'silent' });

/**
 * A real cloud on an ephemeral port over a fresh database holding the spec's seed locations and
 * discount codes. Background jobs stay off: tests move the clock and run the expiry themselves.
 */
export async function startTestApp(
  options: {
    dialect?: StoreDialect;
    now?: string;
    /** A clock of the caller's (e.g. the system clock, to share time with another process). */
    clock?: Clock;
    database?: TestDatabase;
    seed?: boolean;
    /** Environment beside the test defaults, e.g. `{ RATE_LIMITS: 'on', LIMIT_HELD_LOCKERS: '2' }`. */
    env?: Record<string, string>;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(options.dialect ?? 'sqlite'));
  const store = await database.open();
  const clock = new ManualClock(options.now ?? TEST_NOW);
  if (options.seed ?? true) await seedLocationsAndDiscounts({ store, clock });
  const env = loadEnv({
    DATABASE_URL: 'sqlite::memory:',
    PORT: '0',
    PAYMENT_PROVIDER: 'sandbox',
    // Suites make many holds from 127.0.0.1; the limits' own tests turn them on.
    RATE_LIMITS: 'off',
    ...options.env,
  });
  const cloud = createApp({ env, store, clock: options.clock ?? clock, logger: silentLogger() });
  const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
  return {
    url,
    cloud,
    store,
    clock,
    database,
    async close() {
      await cloud.stop();
      await store.close();
      if (!options.database) await database.dispose();
    },
  };
}

export interface ApiAnswer<T = unknown> {
  status: number;
  body: T;
}

/** Plain HTTP calls against a test server, JSON in and out. */
export function apiClient(baseUrl: string) {
  async function call<T>(
    method: string,
    path: string,
    body?: unknown,
    rawBody?: string,
  ): Promise<ApiAnswer<T>> {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers:
        body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : undefined,
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // Not JSON: keep the text for the assertion message.
    }
    return { status: response.status, body: parsed as T };
  }
  return {
    get: <T = unknown>(path: string) => call<T>('GET', path),
    post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', path, body),
    patch: <T = unknown>(path: string, body?: unknown) => call<T>('PATCH', path, body),
    raw: <T = unknown>(method: string, path: string, rawBody: string) =>
      call<T>(method, path, undefined, rawBody),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
