// Smoke test of `npm run bench`: every benchmark runs in its tiny quick mode and its correctness
// outcomes hold. Timings are the benchmarks' business, never asserted here.
import { describe, expect, it } from 'vitest';
import { BENCHMARKS } from './bench/index';
import type { BenchResult } from './bench/bench-result';

const QUICK_TIMEOUT_MS = 180_000;

async function quick(name: string): Promise<BenchResult> {
  const bench = BENCHMARKS.find((b) => b.name === name);
  if (!bench) throw new Error(`no benchmark ${name}`);
  const result = await bench.run({ quick: true });
  expect(result.name).toBe(name);
  expect(Number.isFinite(result.figure)).toBe(true);
  return result;
}

describe('benchmarks (quick mode)', () => {
  it('lists each benchmark once', () => {
    const names = BENCHMARKS.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(13);
  });

  it(
    'availability-throughput: every availability call answers 200',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('availability-throughput');
      expect(details.failures).toBe(0);
    },
  );

  it.each(['reservation-sqlite', 'reservation-postgres'])(
    '%s: holds succeed and no locker holds overlapping periods',
    { timeout: QUICK_TIMEOUT_MS },
    async (name) => {
      const { details, baseline } = await quick(name);
      // Each measures its raw-insert floor in the same run (better-sqlite3, or pg from as many connections).
      expect(baseline).toBeGreaterThan(0);
      expect(details.overlaps).toBe(0);
      expect(details.errors).toBe(0);
      expect(details.succeeded).toBeGreaterThan(0);
      expect(details.activeReservations).toBeGreaterThanOrEqual(details.succeeded as number);
    },
  );

  it(
    'availability-latency: both stores answer the same, through indexes',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('availability-latency');
      expect(details.sameAnswer).toBe(true);
      expect(details.failures).toBe(0);
      expect(details.usesIndex).toBe(true);
    },
  );

  it(
    'built-bridge: the bundle shows the grid and its daemon links up',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('built-bridge');
      expect(details.gridShown).toBe(true);
      expect(details.linked).toBe(true);
    },
  );

  it('hub-scale: every open reaches its light bridge', { timeout: QUICK_TIMEOUT_MS }, async () => {
    const { details } = await quick('hub-scale');
    expect(details.failures).toBe(0);
    expect(details.openBridges).toBe(20);
  });

  it('reconnect-storm: every bridge comes back, no 5xx', { timeout: QUICK_TIMEOUT_MS }, async () => {
    const { details } = await quick('reconnect-storm');
    expect(details.back).toBe(20);
    expect(details.serverErrors).toBe(0);
  });

  it(
    'command-round-trip: every open is executed by the controller',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('command-round-trip');
      expect(details.failures).toBe(0);
      expect(details.controllerOpens).toBe(2 * (10 + 5));
    },
  );

  it(
    'offline-replay: everything delivered, in order, none twice',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('offline-replay');
      expect(details).toMatchObject({ missing: 0, duplicates: 0, inOrder: true, leftInBuffer: 0 });
    },
  );

  it('page-weight: /vicolo loads no admin code and no jspdf', { timeout: QUICK_TIMEOUT_MS }, async () => {
    const { details } = await quick('page-weight');
    expect(details.adminOrPdfMarkers).toBe('none');
  });

  it(
    'lighthouse: audits /vicolo in the system Chromium with every category scored',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details, figure } = await quick('lighthouse');
      expect(figure).toBeGreaterThan(0);
      expect(details['/vicolo']).toMatch(
        /^performance \d+, accessibility \d+, best practices \d+, SEO \d+, LCP [\d.]+ s$/,
      );
    },
  );

  it(
    'steady-load: visitors hold, pay and cancel without a failed request',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('steady-load');
      expect(details.firstError).toBe('none');
      expect(details.errors).toBe(0);
      expect(details.paid).toBeGreaterThan(0);
    },
  );

  it(
    'takings: the online total is the distinct paid transactions',
    { timeout: QUICK_TIMEOUT_MS },
    async () => {
      const { details } = await quick('takings');
      expect(details.onlineTotalMatches).toBe(true);
      expect(details.pdfBytes).toBeGreaterThan(1000);
    },
  );
});
