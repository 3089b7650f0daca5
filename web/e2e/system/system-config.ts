import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig, devices, type PlaywrightTestConfig } from '@playwright/test';
import { E2E_RUN, E2E_VISITOR } from '../support/run-defaults';
import { E2E_ADMIN } from '../support/cloud-control';
import { freePortRange } from '../support/free-ports';
import { runFilesFor } from '../support/run-files';

// The whole-business story runs against the real start commands (`npm start`, `npm run cluster`),
// each on a fresh data folder, so what is tested is what a developer or an operator runs.

/** `npm start` and `npm run cluster` run a demo site for each of the six seed locations. */
const DEMO_SITES = 6;

export interface SystemPorts {
  /** The cloud's public port (`npm run cluster`: the balancer's; the processes take the next ones). */
  cloud: number;
  /** The first demo site's controller and kiosk port, one per seed location in seed order. */
  site: number;
  /** The first demo site's bridge status port (/healthz), one per seed location in seed order. */
  bridgeStatus: number;
}

/**
 * Free ports for the whole run, found once in the main process: the workers load this config again
 * and inherit the environment, so they use the same ones. Never fixed ports, so the story also runs
 * while `npm start` is up.
 */
export function systemPorts(cloudPorts: number): SystemPorts {
  process.env.E2E_SYSTEM_PORTS ??= JSON.stringify({
    cloud: freePortRange(cloudPorts),
    site: freePortRange(DEMO_SITES),
    bridgeStatus: freePortRange(DEMO_SITES),
  } satisfies SystemPorts);
  return JSON.parse(process.env.E2E_SYSTEM_PORTS) as SystemPorts;
}

export function systemConfig(options: {
  name: string;
  command: string;
  ports: SystemPorts;
  env?: Record<string, string>;
}): PlaywrightTestConfig {
  const { ports } = options;
  // The story finds its site's controller and bridge from these; the workers inherit them.
  process.env.E2E_SITE_PORT = String(ports.site);
  process.env.E2E_BRIDGE_STATUS_PORT = String(ports.bridgeStatus);
  // One data folder for the run: the workers load this config again and find the main process's.
  const dataDir = runFilesFor(options.name);
  mkdirSync(dataDir, { recursive: true });
  const baseURL = `http://localhost:${ports.cloud}`;
  return defineConfig({
    testDir: '.',
    testMatch: '**/*.system.spec.ts',
    outputDir: join(dataDir, 'test-results'),
    ...E2E_RUN,
    timeout: 90_000,
    expect: { timeout: 15_000 },
    use: { ...devices['Desktop Chrome'], ...E2E_VISITOR, baseURL, viewport: { width: 1280, height: 800 } },
    projects: [{ name: options.name }],
    webServer: {
      command: options.command,
      cwd: '../../..',
      // Ready when the last demo site's bridge answers: the cloud answers /healthz before the
      // sites and their bridges are up, and the story needs them.
      url: `http://127.0.0.1:${ports.bridgeStatus + DEMO_SITES - 1}/healthz`,
      timeout: 240_000,
      reuseExistingServer: false,
      // What the start command says (each step, a site it could not start) is in the test's output.
      stdout: 'pipe',
      stderr: 'pipe',
      gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
      env: {
        PORT: String(ports.cloud),
        DEMO_SITE_PORT: String(ports.site),
        DEMO_BRIDGE_STATUS_PORT: String(ports.bridgeStatus),
        DEPOSITO_DATA_DIR: dataDir,
        ADMIN_EMAIL: E2E_ADMIN.email,
        ADMIN_PASSWORD: E2E_ADMIN.password,
        LOG_LEVEL: 'warn',
        // Its own database, whatever DATABASE_URL the shell has: CI exports PostgreSQL's shared
        // `test` database, which an earlier run left seeded with other bridge tokens, so the demo
        // bridges were refused and the story timed out waiting for them. The cluster sets its own.
        DATABASE_URL: `sqlite:${join(dataDir, 'deposito.db')}`,
        ...options.env,
      },
    },
  });
}
