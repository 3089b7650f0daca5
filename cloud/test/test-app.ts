import { pino } from 'pino';
import { afterAll, beforeAll, expect } from 'vitest';
import { createApp, type CloudApp, type CreateAppOptions } from '../src/app';
import { ManualClock, type Clock } from '../src/clock';
import { loadEnv, type Env } from '../src/env';
import { seedLocationsAndDiscounts } from '../src/services/demo-seed.service';
import type { Store } from '../src/store/store';
import { TODAY_HOLD_REQUEST } from './builders';
import { createTestDatabase, standIn, type StoreDialect, type TestDatabase } from './test-store';

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

/** What every test cloud's starter takes. */
export interface TestAppOptions {
  dialect?: StoreDialect;
  now?: string;
  /** A database of the caller's (kept open afterwards), shared e.g. by two apps standing for two cloud processes. */
  database?: TestDatabase;
  /** Environment beside the test defaults, e.g. `{ RATE_LIMITS: 'on', LIMIT_HELD_LOCKERS: '2' }`. */
  env?: Record<string, string>;
}

/** A served cloud as a TestApp: closing stops it, closes its store and throws away a database it made. */
export function servedTestApp(
  served: Omit<TestApp, 'close'>,
  callersDatabase: TestDatabase | undefined,
): TestApp {
  return {
    ...served,
    async close() {
      await served.cloud.stop();
      await served.store.close();
      if (!callersDatabase) await served.database.dispose();
    },
  };
}

export const silentLogger = () => pino({ level: 'silent' });

/** What a test cloud serves: the caller's database or a fresh one of `dialect`, open, and a clock at `now`. */
export async function openTestAppStore(options: {
  database?: TestDatabase;
  dialect?: StoreDialect;
  now?: string;
}): Promise<{ database: TestDatabase; store: Store; clock: ManualClock }> {
  const database = options.database ?? (await createTestDatabase(options.dialect ?? 'sqlite'));
  return { database, store: await database.open(), clock: new ManualClock(options.now ?? TEST_NOW) };
}

/**
 * The environment of a test cloud: the store is the caller's, the port ephemeral, payments on the
 * sandbox, and `extra` beside them (e.g. `RATE_LIMITS: 'off'`).
 */
export function testEnv(extra: Record<string, string | undefined> = {}): Env {
  return loadEnv({ DATABASE_URL: 'sqlite::memory:', PORT: '0', PAYMENT_PROVIDER: 'sandbox', ...extra });
}

/** Suites make many holds from 127.0.0.1; the limits' own tests turn them on. */
export const LIMITS_OFF = { RATE_LIMITS: 'off' } as const;

/**
 * Serves `store` on an ephemeral port of 127.0.0.1 with the background jobs off; the rest of
 * `options` goes to the services (createApp's composition options).
 */
export async function listenTestCloud(
  options: Omit<CreateAppOptions, 'logger'> & { env: Env; store: Store; clock: Clock },
): Promise<{ cloud: CloudApp; url: string }> {
  const cloud = createApp({ ...options, logger: silentLogger() });
  const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
  return { cloud, url };
}

/** A body as JSON, or the text itself (kept for the assertion message) when it is not JSON. */
function parseJsonOrKeep(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return text;
  }
}

/** An answer's body as JSON, or its text (kept for the assertion message) when it is not JSON. */
export async function jsonOrText(response: Response): Promise<unknown> {
  return parseJsonOrKeep(await response.text());
}

/**
 * A real cloud on an ephemeral port over a fresh database holding the spec's seed locations and
 * discount codes. Background jobs stay off: tests move the clock and run the expiry themselves.
 */
export async function startTestApp(
  options: TestAppOptions & {
    /** A clock of the caller's (e.g. the system clock, to share time with another process). */
    clock?: Clock;
    seed?: boolean;
  } = {},
): Promise<TestApp> {
  const { database, store, clock } = await openTestAppStore(options);
  if (options.seed ?? true) await seedLocationsAndDiscounts({ store, clock });
  const { cloud, url } = await listenTestCloud({
    env: testEnv({ ...LIMITS_OFF, ...options.env }),
    store,
    clock: options.clock ?? clock,
  });
  return servedTestApp({ url, cloud, store, clock, database }, options.database);
}

export interface ApiAnswer<T = unknown> {
  status: number;
  /** JSON when the answer is JSON, else its text. */
  body: T;
  /** The answer as sent (an HTML page, a redirecting page). */
  text: string;
  headers: Headers;
}

/** Plain HTTP calls against a test server (its URL, or where to read it at each call), JSON in and out. */
export function apiClient(baseUrl: string | (() => string)) {
  async function call<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    rawBody?: string,
  ): Promise<ApiAnswer<T>> {
    const response = await fetch(`${typeof baseUrl === 'string' ? baseUrl : baseUrl()}${path}`, {
      method,
      headers:
        body !== undefined || rawBody !== undefined ? { 'content-type': 'application/json' } : undefined,
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
    });
    const text = await response.text();
    return { status: response.status, body: parseJsonOrKeep(text) as T, text, headers: response.headers };
  }
  return {
    call,
    get: <T = unknown>(path: string) => call<T>('GET', path),
    post: <T = unknown>(path: string, body?: unknown) => call<T>('POST', path, body),
    patch: <T = unknown>(path: string, body?: unknown) => call<T>('PATCH', path, body),
    raw: <T = unknown>(method: string, path: string, rawBody: string) =>
      call<T>(method, path, undefined, rawBody),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;

/**
 * The suite's test app: `start` runs before its tests, the app closes after them. `test` stands for
 * the app from the start (so it may be named at the suite's top) and `api` calls it.
 */
export function useTestApp<T extends { url: string; close(): Promise<void> }>(
  start: () => Promise<T>,
): { test: T; api: ApiClient } {
  let started: T | undefined;
  const app = (): T => {
    if (!started) throw new Error('the test app is used before the suite started it');
    return started;
  };
  beforeAll(async () => {
    started = await start();
  });
  afterAll(() => started?.close());
  return { test: standIn(app), api: apiClient(() => app().url) };
}

/** Holds lockers as the booking page does (TODAY_HOLD_REQUEST unless overridden); the transaction id. */
export async function holdOverApi(api: ApiClient, overrides: object = {}): Promise<string> {
  const answer = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
    ...TODAY_HOLD_REQUEST,
    ...overrides,
  });
  expect(answer.status).toBe(200);
  return answer.body.transactionId;
}
