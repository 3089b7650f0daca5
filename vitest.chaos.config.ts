import { defineConfig } from 'vitest/config';
import { testDatabaseUrl } from './scripts/support/test-database.ts';

// `npm run test:chaos`: fault injection against real processes (kill -9 of the cloud, slow and hung
// controllers, bridge outages, a frozen bridge daemon), each scenario on SQLite and on PostgreSQL, and
// a rolling restart of two cloud processes behind HAProxy under load (PostgreSQL).
// Slower than the unit suite, so run on its own; .ci/run calls it.
process.env.TEST_DATABASE_URL = testDatabaseUrl();

export default defineConfig({
  test: {
    name: 'chaos',
    root: '.',
    environment: 'node',
    include: ['scripts/chaos/**/*.chaos.ts'],
    expect: { poll: { timeout: 15_000, interval: 100 } },
    testTimeout: 180_000,
    hookTimeout: 60_000,
    // Two files at a time. The scenarios mostly wait (a 60 s outage, liveness windows, commands'
    // deadlines): one at a time the run took 370 s; side by side 207 s with the 2 cores ~40 % busy
    // on average, and 215 s with 40 % of a core taken by something else (2026-11-28). Each starts
    // its own processes on free ports and has its own PostgreSQL database (cloud/test/test-store.ts).
    fileParallelism: true,
    maxWorkers: 2,
    // The bridge daemons run from one build of the edge bridge (cloud/test/edge-bridge-cli.ts).
    globalSetup: ['scripts/support/built-edge-bridge.ts'],
  },
});
