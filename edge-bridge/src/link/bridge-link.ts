// The bridge's WebSocket to the cloud: connects with its token, reconnects with full-jitter
// exponential backoff (capped at 30 s, reset once the cloud accepts a connection), retries slowly
// while another bridge holds the location, and gives up only when the cloud refuses its credentials.
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

/** conflict: another bridge holds this location's connection; this one waits to retry slowly. */
export type LinkState = 'idle' | 'connecting' | 'open' | 'waiting' | 'conflict' | 'refused' | 'stopped';

export interface BackoffPolicy {
  baseMs: number;
  /** No wait is longer: once the cloud is back, every bridge is back within this (plus a handshake). */
  capMs: number;
  /** While another bridge holds the location (close 4409, HTTP 409): wait between half and all of this. */
  conflictMs: number;
  /**
   * The first retry after a conflict waits only up to this: the connection the cloud still holds may
   * be this bridge's own previous one, which it drops once that misses a ping.
   */
  firstConflictMs: number;
}

export const DEFAULT_LINK_BACKOFF: BackoffPolicy = {
  baseMs: 1_000,
  capMs: 30_000,
  conflictMs: 60_000,
  firstConflictMs: 10_000,
};

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
  /** Every valid message; the first one on a connection (normally `hello-ack`) resets the backoff. */
  onMessage?: (message: CloudToBridgeMessage) => void;
  onInvalidMessage?: (failure: Extract<BridgeParseResult<CloudToBridgeMessage>, { ok: false }>) => void;
  onClose?: (info: { code: number; reason: string }) => void;
  /** The cloud refused the credentials (HTTP 401/403 or close 4401/4406): the link has stopped. */
  onRefused?: (info: { status?: number; code?: number; reason: string }) => void;
}

/**
 * Full jitter: a uniformly random delay between 0 and the capped exponential bound, so bridges that
 * lost the cloud together do not come back together.
 */
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
  /** Failed connections since the cloud last accepted one. */
  private attempt = 0;
  /**
   * Conflict closes in a row; any other close ends the streak. Not reset by an accepted connection,
   * so two bridges that a hub lets take the location from each other both slow down too.
   */
  private conflicts = 0;
  /** The cloud has answered on the current connection (its hello-ack, or any message). */
  private accepted = false;
  private reconnectTimer: TimerHandle | null = null;
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

  /** The socket is open: messages can be sent (the hello first). Not yet that the cloud took them. */
  get isUp(): boolean {
    return this.currentState === 'open' && this.socket?.readyState === WebSocket.OPEN;
  }

  /**
   * The cloud answered on this open connection, so it took the hello: this bridge holds its site. A
   * second bridge with the same token has an open socket for a moment (while the cloud checks that
   * the first still answers) and is then closed with 4409; it is never accepted.
   */
  get isAccepted(): boolean {
    return this.isUp && this.accepted;
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
      this.accepted = false;
      logger.info({ url }, 'connected to cloud');
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
      if (parsed.ok) {
        if (!this.accepted) this.onAccepted();
        this.options.onMessage?.(parsed.message);
      } else {
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

  /**
   * The cloud answered on this connection, so it took the hello: the failure streak is over. Only
   * then, not on the upgrade alone, so a cloud that accepts and drops at once is still backed off from.
   */
  private onAccepted(): void {
    this.accepted = true;
    this.attempt = 0;
    this.lastError = null;
    this.options.logger.debug('cloud accepted the connection; reconnect backoff reset');
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
    this.reconnects += 1;
    if (status === 409 || code === BRIDGE_CLOSE_CODES.replaced) {
      this.waitAfterConflict(status, code, reason);
      return;
    }
    this.conflicts = 0;
    if (status !== undefined) this.lastError = `cloud answered the upgrade with HTTP ${status}`;
    const delay = fullJitterDelay(this.attempt, this.backoff, this.random);
    this.attempt += 1;
    logger.warn(
      { code, reason, status, delayMs: delay, error: this.lastError },
      'cloud link down, reconnecting',
    );
    this.retryIn(delay, 'waiting');
  }

  /**
   * Another bridge with this location's token is connected: two bridges taking the link from each
   * other would send doors to the wrong controller, so this one waits long between tries and says why.
   */
  private waitAfterConflict(status: number | undefined, code: number, reason: string): void {
    this.conflicts += 1;
    const bound = this.conflicts === 1 ? this.backoff.firstConflictMs : this.backoff.conflictMs;
    const delay = Math.floor(bound / 2 + (this.random() * bound) / 2);
    const seconds = this.backoff.conflictMs / 1000;
    this.lastError =
      `another bridge with the same token is connected for location ${this.options.locationKey}; ` +
      `retrying every ${seconds >= 10 ? Math.round(seconds) : Number(seconds.toFixed(1))} s. Each site needs its own bridge: ` +
      'stop the other one, or issue this one its own token';
    this.options.logger.error(
      { code, status, reason, delayMs: delay, conflicts: this.conflicts },
      this.lastError,
    );
    this.retryIn(delay, 'conflict');
  }

  private retryIn(delay: number, state: 'waiting' | 'conflict'): void {
    this.currentState = state;
    this.reconnectTimer = this.clock.setTimeout(() => {
      this.reconnectTimer = null;
      if (this.currentState === state) this.connect();
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
    for (const timer of [this.reconnectTimer, this.heartbeatTimer]) {
      if (timer !== null) this.clock.clearTimeout(timer);
    }
    this.reconnectTimer = this.heartbeatTimer = null;
  }
}
