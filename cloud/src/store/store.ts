import {
  KyselyBookingExtensionRepository,
  type BookingExtensionRepository,
} from './booking-extension.repository';
import { KyselyLockerHistoryRepository, type LockerHistoryRepository } from './locker-history.repository';
import { KyselyAlertRepository, type AlertRepository } from './alert.repository';
import { KyselyBookingLinkRepository, type BookingLinkRepository } from './booking-link.repository';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { WriteVersionPlugin } from './write-version';
import pg from 'pg';
import type { DatabaseTarget } from '../env';
import { KyselyAdminUserRepository, type AdminUserRepository } from './admin-user.repository';
import { KyselyBookingAdminRepository, type BookingAdminRepository } from './booking-admin.repository';
import { KyselyBookingRepository, type BookingRepository } from './booking.repository';
import { KyselyBridgeRepository, type BridgeRepository } from './bridge.repository';
import type { Database } from './database';
import { KyselyDiscountRepository, type DiscountRepository } from './discount.repository';
import {
  KyselyErrorLogArchiveRepository,
  type ErrorLogArchiveRepository,
} from './error-log-archive.repository';
import { KyselyEmailOutboxRepository, type EmailOutboxRepository } from './email-outbox.repository';
import { KyselyErrorLogRepository, type ErrorLogRepository } from './error-log.repository';
import { KyselyPaymentReceiptRepository, type PaymentReceiptRepository } from './payment-receipt.repository';
import { KyselyLocationAdminRepository, type LocationAdminRepository } from './location-admin.repository';
import {
  KyselyLocationRepository,
  type LocationRecord,
  type LocationRepository,
} from './location.repository';
import { migrateToLatest, pendingMigrations, type SqlDialect } from './migrate';
import { ReadCache } from './read-cache';
import { KyselySettingsRepository, type SettingsRepository } from './settings.repository';
import { KyselyTakingsRepository, type TakingsRepository } from './takings.repository';
import { openSqliteDatabase, type SqliteSync } from './sqlite-database';
import { rateLimiterFactory, type RateLimiterSpec } from './rate-limiter-store';
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

/**
 * Everything the cloud persists, behind one interface for SQLite and PostgreSQL. New areas add a
 * repository here (and a migration in `migrations/`); SQL is written nowhere else.
 */
export interface Store {
  readonly dialect: SqlDialect;
  readonly locations: LocationRepository;
  readonly bookings: BookingRepository;
  readonly discounts: DiscountRepository;
  readonly settings: SettingsRepository;
  readonly errorLog: ErrorLogRepository;
  readonly bridge: BridgeRepository;
  readonly adminUsers: AdminUserRepository;
  readonly bookingAdmin: BookingAdminRepository;
  readonly locationAdmin: LocationAdminRepository;
  readonly errorLogArchive: ErrorLogArchiveRepository;
  /** Bookings as the monthly takings count them. */
  readonly takings: TakingsRepository;
  /** The visitors' booking e-mails waiting to be sent. */
  readonly emailOutbox: EmailOutboxRepository;
  /** Payments the gateway reported as taken, once per booking and reference. */
  readonly paymentReceipts: PaymentReceiptRepository;
  /** Private links to visitors' booking pages (hashed tokens). */
  readonly bookingLinks: BookingLinkRepository;
  /** Which stay each visitor's extension belongs to. */
  readonly bookingExtensions: BookingExtensionRepository;
  /** Operators' alerts: raised once per subject, resolved, acknowledged. */
  readonly alerts: AlertRepository;
  /** Everything that concerns one locker, for its history. */
  readonly lockerHistory: LockerHistoryRepository;
  /**
   * Grows with every write this process sends to the store (`WriteVersionPlugin`): an answer computed
   * at one version may be stale at another. Other processes' writes do not move it.
   */
  writeVersion(): number;
  /** A request limiter: counted in PostgreSQL (shared by every cloud process), in memory with SQLite. */
  rateLimiter(spec: RateLimiterSpec): RateLimiterAbstract;
  /** Resolves when the database answers a query (health check). */
  ping(): Promise<void>;
  /** Migrations not run on this database yet (readiness check); empty once `openStore` returned. */
  pendingMigrations(): Promise<string[]>;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** PostgreSQL schema to use (created if missing), e.g. one per test suite; default `public`. */
  schema?: string;
  /** PostgreSQL pool size. */
  poolSize?: number;
}

export async function openStore(target: DatabaseTarget, options: OpenStoreOptions = {}): Promise<Store> {
  const { db, pool, sqlite } =
    target.dialect === 'sqlite'
      ? { ...connectSqlite(target.filename), pool: null }
      : { ...(await connectPostgres(target.connectionString, options)), sqlite: null };
  try {
    await migrateToLatest(db as Kysely<unknown>, target.dialect, options.schema);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const writes = new WriteVersionPlugin();
  return createStore(db.withPlugin(writes), target.dialect, writes, { schema: options.schema, pool, sqlite });
}

function createStore(
  db: Kysely<Database>,
  dialect: SqlDialect,
  writes: WriteVersionPlugin,
  { schema, pool, sqlite }: { schema?: string; pool: pg.Pool | null; sqlite: SqliteSync | null },
): Store {
  const locationCache = new ReadCache<LocationRecord | null>();
  return {
    dialect,
    writeVersion: () => writes.version,
    locations: new KyselyLocationRepository(db, locationCache),
    bookings: new KyselyBookingRepository(db, dialect, sqlite, () => writes.version),
    discounts: new KyselyDiscountRepository(db, dialect),
    settings: new KyselySettingsRepository(db, dialect),
    errorLog: new KyselyErrorLogRepository(db),
    bridge: new KyselyBridgeRepository(db, dialect),
    adminUsers: new KyselyAdminUserRepository(db, dialect),
    bookingAdmin: new KyselyBookingAdminRepository(db, dialect),
    locationAdmin: new KyselyLocationAdminRepository(db, dialect, locationCache),
    errorLogArchive: new KyselyErrorLogArchiveRepository(db),
    takings: new KyselyTakingsRepository(db),
    emailOutbox: new KyselyEmailOutboxRepository(db),
    bookingLinks: new KyselyBookingLinkRepository(db),
    bookingExtensions: new KyselyBookingExtensionRepository(db),
    alerts: new KyselyAlertRepository(db),
    lockerHistory: new KyselyLockerHistoryRepository(db),
    paymentReceipts: new KyselyPaymentReceiptRepository(db),
    rateLimiter: rateLimiterFactory(pool),
    ping: async () => {
      await sql`select 1`.execute(db);
    },
    pendingMigrations: () => pendingMigrations(db as Kysely<unknown>, dialect, schema),
    close: () => db.destroy(),
  };
}

function connectSqlite(filename: string): { db: Kysely<Database>; sqlite: SqliteSync } {
  if (filename !== ':memory:') mkdirSync(path.dirname(filename), { recursive: true });
  const database = openSqliteDatabase(filename);
  return { db: new Kysely<Database>({ dialect: new SqliteDialect({ database }) }), sqlite: database.sync };
}

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

async function connectPostgres(
  connectionString: string,
  options: OpenStoreOptions,
): Promise<{ db: Kysely<Database>; pool: pg.Pool }> {
  const schema = options.schema;
  if (schema !== undefined && !SCHEMA_NAME.test(schema))
    throw new Error(`Not a usable schema name: ${schema}`);
  if (schema) {
    const client = new pg.Client({ connectionString });
    await client.connect();
    try {
      await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    } finally {
      await client.end();
    }
  }
  const pool = new pg.Pool({
    connectionString,
    max: options.poolSize ?? 10,
    // `public` stays on the path for the btree_gist operator classes installed there.
    ...(schema ? { options: `-c search_path=${schema},public` } : {}),
  });
  return { db: new Kysely<Database>({ dialect: new PostgresDialect({ pool }) }), pool };
}
