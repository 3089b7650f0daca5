// `npm run cluster`: the production shape on one machine — PostgreSQL, two (or CLUSTER_SIZE) cloud
// processes behind a round-robin HTTP/WebSocket balancer, and the demo sites, whose bridges connect
// to the processes in turn, so an operator's command often has to cross from one process to the
// other through PostgreSQL.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type Server } from 'node:http';
import { connect } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { startDemoSites } from './demo-sites';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

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
}

export interface Cluster {
  url: string;
  processUrls: string[];
  stop(): Promise<void>;
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

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the cloud process for ${url} exited (${child.exitCode})`);
    try {
      if ((await fetch(`${url}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`${url} did not answer /healthz within 90 s`);
}

/** Round-robin balancer for HTTP requests and WebSocket upgrades (any HTTP balancer would do). */
function startBalancer(port: number, backends: number[]): Promise<Server> {
  let next = 0;
  const pick = () => backends[next++ % backends.length] as number;
  const server = createServer((req, res) => {
    const upstream = request(
      { host: '127.0.0.1', port: pick(), path: req.url, method: req.method, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502).end('cloud process unreachable');
      else res.destroy();
    });
    req.pipe(upstream);
  });
  server.on('upgrade', (req: IncomingMessage, socket, head) => {
    const backend = connect(pick(), '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      backend.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) backend.write(head);
      backend.pipe(socket).pipe(backend);
    });
    backend.on('error', () => socket.destroy());
    socket.on('error', () => backend.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
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
  let balancer: Server | null = null;
  let sites: Awaited<ReturnType<typeof startDemoSites>> | null = null;

  const stop = async () => {
    await sites?.stop();
    if (balancer) {
      balancer.closeAllConnections();
      await new Promise((resolve) => balancer?.close(resolve));
    }
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

  try {
    // One after the other, so only the first seeds the empty database with demo data.
    for (const [index, port] of ports.entries()) {
      const processUrl = `http://localhost:${port}`;
      log(`starting cloud process ${index + 1} on ${processUrl}…`);
      const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
        cwd: join(root, 'cloud'),
        stdio: ['ignore', 'pipe', 'pipe'],
        env: {
          ...process.env,
          PORT: String(port),
          DATABASE_URL: options.databaseUrl,
          PUBLIC_URL: url,
          DEMO: '1',
          ADMIN_EMAIL: options.adminEmail,
          ADMIN_PASSWORD: options.adminPassword,
          SANDBOX_PAYMENT_SECRET: sandboxSecret,
        },
      });
      const file = createWriteStream(join(logDir, `cloud-${index + 1}.log`), { flags: 'a' });
      child.stdout?.pipe(file);
      child.stderr?.pipe(file);
      children.push(child);
      await waitForHealth(processUrl, child);
      processUrls.push(processUrl);
    }
    balancer = await startBalancer(options.port, ports);
    // Bridges go straight to the processes in turn, not through the balancer, so that each process
    // holds some sockets and commands must cross processes.
    sites = await startDemoSites({
      cloudUrl: (index) => processUrls[index % processUrls.length] as string,
      dataDir: join(options.dataDir, 'bridges'),
      bridgeHttpPort: 8890,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return { url, processUrls, stop };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const say = (line: string) => process.stdout.write(`[cluster] ${line}\n`);
  const options: ClusterOptions = {
    databaseUrl: process.env.DATABASE_URL?.startsWith('postgres')
      ? process.env.DATABASE_URL
      : 'postgres://postgres@127.0.0.1:5432/deposito_cluster',
    port: Number(process.env.PORT ?? 8080),
    size: Number(process.env.CLUSTER_SIZE ?? 2),
    adminEmail: process.env.ADMIN_EMAIL ?? 'admin@deposito.local',
    adminPassword: process.env.ADMIN_PASSWORD ?? 'deposito-demo',
    dataDir: process.env.DEPOSITO_DATA_DIR ?? join(root, 'data', 'cluster'),
    fresh: process.env.CLUSTER_FRESH === '1',
    log: say,
  };
  try {
    const cluster = await startCluster(options);
    say(`balancer        ${cluster.url} → ${cluster.processUrls.join(', ')}`);
    say(`database        ${options.databaseUrl}`);
    say(`admin           ${cluster.url}/admin — ${options.adminEmail} / ${options.adminPassword}`);
    say(`logs            data/cluster/logs/cloud-N.log`);
    say('Press Ctrl-C to stop everything.');
    const shutdown = () => void cluster.stop().then(() => process.exit(0));
    process.on('SIGINT', shutdown);
    process.on('SIGTERM', shutdown);
  } catch (error) {
    say(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
