import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { E2E_ADMIN } from '../support/cloud-control';

// The whole-business story runs against the real start commands (`npm start`, `npm run cluster`),
// each on a fresh data folder, so what is tested is what a developer or an operator runs.

/** `npm start` and `npm run cluster` run a demo site for each of the six seed locations. */
const DEMO_SITES = 6;

export function systemConfig(options: {
  name: string;
  command: string;
  port: number;
  /** The first demo site's bridge status port (one per seed location, in seed order). */
  bridgeStatusPort: number;
  env?: Record<string, string>;
}): PlaywrightTestConfig {
  // The story waits for its site's bridge to be linked; the workers inherit this.
  process.env.E2E_BRIDGE_STATUS_PORT = String(options.bridgeStatusPort);
  const dataDir = mkdtempSync(join(tmpdir(), `deposito-${options.name}-`));
  const baseURL = `http://localhost:${options.port}`;
  return defineConfig({
    testDir: '.',
    testMatch: '**/*.system.spec.ts',
    outputDir: join(dataDir, 'test-results'),
    workers: 1,
    retries: 0,
    timeout: 90_000,
    expect: { timeout: 15_000 },
    reporter: [['list']],
    use: {
      baseURL,
      locale: 'it-IT',
      timezoneId: 'Europe/Rome',
      trace: 'retain-on-failure',
      ...devices['Desktop Chrome'],
      viewport: { width: 1280, height: 800 },
      launchOptions: {
        executablePath: '/usr/bin/chromium',
        args: [
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--disable-sync',
          '--no-first-run',
        ],
      },
    },
    projects: [{ name: options.name }],
    webServer: {
      command: options.command,
      cwd: '../../..',
      // Ready when the last demo site's bridge answers: the cloud answers /healthz before the
      // sites and their bridges are up, and the story needs them.
      url: `http://127.0.0.1:${options.bridgeStatusPort + DEMO_SITES - 1}/healthz`,
      timeout: 240_000,
      reuseExistingServer: false,
      stdout: 'ignore',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: {
        PORT: String(options.port),
        DEPOSITO_DATA_DIR: dataDir,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: 'warn',
        ...options.env,
      },
    },
  });
}
