import { performance } from 'node:perf_hooks';

/**
 * How long a process reuses rarely written rows (locations, system settings) that every hold reads.
 * A write made through this process's store drops them at once; a write made by another cloud
 * instance on the same PostgreSQL database is seen here within this time.
 */
export const READ_CACHE_TTL_MS = 2_000;

/**
 * Loads kept per key for a short time. Concurrent reads of a key share one load; `invalidate` (called
 * by the repository after its own write) makes the next read load again. The monotonic clock keeps
 * it independent of the application clock, which tests move.
 *
 * With `writeVersion` (the store's count of this process's writes), a load is also dropped as soon
 * as anything is written through this process, for rows written from several places that would
 * each need their own `invalidate`.
 */
export class ReadCache<V> {
  private readonly entries = new Map<string, { value: Promise<V>; expiresAt: number; version: number }>();

  constructor(
    private readonly ttlMs: number = READ_CACHE_TTL_MS,
    private readonly writeVersion: () => number = () => 0,
  ) {}

  get(key: string, load: () => Promise<V>): Promise<V> {
    const now = performance.now();
    // Read before loading: a write that ends during the load leaves the entry stale at once.
    const version = this.writeVersion();
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > now && entry.version === version) return entry.value;
    const value = load();
    this.entries.set(key, { value, expiresAt: now + this.ttlMs, version });
    // A failed load is not kept: the next read tries again.
    value.catch(() => {
      if (this.entries.get(key)?.value === value) this.entries.delete(key);
    });
    return value;
  }

  /** Drops one key, or every key. */
  invalidate(key?: string): void {
    if (key === undefined) this.entries.clear();
    else this.entries.delete(key);
  }
}
