// Smoke test of `npm run bench`: every benchmark runs in its tiny quick mode and its correctness
// outcomes hold. Timings are the benchmarks' business, never asserted here.
import { afterAll, describe, expect, it } from 'vitest';
import { BENCHMARKS } from './bench/index';
import { removeWebBuildOfThisRun } from './bench/page-weight';
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

/** One benchmark's quick run, and what its result must show whatever its timings. */
function itRunsQuick(name: string, claim: string, check: (result: BenchResult) => void): void {
  it(`${name}: ${claim}`, { timeout: QUICK_TIMEOUT_MS }, async () => check(await quick(name)));
}

describe('benchmarks (quick mode)', () => {
  // page-weight and Lighthouse share one build of the web app; Vitest may kill this worker, not exit it.
  afterAll(removeWebBuildOfThisRun);

  it('lists each benchmark once', () => {
    const names = BENCHMARKS.map((b) => b.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toHaveLength(13);
  });

  itRunsQuick('availability-throughput', 'every availability call answers 200, computed', ({ details }) => {
    expect(details.failures).toBe(0);
    expect(details.everyCallComputed).toBe(true);
  });

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

  itRunsQuick('availability-latency', 'both stores answer the same, through indexes', ({ details }) => {
    expect(details.sameAnswer).toBe(true);
    expect(details.failures).toBe(0);
    expect(details.usesIndex).toBe(true);
  });

  itRunsQuick('built-bridge', 'the bundle shows the grid and its daemon links up', ({ details }) => {
    expect(details.gridShown).toBe(true);
    expect(details.linked).toBe(true);
  });

  itRunsQuick('hub-scale', 'every open reaches its light bridge', ({ details }) => {
    expect(details.failures).toBe(0);
    expect(details.openBridges).toBe(20);
  });

  itRunsQuick('reconnect-storm', 'every bridge comes back, no 5xx', ({ details }) => {
    expect(details.back).toBe(20);
    expect(details.serverErrors).toBe(0);
  });

  itRunsQuick('command-round-trip', 'every open is executed by the controller', ({ details }) => {
    expect(details.failures).toBe(0);
    expect(details.controllerOpens).toBe(2 * (10 + 5));
  });

  itRunsQuick('offline-replay', 'everything delivered, in order, none twice', ({ details }) => {
    expect(details).toMatchObject({ missing: 0, duplicates: 0, inOrder: true, leftInBuffer: 0 });
  });

  itRunsQuick('page-weight', '/vicolo loads no admin code and no jspdf', ({ details }) => {
    expect(details.adminOrPdfMarkers).toBe('none');
  });

  itRunsQuick(
    'lighthouse',
    'audits /vicolo in the system Chromium with every category scored',
    ({ details, figure }) => {
      expect(figure).toBeGreaterThan(0);
      expect(details['/vicolo']).toMatch(
        /^performance \d+, accessibility \d+, best practices \d+, SEO \d+, LCP [\d.]+ s$/,
      );
    },
  );

  itRunsQuick('steady-load', 'visitors hold, pay and cancel without a failed request', ({ details }) => {
    expect(details.firstError).toBe('none');
    expect(details.errors).toBe(0);
    expect(details.paid).toBeGreaterThan(0);
    // The paid bookings the gateway notified the cloud of are settled, not left holds.
    expect(details.paidReadBack).toMatch(/^([1-9]\d*) of \1 scheduled or confirmed$/);
  });

  itRunsQuick('takings', 'the online total is the distinct paid transactions', ({ details }) => {
    expect(details.onlineTotalMatches).toBe(true);
    expect(details.pdfBytes).toBeGreaterThan(1000);
  });
});
