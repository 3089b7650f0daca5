// A stand-in for the cloud's bridge hub, speaking protocol v1, for daemon and CLI tests.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import {
  BRIDGE_LOCATION_HEADER,
  BRIDGE_WS_PATH,
  parseBridgeToCloud,
  type BridgeToCloudMessage,
  type CloudToBridgeMessage,
  type CommandOp,
} from '@deposito/protocol/bridge/v1';

export interface TestCloudOptions {
  token: string;
  locationKey: string;
  /** Answer every buffered item with `delivered` (default true). */
  autoAck?: boolean;
  /** Refuse every upgrade with this HTTP status. */
  refuseWith?: number;
  /**
   * Answer a hello listing `hello-ack` with one, as the hub does once it has taken the bridge
   * (default true). False plays a hub still deciding (checking that another bridge holds the site).
   */
  acceptHello?: boolean;
}

export class TestCloud {
  readonly received: BridgeToCloudMessage[] = [];
  /** Frames that did not parse as v1: a test asserts this stays empty. */
  readonly invalid: string[] = [];
  upgrades = 0;
  private server: Server | null = null;
  private wss: WebSocketServer | null = null;
  private socket: WebSocket | null = null;
  /** The connected bridge was taken (its hello accepted). */
  private taken = false;
  port = 0;

  constructor(private readonly options: TestCloudOptions) {}

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  get connected(): boolean {
    return this.socket !== null && this.socket.readyState === this.socket.OPEN;
  }

  /** Listens on `port` (0 = any; reuse the previous port to play a cloud coming back). */
  async start(port = this.port): Promise<void> {
    const server = createServer((_req, res) => res.writeHead(404).end());
    const wss = new WebSocketServer({ noServer: true });
    server.on('upgrade', (req, socket, head) => {
      this.upgrades += 1;
      const url = new URL(req.url ?? '/', 'http://cloud');
      const authorized =
        req.headers.authorization === `Bearer ${this.options.token}` &&
        (req.headers[BRIDGE_LOCATION_HEADER] ?? url.searchParams.get('location')) ===
          this.options.locationKey;
      const refusal = this.options.refuseWith ?? (authorized ? null : 401);
      if (url.pathname !== BRIDGE_WS_PATH || refusal !== null) {
        socket.end(
          `HTTP/1.1 ${url.pathname !== BRIDGE_WS_PATH ? 404 : refusal} Refused\r\nConnection: close\r\n\r\n`,
        );
        return;
      }
      wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws));
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
    this.server = server;
    this.wss = wss;
    this.port = (server.address() as AddressInfo).port;
  }

  private accept(ws: WebSocket): void {
    this.socket = ws;
    this.taken = false;
    ws.on('message', (data) => {
      const text = data.toString();
      const parsed = parseBridgeToCloud(text);
      if (!parsed.ok) {
        this.invalid.push(text);
        return;
      }
      this.received.push(parsed.message);
      const message = parsed.message;
      if (message.type === 'hello' && this.options.acceptHello !== false) this.take(message.features);
      if (
        this.options.autoAck !== false &&
        this.taken &&
        (message.type === 'result' || message.type === 'event' || message.type === 'snapshot')
      ) {
        this.send({ type: 'delivered', seqs: [message.seq] });
      }
    });
    ws.on('close', () => {
      if (this.socket === ws) this.socket = null;
    });
  }

  /**
   * Takes the connected bridge as the hub does after its hello: says hello-ack if the bridge lists
   * it, and from then on answers buffered items (until then the hub holds them, unanswered).
   */
  take(features: readonly string[] | undefined = ['hello-ack']): void {
    this.taken = true;
    if (features?.includes('hello-ack')) this.send({ type: 'hello-ack' });
  }

  send(message: CloudToBridgeMessage | Record<string, unknown>): void {
    if (!this.socket) throw new Error('no bridge connected');
    this.socket.send(JSON.stringify(message));
  }

  sendRaw(text: string): void {
    if (!this.socket) throw new Error('no bridge connected');
    this.socket.send(text);
  }

  of<T extends BridgeToCloudMessage['type']>(type: T): Extract<BridgeToCloudMessage, { type: T }>[] {
    return this.received.filter((m): m is Extract<BridgeToCloudMessage, { type: T }> => m.type === type);
  }

  /** Goes away like a cloud behind a dropped internet link. */
  async stop(): Promise<void> {
    for (const client of this.wss?.clients ?? []) client.terminate();
    this.socket = null;
    this.wss?.close();
    const server = this.server;
    this.server = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

let sequence = 0;

/** A command as the cloud would send it, expiring a minute from now unless told otherwise. */
export function buildCommand(
  overrides: { op: CommandOp } & Record<string, unknown>,
): Record<string, unknown> {
  const now = Date.now();
  return {
    type: 'command',
    id: `cmd-${process.pid}-${++sequence}`,
    issuedAt: new Date(now).toISOString(),
    expiresAt: new Date(now + 60_000).toISOString(),
    ...overrides,
  };
}
