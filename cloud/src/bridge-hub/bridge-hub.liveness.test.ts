import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { BRIDGE_CLOSE_CODES, bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import { buildEmptyHello } from '../../test/builders';
import {
  adminToken,
  BridgeProcess,
  callJson,
  CloudProcess,
  CuttableLink,
  seedSite,
  SimulatorProcess,
  SITE_LOCATION,
  SITE_TOKEN,
  startHubCloud,
  waitUntilSiteOnline,
  type HubCloud,
} from '../../test/bridge-site';
import {
  createTestDatabase,
  STORE_DIALECTS,
  testPostgresUrl,
  type TestDatabase,
} from '../../test/test-store';
import type { BridgeHubTuning } from '../composition';
import type { Store } from '../store/store';
import { DUPLICATE_BRIDGE_LOG_TYPE, type BridgeHub } from './bridge-hub';

// Issue 19: a site is online only on evidence (a socket answering pings on this process, or a
// connection of a process that is still heartbeating); an open the operator was told timed out
// never runs afterwards; a second bridge with the same token is refused, not given the site.

const LOCKERS = 6;

type ErrorAnswer = { error: { code: string; details?: { commandId?: string } } };

interface Site {
  database: TestDatabase;
  store: Store;
  token: string;
  cloud: HubCloud | null;
  bridges: BridgeProcess[];
  simulators: SimulatorProcess[];
}

async function openSite(dialect: (typeof STORE_DIALECTS)[number]): Promise<Site> {
  const database = await createTestDatabase(dialect);
  const store = await database.open();
  await seedSite(store, LOCKERS);
  return { database, store, token: await adminToken(store), cloud: null, bridges: [], simulators: [] };
}

async function closeSite(site: Site | undefined): Promise<void> {
  if (!site) return;
  await Promise.all(site.bridges.map((bridge) => bridge.stop()));
  await site.cloud?.stop();
  await Promise.all(site.simulators.map((simulator) => simulator.stop()));
  await site.store.close();
  await site.database.dispose();
}

async function startCloud(site: Site, hub: BridgeHubTuning = {}): Promise<HubCloud> {
  site.cloud = await startHubCloud({ store: site.store, target: site.database.target, hub });
  return site.cloud;
}

const hubOf = (cloud: HubCloud): BridgeHub => cloud.hub;

/**
 * The site of a describe block: a SQLite store and a cloud tuned with `hub`, started before the
 * block's tests and closed after them, with the bridges and simulators added to it.
 */
function siteWithCloud(hub: BridgeHubTuning): Site {
  const site = {} as Site;
  let opened: Site | undefined;
  beforeAll(async () => {
    opened = await openSite('sqlite');
    Object.assign(site, opened);
    await startCloud(site, hub);
  });
  afterAll(() => closeSite(opened && site));
  return site;
}

/** A controller simulator for `site`, stopped with it; its doors stay open, so no open is lost to a closing one. */
async function addSimulator(site: Site): Promise<SimulatorProcess> {
  const simulator = await SimulatorProcess.start({ lockers: LOCKERS, doorOpenMs: 3600_000 });
  site.simulators.push(simulator);
  return simulator;
}

async function startBridge(
  site: Site,
  simulator: SimulatorProcess,
  linkBackoff?: Parameters<typeof BridgeProcess.start>[0]['linkBackoff'],
): Promise<BridgeProcess> {
  const bridge = await BridgeProcess.start({
    cloudUrl: site.cloud!.url,
    controllerPort: simulator.port,
    linkBackoff,
  });
  site.bridges.push(bridge);
  return bridge;
}

function open(site: Site, lockerId: number) {
  return callJson<ErrorAnswer & { outcome?: string; commandId?: string }>(
    site.cloud!.url,
    'POST',
    '/api/lockers/open',
    { token: site.token, body: { location: SITE_LOCATION, lockerId } },
  );
}

/**
 * A bridge's socket by hand: says hello (with `features`, stamped on a clock `clockAheadMs` ahead of
 * the real one) unless `hello` is false, records what the hub sends (and when it arrived) and how it
 * closes.
 */
async function handBridge(
  url: string,
  options: { features?: string[]; autoPong?: boolean; clockAheadMs?: number; hello?: boolean } = {},
) {
  const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/bridge`, {
    headers: bridgeAuthHeaders(SITE_TOKEN, SITE_LOCATION),
    autoPong: options.autoPong ?? true,
  });
  const received: unknown[] = [];
  const arrivals: number[] = [];
  socket.on('message', (data: Buffer) => {
    received.push(JSON.parse(data.toString('utf8')));
    arrivals.push(Date.now());
  });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
  });
  if (options.hello !== false) {
    socket.send(
      JSON.stringify({
        ...buildEmptyHello(SITE_LOCATION, 'by-hand', options.features),
        sentAt: new Date(Date.now() + (options.clockAheadMs ?? 0)).toISOString(),
      }),
    );
  }
  return { socket, received, arrivals, closed };
}

/**
 * Keeps the controller busy with a slow booking (one request at a time), so an open sent now waits
 * behind it; the number of doors opened so far.
 */
async function busyWithSlowBooking(
  site: Site,
  simulator: SimulatorProcess,
  delayMs: number,
  pin: string,
): Promise<number> {
  await simulator.setFault({ kind: 'slow', delayMs }, 'book');
  const booksBefore = await simulator.operations('book');
  const now = Date.now();
  await hubOf(site.cloud!).issue({
    locationKey: SITE_LOCATION,
    op: 'book',
    lockerId: 5,
    params: { pin, from: new Date(now - 60_000).toISOString(), to: new Date(now + 3600_000).toISOString() },
  });
  await expect.poll(() => simulator.operations('book')).toBe(booksBefore + 1);
  return simulator.operations('open');
}

describe.each(STORE_DIALECTS)('a connection left by a crashed cloud process (%s)', (dialect) => {
  let site: Site;
  let simulator: SimulatorProcess;

  beforeAll(async () => {
    site = await openSite(dialect);
    simulator = await addSimulator(site);
  });

  afterEach(async () => {
    await Promise.all(site.bridges.splice(0).map((bridge) => bridge.stop()));
    await site.cloud?.stop();
    site.cloud = null;
  });

  afterAll(() => closeSite(site));

  /** The open is refused within 100 ms, and the bridge connecting afterwards never runs it. */
  async function expectRefusedNowAndNeverRun(lockerId: number): Promise<void> {
    // A first call of the route warms the app up, so the timing below is the refusal's own.
    expect((await open(site, 99)).status).toBe(404);
    const opensBefore = await simulator.operations('open');
    // Each try is refused; the fastest of three is the refusal's own time (a loaded test machine
    // can stall any one request past 100 ms, where a queued open would take the 4.5 s wait).
    let fastest = Infinity;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const started = performance.now();
      const answer = await open(site, lockerId);
      fastest = Math.min(fastest, performance.now() - started);
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('bridge/offline');
    }
    expect(fastest).toBeLessThan(100);

    const bridge = await startBridge(site, simulator);
    await expect.poll(() => hubOf(site.cloud!).isOnline(SITE_LOCATION), { timeout: 15_000 }).toBe(true);
    await bridge.polledSinceNow();
    expect(await simulator.operations('open')).toBe(opensBefore);
    expect((await simulator.locker(lockerId))?.doorOpen).toBe(false);
    expect((await site.store.bridge.openCommands(SITE_LOCATION, 100)).filter((c) => c.op === 'open')).toEqual(
      [],
    );
  }

  it('refuses an open at once when the row belongs to a process that stopped heartbeating', async () => {
    await startCloud(site);
    const now = Date.now();
    // Its last process heartbeat is 30 s old; its connection row was refreshed just before it died.
    await site.store.bridge.heartbeatProcess(
      {
        processId: 'crashed-elsewhere',
        host: 'cloud-elsewhere',
        pid: 4242,
        startedAt: new Date(now - 3600_000),
      },
      new Date(now - 30_000),
    );
    expect(
      await site.store.bridge.claimConnection(
        SITE_LOCATION,
        'crashed-elsewhere',
        '0.0.0',
        new Date(now),
        new Date(now - 60_000),
      ),
    ).toBe(true);
    await expectRefusedNowAndNeverRun(3);
  });

  it('removes the row of its own earlier life at start: the restarted process refuses the open at once', async () => {
    const now = Date.now();
    const earlierLife = `${hostname()}:${process.pid}:crashed`;
    // As fresh as a row can be: the process died a moment ago, on this host with this pid.
    await site.store.bridge.heartbeatProcess(
      { processId: earlierLife, host: hostname(), pid: process.pid, startedAt: new Date(now - 60_000) },
      new Date(now),
    );
    expect(
      await site.store.bridge.claimConnection(
        SITE_LOCATION,
        earlierLife,
        '0.0.0',
        new Date(now),
        new Date(now),
      ),
    ).toBe(true);
    expect(await site.store.bridge.liveConnection(SITE_LOCATION, new Date(now - 1_000))).not.toBeNull();

    await startCloud(site);
    await expectRefusedNowAndNeverRun(4);
  });
});

describe('a frozen bridge (TCP open, no pongs)', () => {
  // The hub's own rule for the pong's time and the live window (half a heartbeat, two heartbeats and
  // a pong), not the tests' fast ones; on a heartbeat of a second instead of five, so the test does
  // not wait seven seconds for the ping.
  const heartbeatMs = 1_000;
  const pongTimeoutMs = heartbeatMs / 2;
  const site = siteWithCloud({ heartbeatMs, pongTimeoutMs: undefined, liveWindowMs: undefined });

  it('is offline once it misses a pong, and an open is refused', async () => {
    const hub = hubOf(site.cloud!);
    const frozen = await handBridge(site.cloud!.url, { features: ['hello-ack'], autoPong: false });
    const helloAt = Date.now();
    // Accepted: a bridge listing hello-ack hears so.
    await expect.poll(() => frozen.received).toContainEqual({ type: 'hello-ack' });
    expect(await hub.isOnline(SITE_LOCATION)).toBe(true);

    await expect.poll(() => hub.isOnline(SITE_LOCATION), { timeout: 9_000, interval: 100 }).toBe(false);
    // A ping within a heartbeat, half of one for its pong, and a second's margin.
    expect(Date.now() - helloAt).toBeLessThan(heartbeatMs + pongTimeoutMs + 1_000);
    expect(await frozen.closed).toBe(1006);
    const answer = await open(site, 2);
    expect(answer.status).toBe(503);
    expect(answer.body.error.code).toBe('bridge/offline');
  });
});

describe('an open that timed out', () => {
  const site = siteWithCloud({ answerWithinMs: 1_000 });
  let simulator: SimulatorProcess;
  let bridge: BridgeProcess;

  beforeAll(async () => {
    simulator = await addSimulator(site);
    bridge = await startBridge(site, simulator);
    await waitUntilSiteOnline(hubOf(site.cloud!), bridge);
  });

  it('is cancelled: the operator gets 504 and the door never opens afterwards', async () => {
    const opensBefore = await busyWithSlowBooking(site, simulator, 2_500, '402918');

    const answer = await open(site, 2);
    expect(answer.status).toBe(504);
    expect(answer.body.error.code).toBe('bridge/timeout');
    const commandId = answer.body.error.details?.commandId;
    expect(commandId).toBeDefined();

    // The bridge dropped it and says so; the hub records that answer.
    await expect
      .poll(async () => (await site.store.bridge.getCommand(commandId!))?.result, { timeout: 10_000 })
      .toMatchObject({ status: 'EXPIRED', error: { code: 'command/cancelled' } });
    expect(await site.store.bridge.getCommand(commandId!)).toMatchObject({ status: 'expired' });
    await simulator.setFault({ kind: 'none' });
    await bridge.polledSinceNow();
    expect(await simulator.operations('open')).toBe(opensBefore);
    expect((await simulator.locker(2))?.doorOpen).toBe(false);
  });
});

describe('an open that timed out, on a bridge that stays silent', () => {
  const site = siteWithCloud({ answerWithinMs: 500 });

  it('is never sent again, and the bridge is told to cancel it, again after a reconnect', async () => {
    const hub = hubOf(site.cloud!);
    const first = await handBridge(site.cloud!.url, { features: ['hello-ack', 'cancel'] });
    await expect.poll(() => hub.connectedLocations()).toEqual([SITE_LOCATION]);

    const answer = await open(site, 3);
    expect(answer.status).toBe(504);
    expect(answer.body.error.code).toBe('bridge/timeout');
    const commandId = answer.body.error.details!.commandId!;
    await expect.poll(() => first.received).toContainEqual({ type: 'cancel', commandId });
    expect(await site.store.bridge.getCommand(commandId)).toMatchObject({
      status: 'expired',
      error: { code: 'bridge/cancelled' },
    });

    // The link drops and comes back: the cancel is repeated, the command is not resent.
    first.socket.close();
    await first.closed;
    await expect.poll(() => hub.connectedLocations()).toEqual([]);
    const again = await handBridge(site.cloud!.url, { features: ['hello-ack', 'cancel'] });
    await expect.poll(() => again.received).toContainEqual({ type: 'cancel', commandId });
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(again.received.filter((m) => (m as { type: string }).type === 'command')).toEqual([]);
    again.socket.close();
    await again.closed;
  });
});

describe('an open that timed out after the link to its bridge was cut', () => {
  // Answered after 2 s, cancelled 0.5 s before: time enough to cut the link first on a loaded host.
  const site = siteWithCloud({ answerWithinMs: 2_000 });
  let simulator: SimulatorProcess;
  let link: CuttableLink;
  let bridge: BridgeProcess;

  beforeAll(async () => {
    simulator = await addSimulator(site);
    link = await CuttableLink.start(site.cloud!.url);
    // Back as soon as the link is: the reconnect's backoff is not what this test is about.
    bridge = await BridgeProcess.start({
      cloudUrl: link.url,
      controllerPort: simulator.port,
      linkBackoff: { baseMs: 100, capMs: 500 },
    });
    site.bridges.push(bridge);
    await waitUntilSiteOnline(hubOf(site.cloud!), bridge);
  });

  // Runs before the site closes (after hooks run last registered first).
  afterAll(() => link?.stop());

  it('never opens the door afterwards: its deadline was the answer, and the bridge checks it itself', async () => {
    const opensBefore = await busyWithSlowBooking(site, simulator, 4_000, '730214');

    const answering = open(site, 2);
    // The bridge has stored the open (acked): the link goes down before any cancel can reach it.
    const received = async () =>
      (await site.store.bridge.openCommands(SITE_LOCATION, 100)).find(
        (c) => c.op === 'open' && c.lockerId === 2 && c.status === 'acked',
      );
    await expect.poll(received, { interval: 5, timeout: 1_400 }).toBeDefined();
    link.cut();

    const answer = await answering;
    expect(answer.status).toBe(504);
    expect(answer.body.error.code).toBe('bridge/timeout');
    const commandId = answer.body.error.details!.commandId!;

    // The booking ends and the open's turn at the controller comes and goes: it is not sent.
    await expect
      .poll(async () => (await simulator.locker(5))?.booking?.pin, { timeout: 10_000 })
      .toBe('730214');
    await simulator.setFault({ kind: 'none' });
    await bridge.polledSinceNow();
    expect(await simulator.operations('open')).toBe(opensBefore);
    expect((await simulator.locker(2))?.doorOpen).toBe(false);

    // Back online, the bridge reports why: its own deadline check, the cancel never reached it.
    link.restore();
    await expect
      .poll(async () => (await site.store.bridge.getCommand(commandId))?.result, { timeout: 20_000 })
      .toMatchObject({ status: 'EXPIRED', error: { code: 'command/expired' } });
    expect(await simulator.operations('open')).toBe(opensBefore);
  }, 60_000);
});

describe('an open the bridge had already sent when the cancel came', () => {
  const site = siteWithCloud({ answerWithinMs: 1_000 });

  it('is answered as it went, once the bridge says so before the deadline', async () => {
    const hub = hubOf(site.cloud!);
    const bridge = await handBridge(site.cloud!.url, { features: ['hello-ack', 'cancel'] });
    try {
      await expect.poll(() => hub.connectedLocations()).toEqual([SITE_LOCATION]);
      // As the real one answers a cancel for a command already at the controller: its result follows.
      bridge.socket.on('message', (data: Buffer) => {
        const message = JSON.parse(data.toString('utf8')) as { type: string; commandId?: string };
        if (message.type !== 'cancel') return;
        bridge.socket.send(
          JSON.stringify({
            type: 'result',
            seq: 1,
            commandId: message.commandId,
            op: 'open',
            ok: true,
            status: 'SUCCEEDED',
            attempts: 1,
            completedAt: new Date().toISOString(),
          }),
        );
      });

      const answer = await open(site, 5);
      expect(answer.status).toBe(200);
      expect(answer.body.outcome).toBe('executed');
      expect(bridge.received).toContainEqual({ type: 'cancel', commandId: answer.body.commandId });
      expect(await site.store.bridge.getCommand(answer.body.commandId!)).toMatchObject({
        status: 'succeeded',
      });
    } finally {
      bridge.socket.close();
      await bridge.closed;
    }
  });
});

describe('a command another cloud process added a moment before', () => {
  const site = siteWithCloud({ answerWithinMs: 1_000 });

  it("reaches the bridge before the one this process adds after it, without waiting for the other's NOTIFY", async () => {
    const hub = hubOf(site.cloud!);
    const bridge = await handBridge(site.cloud!.url, { features: ['hello-ack'] });
    try {
      await expect.poll(() => hub.connectedLocations()).toEqual([SITE_LOCATION]);
      // Another process takes the PIN off locker 4: in the outbox, its NOTIFY still on the way.
      const now = new Date();
      const takeOff = {
        id: `unbook-elsewhere-${now.getTime()}`,
        locationKey: SITE_LOCATION,
        op: 'unbook' as const,
        lockerId: 4,
        params: null,
        transactionId: null,
        issuedAt: now,
        expiresAt: new Date(now.getTime() + 3600_000),
      };
      expect(await site.store.bridge.insertCommand(takeOff)).toBe(true);
      // This process, which holds the site's socket, programs the next visitor's PIN after it.
      const { command: pin } = await hub.issue({
        locationKey: SITE_LOCATION,
        op: 'book',
        lockerId: 4,
        params: {
          pin: '284619',
          from: now.toISOString(),
          to: new Date(now.getTime() + 3600_000).toISOString(),
        },
      });
      const commandIds = () =>
        bridge.received.flatMap((m) =>
          (m as { type: string }).type === 'command' ? [(m as { id: string }).id] : [],
        );
      await expect.poll(commandIds).toContain(pin.id);
      expect(commandIds()).toEqual([takeOff.id, pin.id]);
    } finally {
      bridge.socket.close();
      await bridge.closed;
    }
  });
});

describe("an open's deadline on a bridge whose clock is off", () => {
  const site = siteWithCloud({ answerWithinMs: 1_000 });

  it.each([
    ['behind', -60_000],
    ['ahead', 60_000],
  ])(
    'falls, on a clock a minute %s, after the command arrives and no later than the answer',
    async (_, ahead) => {
      const hub = hubOf(site.cloud!);
      const skewed = await handBridge(site.cloud!.url, { features: ['hello-ack'], clockAheadMs: ahead });
      try {
        await expect.poll(() => hub.connectedLocations()).toEqual([SITE_LOCATION]);

        const answer = await open(site, 4);
        const answeredAt = Date.now();
        expect(answer.status).toBe(504);
        expect(answer.body.error.code).toBe('bridge/timeout');
        const at = skewed.received.findIndex((m) => (m as { type: string }).type === 'command');
        expect(at).toBeGreaterThanOrEqual(0);
        const command = skewed.received[at] as { id: string; expiresAt: string };
        expect(command.id).toBe(answer.body.error.details!.commandId);
        // Where the bridge's clock reads `expiresAt`, in real time.
        const deadline = Date.parse(command.expiresAt) - ahead;
        expect(deadline).toBeGreaterThan(skewed.arrivals[at]!);
        expect(deadline).toBeLessThanOrEqual(answeredAt);
      } finally {
        skewed.socket.close();
        await skewed.closed;
        await expect.poll(() => hub.connectedLocations()).toEqual([]);
      }
    },
  );
});

describe('two bridges with one token', () => {
  const site = siteWithCloud({});
  let first: SimulatorProcess;
  let second: SimulatorProcess;

  beforeAll(async () => {
    [first, second] = await Promise.all([addSimulator(site), addSimulator(site)]);
  });

  it('refuses the second with 4409 and one alert; it takes over only once the first stops answering', async () => {
    const hub = hubOf(site.cloud!);
    const alerts = async () =>
      (await site.store.errorLog.recent(50)).filter((entry) => entry.type === DUPLICATE_BRIDGE_LOG_TYPE);
    const bridgeOne = await startBridge(site, first);
    await expect.poll(() => hub.isOnline(SITE_LOCATION), { timeout: 15_000 }).toBe(true);

    // Retrying every second or less instead of after 5 to 10 s, then 30 to 60 s: it is refused on
    // each try while the first answers, and the test does not wait for the site's long pauses.
    const bridgeTwo = await startBridge(site, second, { firstConflictMs: 1_000, conflictMs: 1_000 });
    await expect
      .poll(async () => (await bridgeTwo.health()).link.state, { timeout: 15_000 })
      .toBe('conflict');
    // A third one in the same burst is refused too, without a second alert.
    const third = await handBridge(site.cloud!.url);
    expect(await third.closed).toBe(BRIDGE_CLOSE_CODES.replaced);
    await expect.poll(alerts).toHaveLength(1);
    // Still one, once the third's refusal has been handled too.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await alerts()).toHaveLength(1);
    expect((await alerts())[0]).toMatchObject({ locationKey: SITE_LOCATION });
    // The operators' alert (dashboard and e-mail): one for the burst.
    const shown = await callJson<Array<{ kind: string; locationKey: string }>>(
      site.cloud!.url,
      'GET',
      '/api/admin/alerts',
      { token: site.token },
    );
    expect(shown.status).toBe(200);
    expect(shown.body.filter((alert) => alert.kind === 'duplicate_bridge')).toEqual([
      expect.objectContaining({ locationKey: SITE_LOCATION }),
    ]);

    for (const lockerId of [1, 2, 3]) {
      const answer = await open(site, lockerId);
      expect(answer.status).toBe(200);
    }
    expect(await first.operations('open')).toBe(3);
    expect(await second.operations('open')).toBe(0);

    // The first box freezes: it misses its pong and the second one gets the site on its next try.
    bridgeOne.freeze();
    await expect.poll(async () => (await bridgeTwo.health()).link.state, { timeout: 20_000 }).toBe('open');
    await expect.poll(() => hub.isOnline(SITE_LOCATION), { timeout: 5_000 }).toBe(true);
    const answer = await open(site, 4);
    expect(answer.status).toBe(200);
    expect(await second.operations('open')).toBe(1);
    expect(await first.operations('open')).toBe(3);
  });
});

describe('two bridges with one token on two cloud processes (postgres)', () => {
  let site: Site;
  let simulator: SimulatorProcess;
  let holder: CloudProcess;

  beforeAll(async () => {
    site = await openSite('postgres');
    [simulator, holder] = await Promise.all([
      addSimulator(site),
      CloudProcess.start({ connectionString: testPostgresUrl(), schema: site.database.schema! }),
    ]);
    await startCloud(site);
  });

  afterAll(async () => {
    await holder?.stop();
    await closeSite(site);
  });

  it('refuses the second where the first answers its pings on the other process, and lets it in once it does not', async () => {
    const hub = hubOf(site.cloud!);
    const bridge = await BridgeProcess.start({ cloudUrl: holder.url, controllerPort: simulator.port });
    site.bridges.push(bridge);
    await expect.poll(() => hub.isOnline(SITE_LOCATION), { timeout: 15_000 }).toBe(true);

    const second = await handBridge(site.cloud!.url, { features: ['hello-ack'] });
    expect(await second.closed).toBe(BRIDGE_CLOSE_CODES.replaced);
    expect(second.received).toEqual([]);
    await expect
      .poll(async () =>
        (await site.store.errorLog.recent(50)).filter((e) => e.type === DUPLICATE_BRIDGE_LOG_TYPE),
      )
      .toHaveLength(1);
    expect((await open(site, 1)).status).toBe(200);
    expect((await simulator.locker(1))?.doorOpen).toBe(true);

    // Nor is anything taken from a socket before its hello: on this process, which does not hold the
    // site, a door report sent first was stored for the site as if its own bridge had sent it.
    const early = await handBridge(site.cloud!.url, { hello: false });
    const eventId = randomUUID();
    early.socket.send(
      JSON.stringify({
        type: 'event',
        id: eventId,
        seq: 1,
        occurredAt: new Date().toISOString(),
        lockerId: 5,
        kind: 'door',
        door: 'opened',
      }),
    );
    const closedWith = await Promise.race([
      early.closed,
      new Promise((resolve) => setTimeout(() => resolve('still open'), 5_000)),
    ]);
    expect(closedWith).toBe(1008);
    expect(early.received).toEqual([]);
    expect((await site.store.bridge.events(SITE_LOCATION, 500)).map((event) => event.id)).not.toContain(
      eventId,
    );

    // The first one freezes: the other process drops it after a missed pong, and a new one gets in.
    bridge.freeze();
    await expect.poll(() => hub.isOnline(SITE_LOCATION), { timeout: 10_000 }).toBe(false);
    const third = await handBridge(site.cloud!.url, { features: ['hello-ack'] });
    await expect.poll(() => third.received).toContainEqual({ type: 'hello-ack' });
    expect(hub.connectedLocations()).toEqual([SITE_LOCATION]);
    third.socket.terminate();
  });
});
