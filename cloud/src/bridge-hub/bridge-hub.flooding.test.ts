import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { bridgeAuthHeaders } from '@deposito/protocol/bridge/v1';
import { buildEmptyHello } from '../../test/builders';
import { seedSite, SITE_LOCATION, SITE_TOKEN, startHubCloud, type HubCloud } from '../../test/bridge-site';
import { type TestDatabase, openTestStore } from '../../test/test-store';
import type { Store } from '../store/store';
import type { BridgeHubTuning } from '../composition';

// Issue 14 item 8: a bridge with a valid token, flooding. Before, 20k invalid frames and 5k events
// for lockers that do not exist were all stored and logged one line each, with no limit per socket
// and no retention. Here a raw WebSocket plays the misbehaving bridge against a real cloud.

const LOCKERS = 4;

/** The cloud's log lines, as JSON objects. */
function recordingLogger(): { logger: pino.Logger; lines: Array<Record<string, unknown>> } {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      }
      done();
    },
  });
  return { logger: pino({ level: 'info' }, stream), lines };
}

/** A bridge speaking raw frames: says hello, then sends whatever the test wants. */
class RawBridge {
  readonly delivered = new Set<number>();
  closed: { code: number; reason: string } | null = null;

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data: Buffer) => {
      const message = JSON.parse(data.toString()) as { type: string; seqs?: number[] };
      if (message.type === 'delivered') for (const seq of message.seqs ?? []) this.delivered.add(seq);
    });
    socket.on('close', (code, reason) => (this.closed = { code, reason: reason.toString() }));
  }

  static async connect(url: string): Promise<RawBridge> {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/bridge`, {
      headers: bridgeAuthHeaders(SITE_TOKEN, SITE_LOCATION),
    });
    await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
    const bridge = new RawBridge(socket);
    bridge.send(buildEmptyHello(SITE_LOCATION, 'flood-test', ['hello-ack']));
    await new Promise<void>((resolve) =>
      socket.on('message', (data: Buffer) => {
        if ((JSON.parse(data.toString()) as { type: string }).type === 'hello-ack') resolve();
      }),
    );
    return bridge;
  }

  send(message: unknown): void {
    this.socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** A door event for `lockerId` with buffer position `seq`. */
  doorEvent(seq: number, lockerId: number): void {
    this.send({
      type: 'event',
      id: randomUUID(),
      seq,
      occurredAt: new Date().toISOString(),
      lockerId,
      kind: 'door',
      door: 'opened',
    });
  }

  close(): Promise<void> {
    if (this.socket.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => {
      this.socket.once('close', () => resolve());
      this.socket.close();
    });
  }
}

describe('a bridge flooding the hub', () => {
  let database: TestDatabase;
  let store: Store;
  let site: HubCloud;
  let lines: Array<Record<string, unknown>>;
  const bridges: RawBridge[] = [];

  async function start(hub: BridgeHubTuning = {}): Promise<void> {
    const recording = recordingLogger();
    lines = recording.lines;
    site = await startHubCloud({ store, target: database.target, logger: recording.logger, hub });
  }

  async function connect(): Promise<RawBridge> {
    const bridge = await RawBridge.connect(site.url);
    bridges.push(bridge);
    return bridge;
  }

  const warnings = () => lines.filter((line) => line.level === 40);
  const storedEvents = async () => (await store.bridge.events(SITE_LOCATION, 100_000)).length;

  beforeEach(async () => {
    ({ database, store } = await openTestStore('sqlite'));
    await seedSite(store, LOCKERS);
  });

  afterEach(async () => {
    await Promise.all(bridges.splice(0).map((bridge) => bridge.close()));
    await site?.stop();
    await store.close();
    await database.dispose();
  });

  it('closes a socket after too many invalid frames, logging one line for the burst', async () => {
    await start();
    const bridge = await connect();
    for (let i = 0; i < 2_000 && !bridge.closed; i += 1) {
      bridge.send(i % 2 === 0 ? '{"type":"nope"}' : 'not json at all');
    }
    await expect
      .poll(() => bridge.closed, { timeout: 10_000 })
      .toEqual({
        code: 1008,
        reason: 'too many invalid messages',
      });
    expect(await storedEvents()).toBe(0);
    await expect
      .poll(() => warnings().filter((line) => String(line.msg).startsWith('bridge burst')))
      .toHaveLength(1);
    const burst = warnings().find((line) => String(line.msg).startsWith('bridge burst'))!;
    expect(burst).toMatchObject({ location: SITE_LOCATION });
    expect(burst.invalidMessages).toBeGreaterThan(50);
    // Not a line per frame.
    expect(warnings().length).toBeLessThan(5);
  });

  it('confirms but does not store events for lockers the location does not have', async () => {
    await start();
    const bridge = await connect();
    for (let seq = 1; seq <= 500; seq += 1) bridge.doorEvent(seq, 999);
    bridge.doorEvent(501, 1);
    await expect.poll(() => bridge.delivered.size, { timeout: 10_000 }).toBe(501);
    expect(await storedEvents()).toBe(1);
    await bridge.close();
    await expect
      .poll(() => warnings().filter((line) => String(line.msg).startsWith('bridge burst')))
      .toEqual([expect.objectContaining({ unknownLockerItems: 500, invalidMessages: 0 })]);
    expect(warnings()).toHaveLength(1);
  });

  it("reads a fast bridge's messages at the per-socket rate, losing none", async () => {
    await start({ floodLimits: { messagesPerSecond: 100 } });
    const bridge = await connect();
    const startedAt = Date.now();
    for (let seq = 1; seq <= 300; seq += 1) bridge.doorEvent(seq, 1 + (seq % LOCKERS));
    await expect.poll(() => bridge.delivered.size, { timeout: 15_000 }).toBe(300);
    // 300 messages at 100 a second take at least two more windows than the first.
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(1_900);
    expect(await storedEvents()).toBe(300);
    expect(bridge.closed).toBeNull();
  });

  it('deletes stored events past their retention', async () => {
    const now = Date.now();
    const event = (daysAgo: number, seq: number) =>
      store.bridge.insertEvent(
        {
          id: randomUUID(),
          locationKey: SITE_LOCATION,
          seq,
          kind: 'door',
          lockerId: 1,
          occurredAt: new Date(now - daysAgo * 86_400_000),
          payload: { door: 'opened' },
        },
        new Date(now - daysAgo * 86_400_000),
      );
    await event(120, 1);
    await event(91, 2);
    await event(3, 3);
    await start();
    await expect.poll(storedEvents, { timeout: 10_000 }).toBe(1);
    expect((await store.bridge.events(SITE_LOCATION, 10)).map((e) => e.seq)).toEqual([3]);
  });
});
