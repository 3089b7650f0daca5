// A locker site for the bridge hub's tests: the edge bridge's own controller simulator and daemon,
// each run as a real process through the `edge-bridge` CLI, plus a cloud wired with a fast hub.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Logger } from 'pino';
import { afterAll, beforeAll, expect, vi } from 'vitest';
import WebSocket from 'ws';
import { upgradeStatus } from '@deposito/protocol/test/bridge-upgrade';
import { createApp, type CloudApp } from '../src/app';
import { bookCommandId } from '../src/bridge-hub/booking-commands';
import { setBridgeToken } from '../src/bridge-hub/bridge-token';
import type { Clock } from '../src/clock';
import type { BridgeHubTuning } from '../src/composition';
import { REPO_ROOT, loadEnv, type DatabaseTarget } from '../src/env';
import { hashSessionToken, newSessionToken } from '../src/auth/session-token';
import type { BridgeHub } from '../src/bridge-hub/bridge-hub';
import type { BookingRecord, NewBooking } from '../src/store/booking.repository';
import type { Store } from '../src/store/store';
import { buildBooking, buildLocation } from './builders';
import { edgeBridgeNodeArgs } from './edge-bridge-cli';
import { silentLogger } from './test-app';
import { closeTestStore, openTestStore, type StoreDialect, type TestDatabase } from './test-store';

export const SITE_LOCATION = 'testloc';
export const SITE_TOKEN = 'site-bridge-token-0123456789abcdef0123456789';

/** A child process whose output is kept for failure messages. */
class Child {
  output = '';
  readonly exited: Promise<number | null>;

  constructor(readonly process: ChildProcess) {
    process.stdout?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    process.stderr?.on('data', (chunk: Buffer) => (this.output += chunk.toString()));
    this.exited = new Promise((resolve) => process.once('exit', (code) => resolve(code)));
    running.add(this);
    void this.exited.then(() => running.delete(this));
  }

  async waitFor<T>(read: () => T | null, what: string, timeoutMs = 20_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const value = read();
      if (value !== null) return value;
      if (this.process.exitCode !== null) throw new Error(`${what}: process exited\n${this.output}`);
      if (Date.now() > deadline) throw new Error(`${what}: timed out\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  async stop(): Promise<void> {
    if (this.process.exitCode === null && this.process.signalCode === null) this.process.kill('SIGTERM');
    const timer = setTimeout(() => this.process.kill('SIGKILL'), 5_000);
    await this.exited;
    clearTimeout(timer);
  }
}

const running = new Set<Child>();
process.once('exit', () => {
  for (const child of running) child.process.kill('SIGKILL');
});

/** Node with `nodeArgs`, in the repository, quiet unless TEST_LOG_LEVEL says otherwise. */
function spawnNode(nodeArgs: string[], env: Record<string, string> = {}): Child {
  return new Child(
    spawn(process.execPath, nodeArgs, {
      cwd: REPO_ROOT,
      env: { ...process.env, LOG_LEVEL: process.env.TEST_LOG_LEVEL ?? 'warn', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    }),
  );
}

export interface SimulatedLockerView {
  number: number;
  size: 'standard' | 'large';
  occupancy: 'free' | 'booked' | 'inhibited' | 'unknown';
  doorOpen: boolean;
  booking?: { pin: string; from: string; to: string };
}

export interface SimulatorView {
  lockers: SimulatedLockerView[];
  stats: { requests: number; byOperation: Partial<Record<string, number>> };
}

/** `edge-bridge simulate-controller` in its own process, driven through its /_sim control API. */
export class SimulatorProcess {
  private constructor(
    private readonly child: Child,
    readonly url: string,
  ) {}

  static async start(options: { lockers: number; doorOpenMs?: number }): Promise<SimulatorProcess> {
    const child = spawnNode(
      edgeBridgeNodeArgs([
        'simulate-controller',
        '--port',
        '0',
        '--lockers',
        String(options.lockers),
        '--door-open-ms',
        String(options.doorOpenMs ?? 60_000),
      ]),
    );
    const url = await child.waitFor(
      () => /at (http:\/\/[^\s]+) \(key/.exec(child.output)?.[1] ?? null,
      'simulator start',
    );
    return new SimulatorProcess(child, url);
  }

  get port(): number {
    return Number(new URL(this.url).port);
  }

  async state(): Promise<SimulatorView> {
    return (await (await fetch(`${this.url}/_sim/state`)).json()) as SimulatorView;
  }

  async locker(number: number): Promise<SimulatedLockerView | undefined> {
    return (await this.state()).lockers.find((l) => l.number === number);
  }

  async operations(operation: string): Promise<number> {
    return (await this.state()).stats.byOperation[operation] ?? 0;
  }

  setDoor(locker: number, open: boolean): Promise<void> {
    return this.control('door', { locker, open });
  }

  setOccupancy(locker: number, occupancy: SimulatedLockerView['occupancy']): Promise<void> {
    return this.control('locker', { locker, occupancy });
  }

  setFault(
    fault: { kind: 'none' | 'fail' | 'drop' } | { kind: 'slow'; delayMs: number },
    operation?: string,
  ) {
    return this.control('fault', { ...fault, ...(operation ? { operation } : {}) });
  }

  /** Moves the controller's clock `ms` forward (never back), as if that time had passed. */
  advanceClock(ms: number): Promise<void> {
    return this.control('clock', { advanceMs: ms });
  }

  stop(): Promise<void> {
    return this.child.stop();
  }

  private async control(what: string, body: unknown): Promise<void> {
    const response = await fetch(`${this.url}/_sim/${what}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`simulator ${what}: ${response.status} ${await response.text()}`);
  }
}

export interface BridgeHealth {
  link: { up: boolean; state: string };
  controller: { lastSuccessAt: string | null };
  buffer: { depth: number; events: number; results: number };
  commands: Record<string, number>;
}

/** The status port in the daemon's state file; null until the file is there and written whole. */
function daemonHttpPort(stateFile: string): number | null {
  try {
    return (JSON.parse(readFileSync(stateFile, 'utf8')) as { httpPort: number }).httpPort;
  } catch {
    // Missing, or caught between its creation and its write (a loaded machine gets there).
    return null;
  }
}

/** `edge-bridge run` in its own process, configured by a file as a technician's `init` would write it. */
export class BridgeProcess {
  private constructor(
    private readonly child: Child,
    readonly dataDir: string,
    private readonly httpPort: number,
  ) {}

  static async start(options: {
    cloudUrl: string;
    controllerPort: number;
    token?: string;
    locationKey?: string;
    pollIntervalMs?: number;
    /** The config's `linkBackoff`: how long the link waits before it tries again. */
    linkBackoff?: Partial<Record<'baseMs' | 'capMs' | 'conflictMs' | 'firstConflictMs', number>>;
  }): Promise<BridgeProcess> {
    const dir = mkdtempSync(path.join(tmpdir(), 'deposito-bridge-'));
    const dataDir = path.join(dir, 'data');
    const configPath = path.join(dir, 'edge-bridge.config.json');
    writeFileSync(
      configPath,
      JSON.stringify({
        cloudUrl: options.cloudUrl,
        locationKey: options.locationKey ?? SITE_LOCATION,
        bridgeToken: options.token ?? SITE_TOKEN,
        controller: {
          recipient: '127.0.0.1',
          port: options.controllerPort,
          key: 'sim-key',
          mastercode: 'sim-master',
          timeoutMs: 3_000,
        },
        dataDir,
        http: { host: '127.0.0.1', port: 0 },
        pollIntervalMs: options.pollIntervalMs ?? 100,
        reconcileWindowMs: 2_000,
        ...(options.linkBackoff ? { linkBackoff: options.linkBackoff } : {}),
      }),
    );
    const child = spawnNode(edgeBridgeNodeArgs(['run']), { BRIDGE_CONFIG: configPath });
    const stateFile = path.join(dataDir, 'daemon.json');
    const httpPort = await child.waitFor(() => daemonHttpPort(stateFile), 'bridge start');
    return new BridgeProcess(child, dataDir, httpPort);
  }

  get output(): string {
    return this.child.output;
  }

  async health(): Promise<BridgeHealth> {
    return (await (await fetch(`http://127.0.0.1:${this.httpPort}/healthz`)).json()) as BridgeHealth;
  }

  /**
   * Resolves once a state poll that began after this call has succeeded, so every change the
   * controller had before the call is in the buffer. The bridge samples the lockers: a door opened
   * and closed between two polls leaves no event, so a test waits for this between such changes.
   */
  async polledSinceNow(timeoutMs = 15_000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    const lastSuccess = async () => {
      const at = (await this.health()).controller.lastSuccessAt;
      return at === null ? 0 : Date.parse(at);
    };
    // Polls run one after another: the second one to finish after `since` began after it.
    let since = Date.now();
    for (let finished = 0; finished < 2;) {
      const at = await lastSuccess();
      if (at > since) {
        since = at;
        finished += 1;
        continue;
      }
      if (Date.now() > deadline)
        throw new Error(`no successful state poll in ${timeoutMs} ms\n${this.output}`);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  /** Stops the process dead (SIGSTOP): its TCP connection stays open and says nothing, pongs included. */
  freeze(): void {
    this.child.process.kill('SIGSTOP');
  }

  thaw(): void {
    this.child.process.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    this.thaw();
    await this.child.stop();
    rmSync(path.dirname(this.dataDir), { recursive: true, force: true });
  }
}

/**
 * The network between a bridge and the cloud, as a TCP relay the test can cut: `cut()` drops every
 * connection through it at once and refuses new ones (the bridge keeps retrying) until `restore()`.
 */
export class CuttableLink {
  private readonly sockets = new Set<Socket>();
  private down = false;

  private constructor(
    private readonly server: Server,
    readonly url: string,
  ) {}

  /** Relays `http://127.0.0.1:<port>` (its `url`) to `target`'s host and port. */
  static async start(target: string): Promise<CuttableLink> {
    const { hostname, port } = new URL(target);
    let link: CuttableLink | null = null;
    const server = createServer((client) => {
      if (!link || link.down) {
        client.destroy();
        return;
      }
      const upstream = connect(Number(port), hostname);
      for (const [socket, other] of [
        [client, upstream],
        [upstream, client],
      ] as const) {
        link.sockets.add(socket);
        socket.on('error', () => other.destroy());
        socket.on('close', () => {
          link?.sockets.delete(socket);
          other.destroy();
        });
        socket.pipe(other);
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('relay has no port');
    link = new CuttableLink(server, `http://127.0.0.1:${address.port}`);
    return link;
  }

  cut(): void {
    this.down = true;
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
  }

  restore(): void {
    this.down = false;
  }

  async stop(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A cloud of its own (cloud/test/bridge-cloud-process.ts) on a PostgreSQL test schema. */
export class CloudProcess {
  private constructor(
    private readonly child: Child,
    readonly url: string,
  ) {}

  static async start(options: {
    connectionString: string;
    schema: string;
    hub?: BridgeHubTuning;
  }): Promise<CloudProcess> {
    const child = spawnNode(
      ['--import', 'tsx', path.join(REPO_ROOT, 'cloud', 'test', 'bridge-cloud-process.ts')],
      {
        BRIDGE_TEST_DATABASE_URL: options.connectionString,
        BRIDGE_TEST_SCHEMA: options.schema,
        BRIDGE_TEST_HUB_OPTIONS: JSON.stringify(options.hub ?? {}),
      },
    );
    const port = await child.waitFor(
      () => /^listening (\d+)$/m.exec(child.output)?.[1] ?? null,
      'cloud process start',
    );
    return new CloudProcess(child, `http://127.0.0.1:${port}`);
  }

  stop(): Promise<void> {
    return this.child.stop();
  }
}

/**
 * Fast timings so tests never wait long for a sweep. A bridge must answer each ping within a second
 * or be cut off: the pong crosses the bridge process's event loop, which on a loaded 2-core machine
 * can stall for several hundred milliseconds, and no test waits for a heartbeat. Another process's
 * connection counts for 5 s after its last heartbeat (a loaded machine delays timers too).
 */
export const FAST_HUB: BridgeHubTuning = {
  heartbeatMs: 1_000,
  pongTimeoutMs: 1_000,
  liveWindowMs: 5_000,
  helloTimeoutMs: 3_000,
  sweepMs: 200,
  resultPollMs: 200,
};

export interface HubCloud {
  cloud: CloudApp;
  /** The app's bridge hub. */
  hub: BridgeHub;
  url: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * A cloud with every area, its hub tuned by `hub`, its admin area using that hub for locker control.
 * `port` reuses a port (a cloud coming back after an outage).
 */
export async function startHubCloud(options: {
  store: Store;
  /** The database the store was opened on (PostgreSQL: the LISTEN session connects there). */
  target: DatabaseTarget;
  clock?: Clock;
  hub?: BridgeHubTuning;
  port?: number;
  /** False starts the app without its background jobs (the hub's heartbeat, sweep and LISTEN). */
  jobs?: boolean;
  /** Where the cloud logs (silent by default). */
  logger?: Logger;
}): Promise<HubCloud> {
  const env = loadEnv({
    DATABASE_URL: options.target.dialect === 'postgres' ? options.target.connectionString : 'sqlite::memory:',
    PORT: '0',
    PAYMENT_PROVIDER: 'sandbox',
    RATE_LIMITS: 'off',
  });
  const cloud = createApp({
    env: { ...env, database: options.target },
    store: options.store,
    clock: options.clock,
    logger: options.logger ?? silentLogger(),
    bridgeHub: { ...FAST_HUB, ...options.hub },
    // Suites may move the clock by hours between calls with one token.
    admin: { idleTimeoutMs: 24 * 60 * 60_000 },
  });
  const { url, port } = await cloud.start({
    port: options.port ?? 0,
    host: '127.0.0.1',
    jobs: options.jobs ?? true,
  });
  const { hub } = cloud.context.services.bridgeHub;
  await hub.whenStarted();
  return { cloud, hub, url, port, stop: () => cloud.stop() };
}

/**
 * The HTTP status of a bridge's upgrade to `/bridge` of the cloud at `url` with these headers (and
 * query), or 101 when the socket opened.
 */
export function bridgeUpgradeStatus(
  url: string,
  headers: Record<string, string>,
  query = '',
): Promise<number> {
  return upgradeStatus(new WebSocket(`${url.replace(/^http/, 'ws')}/bridge${query}`, { headers }));
}

/** Waits (15 s at most) until `hub` counts the test site online; the bridge's output says why not. */
export async function waitUntilSiteOnline(hub: BridgeHub, bridge: BridgeProcess): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await hub.isOnline(SITE_LOCATION))) throw new Error(`bridge not connected\n${bridge.output}`);
    },
    { timeout: 15_000, interval: 50 },
  );
}

/**
 * Stops what a suite started for its site, the bridge first, then the clouds, then the simulator;
 * a part never started (its suite's start failed earlier) is passed over.
 */
export async function stopSite(parts: {
  bridge?: BridgeProcess;
  clouds?: Array<{ stop(): Promise<unknown> } | undefined>;
  simulator?: SimulatorProcess;
}): Promise<void> {
  await parts.bridge?.stop();
  for (const cloud of parts.clouds ?? []) await cloud?.stop();
  await parts.simulator?.stop();
}

/** The test location with the simulator's lockers (1…n, every fourth one large) and the site's bridge token. */
export async function seedSite(store: Store, lockers: number, now = new Date()): Promise<void> {
  await store.locations.save(buildLocation({ key: SITE_LOCATION }), now);
  await store.locations.addLockers(
    SITE_LOCATION,
    Array.from({ length: lockers }, (_, i) => ({
      number: i + 1,
      size: (i + 1) % 4 === 0 ? ('large' as const) : ('standard' as const),
    })),
  );
  await setBridgeToken(store, SITE_LOCATION, SITE_TOKEN, now);
}

/** An administrator session straight in the store (login itself is the admin area's tests' business). */
export async function adminToken(store: Store, now = new Date()): Promise<string> {
  const email = `ops-${newSessionToken().slice(0, 8).toLowerCase()}@deposito.test`;
  const user = await store.adminUsers.create({ email, passwordHash: 'not-used-for-login' }, now);
  if (!user) throw new Error('could not create the test administrator');
  const token = newSessionToken();
  await store.adminUsers.createSession(
    { tokenHash: hashSessionToken(token), userId: user.id, expiresAt: new Date(now.getTime() + 3600_000) },
    now,
  );
  return token;
}

/** JSON over real HTTP with an optional bearer token. */
export async function callJson<T = unknown>(
  url: string,
  method: string,
  pathname: string,
  options: { token?: string; body?: unknown } = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(`${url}${pathname}`, {
    method,
    headers: {
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: (text ? JSON.parse(text) : undefined) as T };
}

/**
 * A suite's site: its cloud (the HubCloud's own fields), the store and database under it, an
 * administrator's token, the controller simulator and, once started, the bridge.
 */
export interface TestSite extends HubCloud {
  database: TestDatabase;
  store: Store;
  token: string;
  simulator: SimulatorProcess;
  /** Unset until the suite (or `bridge: true`) starts it; a suite may replace it. */
  bridge: BridgeProcess;
}

/**
 * Before the suite's tests: a fresh database of `dialect` seeded with the test site of `lockers`
 * lockers, an administrator, the controller simulator and a cloud with the fast hub (`clock`, `hub`
 * passed on); with `bridge`, also the site's bridge, waited for until the hub counts the site
 * online. After them, all of it stopped and thrown away. The answer is filled in before the tests.
 */
export function useTestSite(options: {
  dialect: StoreDialect;
  lockers: number;
  clock?: Clock;
  hub?: BridgeHubTuning;
  /** How long a door a command opened stays open in the simulator. */
  doorOpenMs?: number;
  /** Changes the seeded store before the cloud starts. */
  prepare?: (store: Store) => Promise<void>;
  bridge?: boolean;
}): TestSite {
  const site = {} as TestSite;
  beforeAll(async () => {
    const { database, store } = await openTestStore(options.dialect);
    Object.assign(site, { database, store });
    await seedSite(store, options.lockers);
    await options.prepare?.(store);
    site.token = await adminToken(store);
    site.simulator = await SimulatorProcess.start({
      lockers: options.lockers,
      doorOpenMs: options.doorOpenMs,
    });
    Object.assign(
      site,
      await startHubCloud({ store, target: database.target, clock: options.clock, hub: options.hub }),
    );
    if (options.bridge) await startSiteBridge(site);
  });
  afterAll(async () => {
    // Whatever the suite's start reached.
    const started: Partial<TestSite> = site;
    await stopSite({
      bridge: started.bridge,
      clouds: started.stop ? [site] : [],
      simulator: started.simulator,
    });
    await closeTestStore(started.store, started.database);
  });
  return site;
}

/** Starts the site's bridge (again) and waits until its hub counts the site online. */
export async function startSiteBridge(site: TestSite): Promise<void> {
  site.bridge = await BridgeProcess.start({ cloudUrl: site.url, controllerPort: site.simulator.port });
  await waitUntilSiteOnline(site.hub, site.bridge);
}

/**
 * A booking at the test site on `lockerNumbers`, straight in the store: confirmed and no longer a
 * hold unless `booking` says otherwise. Throws when the lockers are not free.
 */
export async function reserveAtSite(
  store: Store,
  lockerNumbers: number[],
  booking: Partial<NewBooking> & Pick<NewBooking, 'startAt' | 'endAt'>,
): Promise<BookingRecord> {
  const reserved = await store.bookings.reserveLockers({
    booking: buildBooking({ locationKey: SITE_LOCATION, status: 'confirmed', expiresAt: null, ...booking }),
    maxOnline: 100,
    now: new Date(),
    lockerNumbers,
  });
  if (!reserved.ok) throw new Error(`reservation failed: ${reserved.reason}`);
  return reserved.booking;
}

/** Waits until the site's controller holds `pin` on `locker` and the booking's command for it succeeded. */
export async function expectPinProgrammed(
  site: Pick<TestSite, 'simulator' | 'store'>,
  transactionId: string,
  locker: number,
  pin: string,
): Promise<void> {
  await expect
    .poll(async () => (await site.simulator.locker(locker))?.booking?.pin, { timeout: 10_000 })
    .toBe(pin);
  await expect
    .poll(async () => (await site.store.bridge.getCommand(bookCommandId(transactionId, locker)))?.status)
    .toBe('succeeded');
}
