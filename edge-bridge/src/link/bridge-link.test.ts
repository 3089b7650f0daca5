import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BRIDGE_CLOSE_CODES } from '@deposito/protocol/bridge/v1';
import type { Clock } from '../clock';
import { BridgeLink, bridgeSocketUrl, DEFAULT_LINK_BACKOFF, fullJitterDelay } from './bridge-link';

const logger = pino({ level: 'silent' });

describe('fullJitterDelay', () => {
  it('stays between 0 and the capped exponential bound, never above 30 s', () => {
    expect(fullJitterDelay(0, DEFAULT_LINK_BACKOFF, () => 0)).toBe(0);
    expect(fullJitterDelay(0, DEFAULT_LINK_BACKOFF, () => 0.999_999)).toBe(999);
    expect(fullJitterDelay(3, DEFAULT_LINK_BACKOFF, () => 0.5)).toBe(4_000);
    expect(fullJitterDelay(20, DEFAULT_LINK_BACKOFF, () => 0.999_999)).toBe(29_999);
    expect(fullJitterDelay(5_000, DEFAULT_LINK_BACKOFF, () => 1 - Number.EPSILON)).toBeLessThan(30_000);
  });
});

/**
 * Moves time instead of waiting: a timer shorter than an hour fires at once (after a macrotask) and
 * the clock jumps ahead by its delay, which is recorded. Longer ones (the heartbeat here) never fire,
 * nor do any after the first `fireAtMost`, so the link then stays where it is.
 */
class FastClock implements Clock {
  readonly delays: number[] = [];
  private offset = 0;
  constructor(private readonly fireAtMost = Infinity) {}
  now = () => Date.now() + this.offset;
  setTimeout = (callback: () => void, ms: number) => {
    if (ms >= 3_600_000) return null;
    this.delays.push(ms);
    if (this.delays.length > this.fireAtMost) return null;
    return setTimeout(() => {
      this.offset += ms;
      callback();
    }, 0);
  };
  clearTimeout = (handle: unknown) => clearTimeout(handle as NodeJS.Timeout);
}

describe('bridgeSocketUrl', () => {
  it('maps the cloud URL to its /bridge WebSocket', () => {
    expect(bridgeSocketUrl('https://cloud.example.com')).toBe('wss://cloud.example.com/bridge');
    expect(bridgeSocketUrl('http://127.0.0.1:3000/')).toBe('ws://127.0.0.1:3000/bridge');
    expect(bridgeSocketUrl('https://example.com/deposito/?x=1')).toBe('wss://example.com/deposito/bridge');
  });
});

/** A cloud whose answer to each upgrade the test scripts. */
class ScriptedCloud {
  upgrades: number[] = [];
  private server: Server | null = null;
  private wss: WebSocketServer | null = null;
  port = 0;

  /** 'accept': open and say nothing; 'welcome': open and send hello-ack, as a hub that took the hello. */
  constructor(
    private readonly answer: (attempt: number) => number | 'accept' | 'welcome' | { closeWith: number },
  ) {}

  /** Listens on `port` (default: the previous one, so a restarted cloud is found at the same URL). */
  async start(port = this.port): Promise<string> {
    const wss = new WebSocketServer({ noServer: true });
    this.wss = wss;
    this.server = createServer();
    this.server.on('upgrade', (req, socket, head) => {
      // A bridge that gives up mid-answer resets the socket; Node leaves upgraded sockets without an
      // error listener, so (as the cloud's hub does) one is set here, or the reset is an uncaught error.
      socket.on('error', () => undefined);
      const attempt = this.upgrades.push(Date.now()) - 1;
      const answer = this.answer(attempt);
      if (typeof answer === 'number') {
        socket.end(`HTTP/1.1 ${answer} No\r\nConnection: close\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (answer === 'welcome') ws.send(JSON.stringify({ type: 'hello-ack' }));
        else if (answer !== 'accept') ws.close(answer.closeWith, 'scripted');
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return `http://127.0.0.1:${this.port}`;
  }

  /** Closes every open socket with `code`, as the cloud's hub does when it stops. */
  closeClients(code: number): void {
    for (const client of this.wss?.clients ?? []) client.close(code, 'scripted');
  }

  async stop(): Promise<void> {
    for (const client of this.wss?.clients ?? []) client.terminate();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

describe('BridgeLink', () => {
  const cleanup: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function connect(
    cloud: ScriptedCloud,
    extra: Partial<ConstructorParameters<typeof BridgeLink>[0]> = {},
  ) {
    const cloudUrl = await cloud.start();
    const link = new BridgeLink({
      cloudUrl,
      token: 't',
      locationKey: 'campo',
      logger,
      random: () => 0.999,
      backoff: { baseMs: 40, capMs: 2_000 },
      heartbeatMs: 3_600_000,
      ...extra,
    });
    cleanup.push(
      () => cloud.stop(),
      () => link.stop(),
    );
    link.start();
    return link;
  }

  it.each([401, 403])('stops for good when the upgrade is refused with HTTP %i', async (status) => {
    let refused: unknown = null;
    const cloud = new ScriptedCloud(() => status);
    const link = await connect(cloud, { onRefused: (info) => (refused = info) });
    await expect.poll(() => link.state).toBe('refused');
    expect(refused).toMatchObject({ status });
    expect(link.lastError).toMatch(new RegExp(`HTTP ${status}.*token`));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(cloud.upgrades).toHaveLength(1);
  });

  it('stops when the cloud closes with the unauthorized code', async () => {
    const cloud = new ScriptedCloud(() => ({ closeWith: BRIDGE_CLOSE_CODES.unauthorized }));
    const link = await connect(cloud);
    await expect.poll(() => link.state).toBe('refused');
    expect(cloud.upgrades).toHaveLength(1);
  });

  it('backs off exponentially while the cloud fails, and resets once the cloud accepts the hello', async () => {
    // Four failures (waits ~40, 80, 160, 320 ms), then a connection the cloud accepts (hello-ack),
    // then a close: the next wait is back to ~40 ms instead of ~640 ms. The waits are read from the
    // link's clock, which runs them at once: no real-time gaps for a loaded machine to stretch.
    const clock = new FastClock();
    let accepted = 0;
    const cloud = new ScriptedCloud((attempt) => (attempt < 4 ? 503 : 'welcome'));
    const link = await connect(cloud, {
      clock,
      onMessage: (m) => (accepted += m.type === 'hello-ack' ? 1 : 0),
    });
    await expect.poll(() => accepted, { timeout: 3_000 }).toBe(1);
    const waits = [...clock.delays];
    expect(waits).toHaveLength(4);
    for (let i = 1; i < waits.length; i += 1) expect(waits[i]!).toBeGreaterThan(waits[i - 1]! * 1.4);
    cloud.closeClients(1011);
    await expect.poll(() => accepted, { timeout: 3_000 }).toBe(2);
    expect(clock.delays[4]).toBeLessThanOrEqual(waits[0]!);
    expect(link.reconnects).toBe(5);
  });

  it('keeps backing off from a cloud that opens the socket but never accepts the hello', async () => {
    const clock = new FastClock();
    const cloud = new ScriptedCloud(() => ({ closeWith: 1011 }));
    const link = await connect(cloud, { clock });
    await expect.poll(() => cloud.upgrades.length, { timeout: 3_000 }).toBeGreaterThanOrEqual(5);
    const waits = clock.delays.slice(0, 4);
    for (let i = 1; i < waits.length; i += 1) expect(waits[i]!).toBeGreaterThan(waits[i - 1]! * 1.4);
    expect(link.isUp).toBe(false);
  });

  it('never waits more than 30 s between attempts, however long the cloud is away', async () => {
    const clock = new FastClock();
    const cloud = new ScriptedCloud(() => 503);
    await connect(cloud, { clock, backoff: DEFAULT_LINK_BACKOFF });
    await expect.poll(() => clock.delays.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(12);
    // 1, 2, 4, 8, 16 s bounds (random 0.999), then 30 s: never the minutes it used to reach.
    expect(clock.delays.slice(0, 6)).toEqual([999, 1_998, 3_996, 7_992, 15_984, 29_970]);
    expect(Math.max(...clock.delays)).toBeLessThanOrEqual(30_000);
  });

  it.each([
    ['close code 4409', { closeWith: BRIDGE_CLOSE_CODES.replaced }],
    ['HTTP 409', 409],
  ] as const)(
    'retries slowly and says why when another bridge holds the location (%s)',
    async (_label, answer) => {
      const clock = new FastClock(3);
      const lines: { level: number; msg: string }[] = [];
      const capture = new Writable({
        write(chunk: Buffer, _encoding, done) {
          lines.push(JSON.parse(chunk.toString()) as { level: number; msg: string });
          done();
        },
      });
      const cloud = new ScriptedCloud(() => answer);
      const link = await connect(cloud, {
        clock,
        backoff: DEFAULT_LINK_BACKOFF,
        logger: pino({ level: 'error' }, capture),
        random: () => 0.5,
      });
      await expect.poll(() => clock.delays.length, { timeout: 5_000 }).toBe(4);
      // The first retry soon (the held connection may be this bridge's own stale one), then every 45 s.
      expect(clock.delays.slice(0, 4)).toEqual([7_500, 45_000, 45_000, 45_000]);
      expect(link.state).toBe('conflict');
      expect(link.lastError).toMatch(/another bridge with the same token is connected for location campo/);
      expect(link.lastError).toMatch(/retrying every 60 s\./);
      expect(cloud.upgrades).toHaveLength(4);
      expect(lines).toHaveLength(4);
      expect(lines[0]).toMatchObject({ level: 50, msg: expect.stringMatching(/another bridge/) });
    },
  );

  it('is accepted only once the cloud answers on the connection, not when the socket opens', async () => {
    let answer: 'accept' | 'welcome' = 'accept';
    const cloud = new ScriptedCloud(() => answer);
    const link = await connect(cloud, { backoff: { baseMs: 10, capMs: 20 } });
    await expect.poll(() => link.isUp).toBe(true);
    // Open, and the cloud says nothing (it is still checking that another bridge holds the site).
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(link.isAccepted).toBe(false);
    answer = 'welcome';
    cloud.closeClients(1012);
    await expect.poll(() => link.isAccepted).toBe(true);
    expect(cloud.upgrades).toHaveLength(2);
  });

  it('says how often it retries a conflict even when that is under a second', async () => {
    const cloud = new ScriptedCloud(() => ({ closeWith: BRIDGE_CLOSE_CODES.replaced }));
    const link = await connect(cloud, {
      backoff: { ...DEFAULT_LINK_BACKOFF, firstConflictMs: 400, conflictMs: 400 },
    });
    await expect.poll(() => link.state).toBe('conflict');
    expect(link.lastError).toMatch(/retrying every 0\.4 s\./);
  });

  it('ends a conflict streak on any other close', async () => {
    const clock = new FastClock();
    const cloud = new ScriptedCloud((attempt) =>
      attempt === 2 ? 503 : { closeWith: BRIDGE_CLOSE_CODES.replaced },
    );
    await connect(cloud, { clock, backoff: DEFAULT_LINK_BACKOFF, random: () => 0.5 });
    await expect.poll(() => clock.delays.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(4);
    expect(clock.delays.slice(0, 4)).toEqual([7_500, 45_000, 500, 7_500]);
  });

  it('brings 100 bridges back soon after the cloud is ready, spread out rather than all at once', async () => {
    // The production policy scaled down 100 times: 10 ms base, 300 ms cap (30 s).
    const capMs = 300;
    const cloud = new ScriptedCloud(() => 'welcome');
    const cloudUrl = await cloud.start();
    const links = Array.from(
      { length: 100 },
      () =>
        new BridgeLink({
          cloudUrl,
          token: 't',
          locationKey: 'campo',
          logger,
          backoff: { baseMs: 10, capMs },
          heartbeatMs: 3_600_000,
        }),
    );
    cleanup.push(
      () => cloud.stop(),
      async () => {
        await Promise.all(links.map((link) => link.stop()));
      },
    );
    for (const link of links) link.start();
    await expect.poll(() => links.every((link) => link.isUp)).toBe(true);
    await cloud.stop(); // an outage long enough to push every bridge to the cap
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const before = cloud.upgrades.length;
    await cloud.start();
    const readyAt = Date.now();
    await expect.poll(() => links.every((link) => link.isUp), { timeout: 5_000 }).toBe(true);
    const comeback = cloud.upgrades.slice(before).map((t) => t - readyAt);
    expect(comeback.length).toBeGreaterThanOrEqual(100);
    // Within twice the cap of the cloud being ready (60 s at full scale), with room for a loaded machine.
    expect(Math.max(...comeback)).toBeLessThan(2 * capMs + 400);
    // Full jitter: not a herd at the first instant (about a third land in the first fifth, not all).
    expect(comeback.filter((t) => t < capMs / 5).length).toBeLessThan(70);
  });
});
