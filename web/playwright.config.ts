import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { defineConfig, devices } from '@playwright/test';
import { E2E_RUN, E2E_VISITOR } from './e2e/support/run-defaults';
import { freePortRange } from './e2e/support/free-ports';
import { runFilesFor } from './e2e/support/run-files';
import { VISITOR_SCREENS } from './e2e/support/visitor-screens';

// End-to-end tests drive the system Chromium against the real cloud: it is built and started here
// (demo data, sandbox payments, a fresh SQLite file), so `npx playwright test` needs nothing else.
// E2E_BASE_URL points the tests at a cloud that is already running instead.

/** A port nothing listens on, found once: the workers inherit it through the environment. */
function freePort(): string {
  return execFileSync(process.execPath, [
    '-e',
    "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{process.stdout.write(String(s.address().port));s.close()})",
  ]).toString();
}

process.env.E2E_PORT ??= freePort();
const port = process.env.E2E_PORT;
// The demo sites' controllers and kiosks (one port each, in seed order) on free ports too, so the
// kiosk simulators of admin-takings never meet a running `npm start`; a cloud of one's own
// (E2E_BASE_URL) keeps the seed's ports from 11000.
process.env.E2E_SITE_PORT ??= process.env.E2E_BASE_URL ? '11000' : String(freePortRange(6));
/** This run's files in the temporary folder: `<run>.db` and `<run>-outbox/` (a day later, gone). */
const runFiles = runFilesFor(port);
// A fresh demo database per run, so holds from an earlier run never block this one.
process.env.E2E_DATABASE ??= `${runFiles}.db`;
// Its e-mails in a folder of this run too (e2e/support/outbox.ts reads it): a test looking for an
// e-mail never finds one of an earlier run, and `npm start`'s data/outbox gets none of them. A cloud
// of one's own (E2E_BASE_URL) writes to its own MAIL_OUTBOX_DIR: name it in E2E_OUTBOX_DIR.
process.env.E2E_OUTBOX_DIR ??= process.env.E2E_BASE_URL
  ? fileURLToPath(new URL('../data/outbox/', import.meta.url))
  : `${runFiles}-outbox`;
const baseURL = process.env.E2E_BASE_URL ?? `http://127.0.0.1:${port}`;

/** The customer pages against the browser's own mock of the API: nothing they do reaches the cloud. */
const mockedSpecs = '**/*.mocked.spec.ts';

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  ...E2E_RUN,
  // Two at a time: the specs against the real cloud one after another in their project (they change
  // its global settings: maintenance, block windows), the mocked ones alongside them.
  workers: 2,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  use: { ...E2E_VISITOR, baseURL },
  projects: [
    {
      // The customer specs at both of the visitors' screens (onEveryVisitorScreen), the admin area at
      // desktop size (its own specs open the other sizes they check).
      name: 'cloud',
      testMatch: '**/*.cloud.spec.ts',
      workers: 1,
      use: { ...devices['Desktop Chrome'], viewport: VISITOR_SCREENS[1].viewport },
    },
    ...VISITOR_SCREENS.map((screen) => ({
      name: screen.name,
      testMatch: mockedSpecs,
      use: { ...devices['Desktop Chrome'], viewport: screen.viewport },
    })),
  ],
  webServer: process.env.E2E_BASE_URL
    ? undefined
    : {
        command: 'npm run build -w web && node --import tsx cloud/src/main.ts',
        cwd: '..',
        url: `${baseURL}/healthz`,
        env: {
          DEMO: '1',
          PORT: port,
          DEMO_SITE_PORT: process.env.E2E_SITE_PORT,
          PUBLIC_URL: baseURL,
          DATABASE_URL: `sqlite:${process.env.E2E_DATABASE}`,
          MAIL_OUTBOX_DIR: process.env.E2E_OUTBOX_DIR,
          PAYMENT_PROVIDER: 'sandbox',
          LOG_LEVEL: 'warn',
          // Every test browser is 127.0.0.1: the abuse limits are tested in the cloud's own suites.
          RATE_LIMITS: 'off',
          // The administrator the tests log in as (settings through the admin API, admin screens).
          ADMIN_EMAIL: 'e2e-admin@deposito.test',
          ADMIN_PASSWORD: 'e2e-admin-password',
        },
        reuseExistingServer: false,
        timeout: 120_000,
        stdout: 'ignore',
        stderr: 'pipe',
      },
});
