// `npm run cluster`: the production shape on one machine — PostgreSQL, two (or CLUSTER_SIZE) cloud
// processes behind HAProxy (health-checked on /readyz, as in deploy/haproxy.cfg), and the demo sites, whose bridges connect
// to the processes in turn, so an operator's command often has to cross from one process to the
// other through PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { DEMO_FIRST_PORTS, startDemoSites } from './demo-sites';
import { startHaproxy } from './haproxy';
import { wholeNumberFromEnv } from './support/env-number';
import { REPO_ROOT as root } from './support/repo-root';
import { testDatabaseUrl } from './support/test-database';

export interface ClusterOptions {
  /** PostgreSQL URL of the cluster's database; created when missing. */
  databaseUrl: string;
  /** Drop and recreate the database first (tests: a fresh demo every run). */
  fresh?: boolean;
  /** The balancer's port; the cloud processes take the following ports. */
  port: number;
  size: number;
  adminEmail: string;
  adminPassword: string;
  /** Where logs and bridge buffers go. */
  dataDir: string;
  buildWeb?: boolean;
  log?: (line: string) => void;
  /** The first demo site's bridge status port (one per site after it); 8890 by default. */
  bridgeHttpPort?: number;
  /** Start the demo sites (controllers on the seed locations' ports, bridges); true by default. */
  demoSites?: boolean;
  /** The first demo site's port (DEMO_SITE_PORT, one per site after it); the seed's 11000… by default. */
  sitePort?: number;
  /** The abuse limits (RATE_LIMITS); tests booking in a loop through the balancer turn them off. */
  rateLimits?: 'on' | 'off';
}

export interface Cluster {
  url: string;
  processUrls: string[];
  stop(): Promise<void>;
  /** Restarts the cloud processes one at a time, each drained first (`SIGHUP` to `npm run cluster`). */
  rollingRestart(): Promise<void>;
}

async function ensureDatabase(databaseUrl: string, fresh: boolean): Promise<void> {
  const url = new URL(databaseUrl);
  const name = decodeURIComponent(url.pathname.slice(1));
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`unsupported database name "${name}"`);
  url.pathname = '/postgres';
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  try {
    if (fresh) await client.query(`drop database if exists ${name} with (force)`);
    const found = await client.query('select 1 from pg_database where datname = $1', [name]);
    if (found.rowCount === 0) await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
}

async function waitForHealth(url: string, child: ChildProcess, path = '/healthz'): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the cloud process for ${url} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}${path}`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer ${path} within 90 s`);
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => undefined);
  await ensureDatabase(options.databaseUrl, options.fresh ?? false);
  if (options.buildWeb !== false) {
    log('building the web app (web/dist)…');
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
      cwd: join(root, 'web'),
      stdio: 'inherit',
    });
    if (build.status !== 0) throw new Error('the web build failed');
  }
  const logDir = join(options.dataDir, 'logs');
  mkdirSync(logDir, { recursive: true });
  const url = `http://localhost:${options.port}`;
  // Every process must open the sandbox's sealed return parameters whichever one sealed them.
  const sandboxSecret = process.env.SANDBOX_PAYMENT_SECRET ?? randomBytes(32).toString('hex');
  const children: ChildProcess[] = [];
  const processUrls: string[] = [];
  const ports = Array.from({ length: options.size }, (_, i) => options.port + 1 + i);
  let balancer: Awaited<ReturnType<typeof startHaproxy>> | null = null;
  let sites: Awaited<ReturnType<typeof startDemoSites>> | null = null;

  const stop = async () => {
    await sites?.stop();
    await balancer?.stop();
    await Promise.all(
      children.map(
        (child) =>
          new Promise((resolve) => {
            if (child.exitCode !== null) return resolve(undefined);
            child.once('exit', resolve);
            child.kill('SIGTERM');
          }),
      ),
    );
  };

  const spawnCloud = (index: number): ChildProcess => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: join(root, 'cloud'),
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        PORT: String(ports[index]),
        DATABASE_URL: options.databaseUrl,
        PUBLIC_URL: url,
        DEMO: '1',
        DEMO_BRIDGE_TOKENS_DIR: join(options.dataDir, 'bridge-tokens'),
        ...(options.sitePort === undefined ? {} : { DEMO_SITE_PORT: String(options.sitePort) }),
        ADMIN_EMAIL: options.adminEmail,
        ADMIN_PASSWORD: options.adminPassword,
        SANDBOX_PAYMENT_SECRET: sandboxSecret,
        // HAProxy is the one hop in front: its X-Forwarded-For names the client.
        TRUST_PROXY: '1',
        RATE_LIMITS: options.rateLimits ?? 'on',
        // HAProxy checks /readyz every second and takes a process out after 2 failures.
        DRAIN_MS: '3000',
      },
    });
    const file = createWriteStream(join(logDir, `cloud-${index + 1}.log`), { flags: 'a' });
    child.stdout?.pipe(file);
    child.stderr?.pipe(file);
    children[index] = child;
    return child;
  };

  /** Stops each process in turn (SIGTERM: it drains) and starts it again, waiting until it is ready. */
  const rollingRestart = async () => {
    for (const index of ports.keys()) {
      const old = children[index]!;
      log(`restarting cloud process ${index + 1}…`);
      await new Promise((resolve) => {
        if (old.exitCode !== null) return resolve(undefined);
        old.once('exit', resolve);
        old.kill('SIGTERM');
      });
      const child = spawnCloud(index);
      await waitForHealth(processUrls[index]!, child, '/readyz');
      // HAProxy sends it requests again after its next successful check.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    }
  };

  try {
    // One after the other, so only the first seeds the empty database with demo data.
    for (const [index, port] of ports.entries()) {
      const processUrl = `http://localhost:${port}`;
      log(`starting cloud process ${index + 1} on ${processUrl}…`);
      await waitForHealth(processUrl, spawnCloud(index));
      processUrls.push(processUrl);
    }
    log(`starting HAProxy on ${url} in front of ${ports.length} processes…`);
    balancer = await startHaproxy({ port: options.port, backends: ports, dataDir: options.dataDir, log });
    // Bridges connect through HAProxy like any client, spread over the processes; a bridge whose
    // process restarts is back through another one within its backoff.
    if (options.demoSites === false) return { url, processUrls, stop, rollingRestart };
    sites = await startDemoSites({
      cloudUrl: () => url,
      dataDir: join(options.dataDir, 'bridges'),
      tokensDir: join(options.dataDir, 'bridge-tokens'),
      warn: log,
      bridgeHttpPort: options.bridgeHttpPort ?? 8890,
      sitePort: options.sitePort,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, processUrls, stop, rollingRestart };
}

/**
 * The cluster's database: DATABASE_URL when it names PostgreSQL; for the browser tests'
 * story (CLUSTER_TEST_DATABASE) that database on the tests' server; else the local server's.
 */
export function clusterDatabaseUrl(env: NodeJS.ProcessEnv): string {
  if (env.CLUSTER_TEST_DATABASE)
    return testDatabaseUrl(env).replace(/\/[^/]*$/, `/${env.CLUSTER_TEST_DATABASE}`);
  return env.DATABASE_URL?.startsWith('postgres')
    ? env.DATABASE_URL
    : 'postgres://postgres@127.0.0.1:5432/deposito_cluster';
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);
  const options: ClusterOptions = {
    databaseUrl: clusterDatabaseUrl(process.env),
    port: wholeNumberFromEnv('cluster', 'PORT', { min: 1, max: 65_500 }, 8080),
    size: wholeNumberFromEnv('cluster', 'CLUSTER_SIZE', { min: 1, max: 16 }, 2),
    adminEmail: process.env.ADMIN_EMAIL ?? 'admin@deposito.local',
    adminPassword: process.env.ADMIN_PASSWORD ?? 'deposito-demo',
    dataDir: process.env.DEPOSITO_DATA_DIR ?? join(root, 'data', 'cluster'),
    fresh: process.env.CLUSTER_FRESH === '1',
    bridgeHttpPort: wholeNumberFromEnv('cluster', 'DEMO_BRIDGE_STATUS_PORT', DEMO_FIRST_PORTS, undefined),
    sitePort: wholeNumberFromEnv('cluster', 'DEMO_SITE_PORT', DEMO_FIRST_PORTS, undefined),
    log: say,
  };
  try {
    const cluster = await startCluster(options);
    say(`HAProxy         ${cluster.url} → ${cluster.processUrls.join(', ')} (data/cluster/haproxy.cfg)`);
    say(`database        ${options.databaseUrl}`);
    say(`admin           ${cluster.url}/admin — ${options.adminEmail} / ${options.adminPassword}`);
    say(`logs            data/cluster/logs/cloud-N.log`);
    say('Press Ctrl-C to stop everything.');
    say('kill -HUP this process to restart the cloud processes one at a time.');
    const shutdown = () => void cluster.stop().then(() => process.exit(0));
    process.on('SIGHUP', () => {
      void cluster.rollingRestart().then(
        () => say('rolling restart done'),
        (error: unknown) => say(`rolling restart failed: ${String(error)}`),
      );
    });
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
