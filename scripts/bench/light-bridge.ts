// A simulated edge bridge as light as protocol v1 allows, for benchmarks with hundreds or thousands
// of sites in one process: it says hello, acknowledges every command and answers it SUCCEEDED at
// once (no controller, no disk), and counts the commands it ran. Not a daemon: the real one is
// measured by command-round-trip and offline-replay.
import WebSocket from 'ws';
import { issueBridgeToken } from '@deposito/cloud/bridge-hub/bridge-token';
import { systemClock } from '@deposito/cloud/clock';
import type { Store } from '@deposito/cloud/store/store';
import { buildLocation, buildEmptyHello } from '@deposito/cloud/test/builders';
import {
  BRIDGE_AUTH_HEADER,
  BRIDGE_FEATURES,
  BRIDGE_LOCATION_HEADER,
  BRIDGE_WS_PATH,
  type CloudToBridgeMessage,
} from '@deposito/protocol/bridge/v1';

export class LightBridge {
  private socket: WebSocket | null = null;
  private seq = 0;
  executed = 0;

  constructor(
    private readonly cloudUrl: string,
    readonly locationKey: string,
    private readonly token: string,
  ) {}

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  /** Connects and says hello; resolves once the socket is open and the hello sent. */
  connect(): Promise<void> {
    const url = new URL(BRIDGE_WS_PATH, this.cloudUrl.replace(/^http/, 'ws'));
    const socket = new WebSocket(url, {
      headers: { [BRIDGE_AUTH_HEADER]: `Bearer ${this.token}`, [BRIDGE_LOCATION_HEADER]: this.locationKey },
      perMessageDeflate: false,
    });
    this.socket = socket;
    socket.on('message', (data) => this.onMessage(JSON.parse(String(data)) as CloudToBridgeMessage));
    return new Promise((resolve, reject) => {
      socket.once('error', reject);
      socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`${this.locationKey}: HTTP ${response.statusCode} on the upgrade`)),
      );
      socket.once('open', () => {
        socket.off('error', reject);
        socket.on('error', () => undefined);
        this.send(buildEmptyHello(this.locationKey, 'bench', BRIDGE_FEATURES));
        resolve();
      });
    });
  }

  close(): void {
    this.socket?.terminate();
    this.socket = null;
  }

  private send(message: unknown): void {
    this.socket?.send(JSON.stringify(message));
  }

  private onMessage(message: CloudToBridgeMessage): void {
    if (message.type !== 'command') return;
    const now = new Date().toISOString();
    this.send({ type: 'ack', commandId: message.id, duplicate: false, receivedAt: now });
    this.executed += 1;
    this.seq += 1;
    this.send({
      type: 'result',
      seq: this.seq,
      commandId: message.id,
      op: message.op,
      ok: true,
      status: 'SUCCEEDED',
      attempts: 1,
      completedAt: now,
      ...(message.op === 'getState' ? { data: { lockers: [] } } : {}),
    });
  }
}

/** `count` sites of 12 lockers (`scale0000`…) with a bridge token each, for fleets of light bridges. */
export async function seedScaleSites(
  store: Store,
  count: number,
): Promise<Array<{ key: string; token: string }>> {
  const sites: Array<{ key: string; token: string }> = [];
  for (let i = 0; i < count; i += 1) {
    const key = `scale${String(i).padStart(4, '0')}`;
    await store.locations.save(buildLocation({ key, name: key }), systemClock.now());
    await store.locations.addLockers(
      key,
      Array.from({ length: 12 }, (_, n) => ({ number: n + 1, size: 'standard' as const })),
    );
    const token = await issueBridgeToken(store, key, systemClock.now());
    if (!token) throw new Error(`no bridge token for ${key}`);
    sites.push({ key, token });
  }
  return sites;
}
