import { defineConfig } from 'vitest/config';
import { testDatabaseUrl } from './scripts/support/test-database.ts';

// `npm run test:bench-smoke`: every benchmark of `npm run bench` in its quick mode, proving each one
// still works. It builds the web app and starts real servers and Chromium, so it runs on its own,
// outside the unit suite; .ci/run calls it.
process.env.TEST_DATABASE_URL = testDatabaseUrl();

export default defineConfig({
  test: {
    name: 'bench-smoke',
    root: '.',
    environment: 'node',
    include: ['scripts/bench.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
  },
});
