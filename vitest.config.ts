import { defineConfig } from 'vitest/config';

// Tests that need PostgreSQL read DATABASE_URL; on this project's machines it is the local server.
process.env.TEST_DATABASE_URL ??= process.env.DATABASE_URL?.startsWith('postgres')
  ? process.env.DATABASE_URL
  : 'postgres://postgres@127.0.0.1:5432/test';

// Polling assertions wait for real processes (bridges, simulators, PostgreSQL NOTIFY); on a loaded
// 2-core CI machine one second is not enough, and a generous ceiling costs nothing when they pass.
const expectPoll = { poll: { timeout: 15_000, interval: 50 } };

export default defineConfig({
  test: {
    expect: expectPoll,
    projects: [
      {
        test: {
          name: 'protocol',
          root: './protocol',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          // Some rule tests sweep every minute of DST days: fast alone, slow on a loaded CI machine.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'cloud',
          root: './cloud',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          expect: expectPoll,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'edge-bridge',
          root: './edge-bridge',
          environment: 'node',
          include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
          expect: expectPoll,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          root: './web',
          environment: 'jsdom',
          testTimeout: 30_000,
          include: ['src/**/*.test.{ts,tsx}'],
          setupFiles: ['./test/setup.ts'],
        },
      },
      {
        test: {
          name: 'scripts',
          root: './scripts',
          environment: 'node',
          include: ['**/*.test.ts'],
          // The benchmarks' quick runs have their own command (`npm run test:bench-smoke`, in CI).
          exclude: ['**/node_modules/**', 'bench.test.ts'],
          testTimeout: 60_000,
        },
      },
    ],
  },
});
