// `npm start`: build the web app, then run the whole business locally on the embedded defaults —
// the cloud on SQLite with demo data (serving the web app and the sandbox payment page) and, for
// every demo location, a controller simulator, a totem simulator and an edge bridge.
import { spawn, spawnSync } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DEMO_FIRST_PORTS, startDemoSites } from './demo-sites';
import { wholeNumberFromEnv } from './support/env-number';
import { REPO_ROOT as root } from './support/repo-root';

const port = wholeNumberFromEnv('deposito', 'PORT', { min: 1, max: 65_535 }, 8080);
const baseUrl = `http://localhost:${port}`;
// DEPOSITO_DATA_DIR moves everything the run writes (tests use a fresh temporary folder).
const dataDir = process.env.DEPOSITO_DATA_DIR ?? join(root, 'data');
const logDir = join(dataDir, 'logs');
// The cloud writes each demo bridge's random token here (one file per location, owner-only).
const bridgeTokensDir = join(dataDir, 'bridge-tokens');
const admin = {
  email: process.env.ADMIN_EMAIL ?? 'admin@deposito.local',
  password: process.env.ADMIN_PASSWORD ?? 'deposito-demo',
};

// The six demo sites listen from DEMO_SITE_PORT (the cloud seeds them there too; 11000 by default),
// their bridges' status servers from DEMO_BRIDGE_STATUS_PORT (8790 by default).
const sitePort = wholeNumberFromEnv('deposito', 'DEMO_SITE_PORT', DEMO_FIRST_PORTS, undefined);
const bridgeHttpPort = wholeNumberFromEnv('deposito', 'DEMO_BRIDGE_STATUS_PORT', DEMO_FIRST_PORTS, undefined);

function say(line: string): void {
  process.stdout.write(`[deposito] ${line}\n`);
}

say('building the web app (web/dist)…');
const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
  cwd: join(root, 'web'),
  stdio: 'inherit',
});
if (build.status !== 0) {
  say('the web build failed; see above');
  process.exit(1);
}

mkdirSync(logDir, { recursive: true });
const cloudLog = join(logDir, 'cloud.log');
const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(dataDir, 'deposito.db')}`;
say(`starting the cloud on ${baseUrl} (${databaseUrl}, logs in ${cloudLog})…`);
const cloud = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
  cwd: join(root, 'cloud'),
  stdio: ['ignore', 'pipe', 'pipe'],
  env: {
    ...process.env,
    DEMO: process.env.DEMO ?? '1',
    PORT: String(port),
    PUBLIC_URL: process.env.PUBLIC_URL ?? baseUrl,
    DATABASE_URL: databaseUrl,
    MAIL_OUTBOX_DIR: process.env.MAIL_OUTBOX_DIR ?? join(dataDir, 'outbox'),
    DEMO_BRIDGE_TOKENS_DIR: bridgeTokensDir,
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  },
});
const logFile = createWriteStream(cloudLog, { flags: 'a' });
cloud.stdout.pipe(logFile);
cloud.stderr.pipe(logFile);
cloud.stderr.on('data', (chunk: Buffer) => process.stderr.write(chunk));

let stopping = false;
let sites: Awaited<ReturnType<typeof startDemoSites>> | null = null;

async function stopAll(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  say('stopping…');
  await sites?.stop();
  if (cloud.exitCode === null) {
    cloud.kill('SIGTERM');
    await new Promise((resolve) => cloud.once('exit', resolve));
  }
  say('stopped');
  process.exit(code);
}
process.on('SIGINT', () => void stopAll(0));
process.on('SIGTERM', () => void stopAll(0));
cloud.on('exit', (code) => {
  if (stopping) return;
  say(`the cloud exited (${code ?? 'signal'}); see ${cloudLog}`);
  void stopAll(code ?? 1);
});

async function waitForCloud(): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    try {
      const answer = await fetch(`${baseUrl}/healthz`);
      if (answer.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`the cloud did not answer /healthz within 60 s; see ${cloudLog}`);
}

try {
  await waitForCloud();
  sites = await startDemoSites({
    cloudUrl: baseUrl,
    dataDir: join(dataDir, 'bridges'),
    tokensDir: bridgeTokensDir,
    warn: say,
    sitePort,
    bridgeHttpPort,
  });
} catch (error) {
  say(error instanceof Error ? error.message : String(error));
  await stopAll(1);
}

say('');
say('Deposito is running.');
say(`  customer pages   ${baseUrl}/  (e.g. ${baseUrl}/vicolo, night: ${baseUrl}/booking-notte/vicolo)`);
say(`  admin area       ${baseUrl}/admin  — ${admin.email} / ${admin.password}`);
say(`  payments         sandbox page; card 4242 4242 4242 4242 pays, 4000 0000 0000 0002 is declined`);
say(`  API reference    ${baseUrl}/api/docs`);
for (const site of sites?.sites ?? []) {
  say(
    `  site ${site.locationKey.padEnd(10)} controller+totem simulator 127.0.0.1:${site.controllerPort}, bridge status http://127.0.0.1:${site.bridgeHttpPort}/healthz`,
  );
}
say(`  bridge tokens    ${bridgeTokensDir}/<location>.token (random for this install; keep them secret)`);
say(`  data             ${dataDir} (database, mail outbox, bridge buffers, logs)`);
say('Press Ctrl-C to stop everything.');
