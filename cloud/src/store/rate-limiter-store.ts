import type pg from 'pg';
import { RateLimiterMemory, RateLimiterPostgres, type RateLimiterAbstract } from 'rate-limiter-flexible';

/** What a limiter counts: `points` per `duration` seconds, then refused for `blockDuration` seconds. */
export interface RateLimiterSpec {
  /** Names the limiter; its keys are stored as `<keyPrefix>:<key>`. */
  keyPrefix: string;
  points: number;
  duration: number;
  /** 0 (default): refused only until the window ends. */
  blockDuration?: number;
}

/** The table of migration 20251125140000_abuse-limits. */
const RATE_LIMITS_TABLE = 'rate_limits';

/**
 * Builds limiters over the store's database: on PostgreSQL the counters live in `rate_limits`, so
 * every cloud process on the database shares them; with SQLite (one process) they stay in memory.
 */
export function rateLimiterFactory(pool: pg.Pool | null): (spec: RateLimiterSpec) => RateLimiterAbstract {
  let sweeping = false;
  return (spec) => {
    if (!pool) return new RateLimiterMemory(spec);
    // One limiter per process deletes long-expired rows now and then; the others need not.
    const clearExpiredByTimeout = !sweeping;
    sweeping = true;
    return new RateLimiterPostgres({
      ...spec,
      storeClient: pool,
      storeType: 'pool',
      tableName: RATE_LIMITS_TABLE,
      tableCreated: true,
      clearExpiredByTimeout,
    });
  };
}
