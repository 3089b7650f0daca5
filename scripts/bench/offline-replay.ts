// Offline replay: 10,000 results and events waiting in the bridge's SQLite buffer are delivered once
// the cloud is reachable again — all of them, in seq order, none twice — timed from the daemon's start
// to the last acknowledgement. The cloud side is edge-bridge's v1 stand-in (it acknowledges each item
// as the hub does), so the figure is the bridge's replay path: buffer read, WebSocket, ack, delete.
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import type { BridgeToCloudMessage } from '@deposito/protocol/bridge/v1';
import { BridgeBuffer } from '@deposito/edge-bridge/buffer/bridge-buffer';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { BridgeDaemon } from '@deposito/edge-bridge/daemon';
import { bufferPath } from '@deposito/edge-bridge/env';
import { buildBridgeConfig } from '@deposito/edge-bridge/test/builders';
import { TestCloud } from '@deposito/edge-bridge/test/test-cloud';
import { elapsedMs, round, type BenchOptions, type BenchResult } from './bench-result';

export const name = 'offline-replay';
const TARGET_MS = 5_000;
const TOKEN = 'bench-token';
const LOCATION = 'vicolo';

/** Fills the buffer as an offline bridge would: every fifth item a command result, the rest events. */
function fillBuffer(path: string, count: number): Set<string> {
  const buffer = BridgeBuffer.open(path, { maxOutboxItems: count + 1_000 });
  const ids = new Set<string>();
  const start = Date.now() - count * 1_000;
  buffer.transaction(() => {
    for (let i = 0; i < count; i += 1) {
      const at = new Date(start + i * 1_000).toISOString();
      const lockerId = 1 + (i % 12);
      if (i % 5 === 4) {
        const commandId = `cmd-bench-${i}`;
        ids.add(commandId);
        buffer.enqueue(
          {
            type: 'result',
            commandId,
            op: 'open',
            ok: true,
            status: 'SUCCEEDED',
            attempts: 1,
            completedAt: at,
          },
          start + i * 1_000,
        );
      } else {
        const id = randomUUID();
        ids.add(id);
        buffer.enqueue(
          i % 2 === 0
            ? {
                type: 'event',
                id,
                kind: 'door',
                door: i % 4 === 0 ? 'opened' : 'closed',
                lockerId,
                occurredAt: at,
              }
            : {
                type: 'event',
                id,
                kind: 'state-change',
                from: 'free',
                to: 'booked',
                lockerId,
                occurredAt: at,
              },
          start + i * 1_000,
        );
      }
    }
  });
  buffer.close();
  return ids;
}

const itemId = (message: BridgeToCloudMessage): string | null =>
  message.type === 'event' ? message.id : message.type === 'result' ? message.commandId : null;

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const count = options.quick ? 300 : 10_000;
  const simulator = new ControllerSimulator({ lockers: 12 });
  await simulator.start();
  const cloud = new TestCloud({ token: TOKEN, locationKey: LOCATION });
  await cloud.start();
  const config = buildBridgeConfig({
    cloudUrl: cloud.url,
    bridgeToken: TOKEN,
    locationKey: LOCATION,
    controller: simulator.connection(2_000),
    maxOutboxItems: count + 1_000,
    pollIntervalMs: 1_000,
  });
  const expected = fillBuffer(bufferPath(config), count);
  const daemon = new BridgeDaemon({ config });
  try {
    const startedAt = process.hrtime.bigint();
    await daemon.start();
    const deadline = Date.now() + (options.quick ? 20_000 : 30_000);
    // Done when the buffer holds no result or event any more: the cloud acknowledged every one.
    while (Date.now() < deadline) {
      const { results, events } = daemon.health().buffer;
      if (results + events === 0) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const figure = elapsedMs(startedAt);
    const items = cloud.received.filter((message) => {
      const id = itemId(message);
      return id !== null && expected.has(id);
    });
    const seqs = items.map((m) => ('seq' in m ? m.seq : 0));
    const inOrder = seqs.every((seq, i) => i === 0 || seq > seqs[i - 1]!);
    const ids = items.map((m) => itemId(m)!);
    const duplicates = ids.length - new Set(ids).size;
    const received = new Set(ids);
    const missing = [...expected].filter((id) => !received.has(id)).length;
    const left = daemon.health().buffer;
    return {
      name,
      figure: round(figure),
      unit: 'ms',
      target: `all ${count.toLocaleString('en')} delivered in order, none twice, ≤ ${TARGET_MS} ms`,
      pass: figure <= TARGET_MS && inOrder && duplicates === 0 && missing === 0,
      notes: `${count.toLocaleString('en')} buffered (4/5 events, 1/5 results); daemon start → last ack; cloud: v1 stand-in`,
      details: {
        delivered: items.length,
        missing,
        duplicates,
        inOrder,
        leftInBuffer: left.results + left.events,
      },
    };
  } finally {
    await daemon.stop();
    await cloud.stop();
    await simulator.stop();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}
