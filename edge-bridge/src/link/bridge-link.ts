// The bridge's WebSocket to the cloud: connects with its token, reconnects with full-jitter
// exponential backoff, and gives up only when the cloud refuses its credentials.
import WebSocket from 'ws';
import type { Logger } from 'pino';
import {
  BRIDGE_CLOSE_CODES,
  BRIDGE_MAX_MESSAGE_BYTES,
  BRIDGE_WS_PATH,
  bridgeAuthHeaders,
  parseCloudToBridge,
  type BridgeParseResult,
  type BridgeToCloudMessage,
  type CloudToBridgeMessage,
} from '@deposito/protocol/bridge/v1';
import { systemClock, type Clock, type TimerHandle } from '../clock';

export type LinkState = 'idle' | 'connecting' | 'open' | 'waiting' | 'refused' | 'stopped';

export interface BackoffPolicy {
  baseMs: number;
  capMs: number;
  /** A connection that stays up this long resets the backoff. */
  stableMs: number;
}

/** WebSocket close code of an endpoint shutting down; the cloud's hub closes with it when it stops. */
const GOING_AWAY = 1001;

export const DEFAULT_LINK_BACKOFF: BackoffPolicy = { baseMs: 1_000, capMs: 5 * 60_000, stableMs: 60_000 };

export interface BridgeLinkOptions {
  /** The cloud's base URL (http(s) or ws(s)); BRIDGE_WS_PATH is appended. */
  cloudUrl: string;
  token: string;
  locationKey: string;
  logger: Logger;
  clock?: Clock;
  /** [0, 1); injectable so tests can pin the jitter. */
  random?: () => number;
  backoff?: Partial<BackoffPolicy>;
  handshakeTimeoutMs?: number;
  /** A ping is sent this often; a connection that did not answer the previous one is dropped. */
  heartbeatMs?: number;
  onOpen?: () => void;
  onMessage?: (message: CloudToBridgeMessage) => void;
  onInvalidMessage?: (failure: Extract<BridgeParseResult<CloudToBridgeMessage>, { ok: false }>) => void;
  onClose?: (info: { code: number; reason: string }) => void;
  /** The cloud refused the credentials (HTTP 401/403 or close 4401/4406): the link has stopped. */
  onRefused?: (info: { status?: number; code?: number; reason: string }) => void;
}

/** Full jitter: a uniformly random delay between 0 and the capped exponential bound. */
export function fullJitterDelay(attempt: number, policy: BackoffPolicy, random: () => number): number {
  const bound = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(attempt, 30));
  return Math.floor(random() * bound);
}

export function bridgeSocketUrl(cloudUrl: string): string {
  const url = new URL(cloudUrl);
  url.protocol = url.protocol === 'https:' || url.protocol === 'wss:' ? 'wss:' : 'ws:';
  url.pathname = url.pathname.replace(/\/+$/, '') + BRIDGE_WS_PATH;
  url.search = '';
  url.hash = '';
  return url.toString();
}

export class BridgeLink {
  private readonly clock: Clock;
  private readonly random: () => number;
  private readonly backoff: BackoffPolicy;
  private socket: WebSocket | null = null;
  private currentState: LinkState = 'idle';
  private attempt = 0;
  private reconnectTimer: TimerHandle | null = null;
  private stableTimer: TimerHandle | null = null;
  private heartbeatTimer: TimerHandle | null = null;
  private awaitingPong = false;
  private refusedStatus: number | undefined;
  /** Epoch ms of the current connection's opening, null while down. */
  connectedSince: number | null = null;
  lastError: string | null = null;
  reconnects = 0;

  constructor(private readonly options: BridgeLinkOptions) {
    this.clock = options.clock ?? systemClock;
    this.random = options.random ?? Math.random;
    this.backoff = { ...DEFAULT_LINK_BACKOFF, ...options.backoff };
  }

  get state(): LinkState {
    return this.currentState;
  }

  get isUp(): boolean {
    return this.currentState === 'open' && this.socket?.readyState === WebSocket.OPEN;
  }

  start(): void {
    if (this.currentState !== 'idle' && this.currentState !== 'stopped') return;
    this.connect();
  }

  async stop(): Promise<void> {
    this.currentState = 'stopped';
    this.clearTimers();
    const socket = this.socket;
    this.socket = null;
    if (!socket || socket.readyState === WebSocket.CLOSED) return;
    await new Promise<void>((resolve) => {
      socket.once('close', () => resolve());
      if (socket.readyState === WebSocket.CONNECTING) socket.terminate();
      else socket.close(1000, 'bridge stopping');
      const force = setTimeout(() => socket.terminate(), 2_000);
      socket.once('close', () => clearTimeout(force));
    });
  }

  /** Sends a message if the link is up; false if it is not (the caller keeps it buffered). */
  send(message: BridgeToCloudMessage): boolean {
    if (!this.isUp || !this.socket) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  private connect(): void {
    const { logger } = this.options;
    this.currentState = 'connecting';
    this.refusedStatus = undefined;
    const url = bridgeSocketUrl(this.options.cloudUrl);
    logger.debug({ url, attempt: this.attempt }, 'connecting to cloud');
    const socket = new WebSocket(url, {
      headers: bridgeAuthHeaders(this.options.token, this.options.locationKey),
      handshakeTimeout: this.options.handshakeTimeoutMs ?? 15_000,
      maxPayload: BRIDGE_MAX_MESSAGE_BYTES,
    });
    this.socket = socket;

    socket.on('unexpected-response', (request, response) => {
      this.refusedStatus = response.statusCode;
      response.resume();
      request.destroy(new Error(`cloud answered the upgrade with HTTP ${response.statusCode}`));
    });
    socket.on('open', () => {
      if (this.socket !== socket) return;
      this.currentState = 'open';
      this.connectedSince = this.clock.now();
      this.lastError = null;
      logger.info({ url }, 'connected to cloud');
      this.stableTimer = this.clock.setTimeout(() => {
        this.attempt = 0;
      }, this.backoff.stableMs);
      this.scheduleHeartbeat(socket);
      this.options.onOpen?.();
    });
    socket.on('pong', () => {
      this.awaitingPong = false;
    });
    socket.on('message', (data, isBinary) => {
      if (this.socket !== socket) return;
      const raw = isBinary ? data : data.toString();
      const parsed = parseCloudToBridge(Array.isArray(raw) ? Buffer.concat(raw) : raw);
      if (parsed.ok) this.options.onMessage?.(parsed.message);
      else {
        logger.warn({ error: parsed.error, commandId: parsed.commandId }, 'invalid message from cloud');
        this.options.onInvalidMessage?.(parsed);
      }
    });
    socket.on('error', (error) => {
      this.lastError = error.message;
      logger.debug({ err: error }, 'cloud link error');
    });
    socket.on('close', (code, reasonBuffer) => this.handleClose(socket, code, reasonBuffer.toString()));
  }

  private handleClose(socket: WebSocket, code: number, reason: string): void {
    if (this.socket !== socket) return;
    const { logger } = this.options;
    const wasOpen = this.currentState === 'open';
    this.socket = null;
    this.connectedSince = null;
    this.clearTimers();
    if (wasOpen) this.options.onClose?.({ code, reason });
    if (this.currentState === 'stopped') return;

    const status = this.refusedStatus;
    if (
      status === 401 ||
      status === 403 ||
      code === BRIDGE_CLOSE_CODES.unauthorized ||
      code === BRIDGE_CLOSE_CODES.unsupportedProtocol
    ) {
      this.currentState = 'refused';
      const why =
        status !== undefined
          ? `cloud refused the bridge credentials (HTTP ${status}); check the bridge token and location key, then restart`
          : `cloud closed the link (${code} ${reason}); check the bridge token and version, then restart`;
      this.lastError = why;
      logger.error({ status, code, reason }, why);
      this.options.onRefused?.({ ...(status === undefined ? { code } : { status }), reason: why });
      return;
    }
    if (status !== undefined) this.lastError = `cloud answered the upgrade with HTTP ${status}`;
    // A cloud going away (a restart or a deploy) ends a connection that worked: no failure streak to
    // back off from. Without this, a deploy soon after an outage waited out the outage's backoff.
    if (wasOpen && code === GOING_AWAY) this.attempt = 0;
    const delay = fullJitterDelay(this.attempt, this.backoff, this.random);
    this.attempt += 1;
    this.reconnects += 1;
    this.currentState = 'waiting';
    logger.warn(
      { code, reason, status, delayMs: delay, error: this.lastError },
      'cloud link down, reconnecting',
    );
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (this.currentState === 'waiting') this.connect();
    }, delay);
  }

  private scheduleHeartbeat(socket: WebSocket): void {
    const interval = this.options.heartbeatMs ?? 30_000;
    this.awaitingPong = false;
    const beat = () => {
      if (this.socket !== socket || socket.readyState !== WebSocket.OPEN) return;
      if (this.awaitingPong) {
        this.lastError = 'cloud did not answer a ping';
        socket.terminate();
        return;
      }
      this.awaitingPong = true;
      socket.ping();
      this.heartbeatTimer = this.clock.setTimeout(beat, interval);
    };
    this.heartbeatTimer = this.clock.setTimeout(beat, interval);
  }

  private clearTimers(): void {
    for (const timer of [this.reconnectTimer, this.stableTimer, this.heartbeatTimer]) {
      if (timer !== null) this.clock.clearTimeout(timer);
    }
    this.reconnectTimer = this.stableTimer = this.heartbeatTimer = null;
  }
}
