import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { BRIDGE_CLOSE_CODES } from '@deposito/protocol/bridge/v1';
import { BridgeLink, bridgeSocketUrl, DEFAULT_LINK_BACKOFF, fullJitterDelay } from './bridge-link';

const logger = pino({ level: 'silent' });

describe('fullJitterDelay', () => {
  it('stays between 0 and the capped exponential bound', () => {
    expect(fullJitterDelay(0, DEFAULT_LINK_BACKOFF, () => 0)).toBe(0);
    expect(fullJitterDelay(0, DEFAULT_LINK_BACKOFF, () => 0.999_999)).toBe(999);
    expect(fullJitterDelay(3, DEFAULT_LINK_BACKOFF, () => 0.5)).toBe(4_000);
    expect(fullJitterDelay(20, DEFAULT_LINK_BACKOFF, () => 0.999_999)).toBe(299_999);
    expect(fullJitterDelay(5_000, DEFAULT_LINK_BACKOFF, () => 1 - Number.EPSILON)).toBeLessThan(300_000);
  });
});

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

  constructor(private readonly answer: (attempt: number) => number | 'accept' | { closeWith: number }) {}

  /** Listens on `port` (default: the previous one, so a restarted cloud is found at the same URL). */
  async start(port = this.port): Promise<string> {
    const wss = new WebSocketServer({ noServer: true });
    this.wss = wss;
    this.server = createServer();
    this.server.on('upgrade', (req, socket, head) => {
      const attempt = this.upgrades.push(Date.now()) - 1;
      const answer = this.answer(attempt);
      if (typeof answer === 'number') {
        socket.end(`HTTP/1.1 ${answer} No\r\nConnection: close\r\n\r\n`);
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (answer !== 'accept') ws.close(answer.closeWith, 'scripted');
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
      backoff: { baseMs: 40, capMs: 2_000, stableMs: 150 },
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

  it('backs off exponentially while the cloud fails, and resets after a stable connection', async () => {
    // Four failures (waits ~40, 80, 160, 320 ms), then a connection that lasts past stableMs,
    // then a close: the next wait is back to ~40 ms instead of ~640 ms.
    let accepted = false;
    const cloud = new ScriptedCloud((attempt) => (attempt < 4 ? 503 : 'accept'));
    const link = await connect(cloud, { onOpen: () => (accepted = true) });
    await expect.poll(() => accepted, { timeout: 3_000 }).toBe(true);
    const gaps = cloud.upgrades.slice(1).map((t, i) => t - cloud.upgrades[i]!);
    expect(gaps).toHaveLength(4);
    for (let i = 1; i < gaps.length; i += 1) expect(gaps[i]!).toBeGreaterThan(gaps[i - 1]! * 1.4);
    await new Promise((resolve) => setTimeout(resolve, 250)); // > stableMs
    const before = cloud.upgrades.length;
    const closedAt = Date.now();
    await cloud.stop();
    await cloud.start();
    await expect.poll(() => cloud.upgrades.length, { timeout: 3_000 }).toBeGreaterThan(before);
    expect(cloud.upgrades[before]! - closedAt).toBeLessThan(400);
    await expect.poll(() => link.isUp).toBe(true);
  });

  it('comes back at once when the cloud goes away (1001), whatever the backoff before', async () => {
    // Four failures leave the bound at 640 ms; a connection then closed long before stableMs by a
    // cloud shutting down (1001) is followed by the first wait again (~40 ms), not ~640 ms.
    let opened = 0;
    const cloud = new ScriptedCloud((attempt) => (attempt < 4 ? 503 : 'accept'));
    const link = await connect(cloud, {
      backoff: { baseMs: 40, capMs: 2_000, stableMs: 60_000 },
      onOpen: () => (opened += 1),
    });
    await expect.poll(() => opened, { timeout: 3_000 }).toBe(1);
    const closedAt = Date.now();
    cloud.closeClients(1001);
    await expect.poll(() => opened, { timeout: 3_000 }).toBe(2);
    expect(cloud.upgrades[5]! - closedAt).toBeLessThan(300);
    expect(link.reconnects).toBe(5);
  });
});
