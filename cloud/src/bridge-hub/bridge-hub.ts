import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import { hostname } from 'node:os';
import type { Duplex } from 'node:stream';
import { errorBody } from '@deposito/protocol';
import {
  BRIDGE_CLOSE_CODES,
  BRIDGE_LOCATION_HEADER,
  BRIDGE_LOCATION_QUERY,
  BRIDGE_MAX_MESSAGE_BYTES,
  BRIDGE_PROTOCOL_VERSION,
  BRIDGE_WS_PATH,
  commandSchema,
  parseBridgeToCloud,
  type BridgeCommand,
  type BridgeToCloudMessage,
  type CloudToBridgeMessage,
  type CommandOp,
  type EventMessage,
  type Occupancy,
  type ResultMessage,
} from '@deposito/protocol/bridge/v1';
import type { Logger } from 'pino';
import WebSocket, { WebSocketServer, type RawData } from 'ws';
import { systemClock, type Clock } from '../clock';
import type { DatabaseTarget } from '../env';
import {
  isSettledStatus,
  type BridgeCommandRecord,
  type CommandStatus,
  type LockerStateChange,
  type NewBridgeCommand,
} from '../store/bridge.repository';
import type { Store } from '../store/store';
import { bridgeTokenMatches, isLegacyDemoBridgeToken } from './bridge-token';
import { BridgeFloodGuard, DEFAULT_FLOOD_LIMITS, type FloodLimits } from './flood-guard';
import { HubSignalBus, type HubSignal } from './hub-signals';
import { pidRuns } from '../pid-runs';

/** How long each kind of command may wait before it must not run any more. */
export const DEFAULT_COMMAND_TTL_MS: Readonly<Record<CommandOp, number>> = {
  // A door that opens minutes after the operator clicked, with nobody in front of it, is worse than none.
  // The operator's Apri (HubLockerControl) sets a tighter one: the instant its answer is due.
  open: 30_000,
  // State-setting commands are worth delivering when the bridge comes back.
  inhibit: 24 * 3600_000,
  unbook: 24 * 3600_000,
  book: 24 * 3600_000,
  getState: 30_000,
  history: 60_000,
};

/** The bridge remembers command ids for 7 days; past that a command without a result is given up. */
const DEFAULT_ABANDON_AFTER_MS = 6 * 24 * 3600_000;
const MAX_COMMANDS_PER_DELIVERY = 500;
const MAX_DELIVERED_SEQS = 1000;

/** The operators' log entry for a paid booking's PIN that did not reach its locker. */
export const PIN_NOT_PROGRAMMED_LOG_TYPE = 'bridge/pin_not_programmed';
/** The operators' log entry for a second bridge refused because another one holds the location's token. */
export const DUPLICATE_BRIDGE_LOG_TYPE = 'bridge/duplicate_token';
/** Refusals of a second bridge closer together than this are one burst: one entry in the operators' log. */
const DUPLICATE_ALERT_QUIET_MS = 10 * 60_000;

/** How long after a cancelled command's deadline a reconnecting bridge is still told of the cancel. */
const CANCEL_REPEAT_AFTER_EXPIRY_MS = 10 * 60_000;
/** A bridge clock further than this from the cloud's is logged at hello (deadlines still hold). */
const CLOCK_OFFSET_WARN_MS = 2_000;

/** After a probe's pong timeout, how long the holding process may take to release a dead socket's row. */
const PROBE_RELEASE_MARGIN_MS = 300;

/** The hubs of this OS process: a row of the same host and pid with another id is an earlier life. */
const HUBS_IN_THIS_PROCESS = new Set<string>();

/** What a successful state-setting command leaves the locker in. */

const IMPLIED_OCCUPANCY: Partial<Record<CommandOp, Occupancy>> = {
  inhibit: 'inhibited',
  unbook: 'free',
  book: 'booked',
};

export interface BridgeHubOptions {
  store: Store;
  logger: Logger;
  /** Where the LISTEN session connects (PostgreSQL); with SQLite the hub signals in-process only. */
  database: DatabaseTarget;
  clock?: Clock;
  /** Names this hub in `bridge_connections`; unique per hub (two apps in one process differ). */
  processId?: string;
  /**
   * WebSocket ping interval, and how often this process heartbeats its own row and its bridges' rows
   * in the store (the evidence other processes go by).
   */
  heartbeatMs?: number;
  /** A bridge that has not answered a ping within this is terminated (it is offline from then on). */
  pongTimeoutMs?: number;
  /**
   * A connection held by another process counts as online only while its heartbeat and its
   * process's are younger than this; older ones are deleted by the sweep.
   */
  liveWindowMs?: number;
  /** A bridge must say hello this soon after connecting. */
  helloTimeoutMs?: number;
  /** How often the outbox is swept: undelivered expired commands settled, missed deliveries retried. */
  sweepMs?: number;
  /** A waiting request re-reads its command this often, in case a notification was lost. */
  resultPollMs?: number;
  commandTtlMs?: Partial<Record<CommandOp, number>>;
  abandonAfterMs?: number;
  /** Per-socket limits on what a bridge may send (see flood-guard.ts). */
  floodLimits?: Partial<FloodLimits>;
  /** Stored bridge events older than this are deleted by the sweep (default 90 days). */
  eventRetentionMs?: number;
}

/** How long `bridge_events` keeps an event: the operators' history of doors and states. */
export const DEFAULT_EVENT_RETENTION_MS = 90 * 24 * 3600_000;
/** How often the sweep deletes events past their retention. */
const EVENT_PRUNE_INTERVAL_MS = 3600_000;
/** A socket whose lockers were read longer ago than this reads them again on an unknown locker. */
const LOCKER_SET_REFRESH_MS = 30_000;

export interface CommandRequest {
  locationKey: string;
  op: CommandOp;
  lockerId?: number;
  params?: Record<string, unknown>;
  /** The booking a `book` or `unbook` belongs to. */
  transactionId?: string;
  /** A deterministic id makes issuing idempotent (booking commands); random otherwise. */
  id?: string;
  /** Overrides the op's default time to live. */
  expiresAt?: Date;
}

export interface IssuedCommand {
  command: BridgeCommandRecord;
  /** False when a command with that id was already in the outbox (nothing was added). */
  created: boolean;
}

export interface BridgeHubMetrics {
  /** Bridges with an open, greeted socket on this process. */
  bridgesConnectedHere: number;
  /** Bridges connected to any process (fresh heartbeat in the store). */
  bridgesConnected: number;
  commandsByStatus: Record<CommandStatus, number>;
  /** Age of the oldest command not settled yet; 0 when none. */
  oldestPendingCommandAgeSeconds: number;
  /** Commands written to this process's bridge sockets and not settled yet. */
  commandsAwaitingResultHere: number;
}

interface BridgeSession {
  /** Names the socket for its flood limits. */
  readonly id: string;
  readonly locationKey: string;
  /** The location's locker numbers, read at hello: events for others are not stored. */
  lockers: ReadonlySet<number>;
  lockersReadAt: number;
  /** While the socket's reading is paused for its rate (epoch ms), else 0. */
  pausedUntil: number;
  readonly socket: WebSocket;
  readonly remoteAddress: string | undefined;
  /** Armed while a ping waits for its pong: terminates the socket when it fires. */
  pongTimer: NodeJS.Timeout | null;
  /** Called with true on the next pong, false if the socket goes first. */
  readonly pongWaiters: Set<(alive: boolean) => void>;
  /** The optional messages the bridge listed in `hello.features`. */
  features: ReadonlySet<string>;
  /** Sent its hello: commands may be sent. */
  ready: boolean;
  /** Recorded in `bridge_connections` as held by this process. */
  claimed: boolean;
  bridgeVersion: string | null;
  /**
   * Commands written to this socket and not settled yet; a new connection starts empty, so everything
   * open is resent. A settled one leaves it (no delivery sends a settled command), so a connection
   * that lasts for weeks does not keep every id it ever carried.
   */
  readonly sent: Set<string>;
  /** Messages are handled one at a time, in arrival order. */
  work: Promise<void>;
  /** Seqs stored and not yet confirmed to the bridge. */
  delivered: number[];
  deliveredFlushScheduled: boolean;
  helloTimer: NodeJS.Timeout | null;
  closed: boolean;
  /**
   * How far the bridge's clock is ahead of this hub's, never overestimated: its latest stamp (hello
   * `sentAt`, ack `receivedAt`) minus when that frame reached this hub, which was later. Deadlines
   * are sent shifted by it, so a skewed bridge clock makes the bridge stop early, never late.
   */
  clockOffsetMs: number;
}

/** Wakes a waiting request: with the settled record when this process stored it, else to re-read. */
type Waiter = (settled?: BridgeCommandRecord) => void;

/** A new id for this cloud process's hub: host, pid and a random part (one per hub, two in one process differ). */
export function newCloudProcessId(): string {
  return `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
}

/**
 * The cloud's end of the edge bridges' WebSockets (`/bridge`). Authenticates each bridge by its
 * location's token on the upgrade, keeps the command outbox moving (sent after hello, resent on
 * every reconnect until a result arrives, expiry enforced by the bridge), stores results, events
 * and snapshots once each and confirms them so the bridge can delete them, and lets any cloud
 * process reach a bridge connected to another through the store and its notifications.
 */
export class BridgeHub {
  readonly processId: string;
  private readonly store: Store;
  private readonly logger: Logger;
  private readonly clock: Clock;
  private readonly heartbeatMs: number;
  private readonly pongTimeoutMs: number;
  private readonly liveWindowMs: number;
  private readonly startedAt: Date;
  private registered: Promise<void> | null = null;
  /** When a second bridge was last refused, per location (bursts of refusals alert once). */
  private readonly lastDuplicateAt = new Map<string, number>();
  private readonly helloTimeoutMs: number;
  private readonly sweepMs: number;
  private readonly resultPollMs: number;
  private readonly ttl: Record<CommandOp, number>;
  private readonly abandonAfterMs: number;
  private readonly wss: WebSocketServer;
  private readonly signals: HubSignalBus;
  private readonly sessions = new Map<string, BridgeSession>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  /** Ends every wait at once when the hub stops. */
  private readonly pendingWaits = new Set<() => void>();
  private readonly servers = new Set<Server>();
  private heartbeatTimer: NodeJS.Timeout | null = null;
  private sweepTimer: NodeJS.Timeout | null = null;
  private sweeping = false;
  private readonly flood: BridgeFloodGuard;
  private readonly eventRetentionMs: number;
  private lastEventPruneAt = 0;
  private started: Promise<void> | null = null;
  private stopped = false;

  constructor(options: BridgeHubOptions) {
    this.store = options.store;
    this.logger = options.logger.child({ component: 'bridge-hub' });
    this.clock = options.clock ?? systemClock;
    this.processId = options.processId ?? newCloudProcessId();
    this.heartbeatMs = options.heartbeatMs ?? 5_000;
    this.pongTimeoutMs = options.pongTimeoutMs ?? Math.max(1, Math.floor(this.heartbeatMs / 2));
    this.liveWindowMs = options.liveWindowMs ?? 2 * this.heartbeatMs + this.pongTimeoutMs;
    this.startedAt = this.clock.now();
    this.helloTimeoutMs = options.helloTimeoutMs ?? 10_000;
    this.sweepMs = options.sweepMs ?? 5_000;
    this.resultPollMs = options.resultPollMs ?? 1_000;
    this.ttl = { ...DEFAULT_COMMAND_TTL_MS, ...options.commandTtlMs };
    this.abandonAfterMs = options.abandonAfterMs ?? DEFAULT_ABANDON_AFTER_MS;
    this.flood = new BridgeFloodGuard(this.logger, { ...DEFAULT_FLOOD_LIMITS, ...options.floodLimits });
    this.eventRetentionMs = options.eventRetentionMs ?? DEFAULT_EVENT_RETENTION_MS;
    this.wss = new WebSocketServer({ noServer: true, maxPayload: BRIDGE_MAX_MESSAGE_BYTES });
    this.signals = new HubSignalBus({
      store: this.store,
      database: options.database,
      processId: this.processId,
      logger: this.logger,
      onSignal: (signal) => this.onSignal(signal),
      onResync: () => void this.sweep(),
    });
  }

  /** Accepts bridge WebSockets on the server's `/bridge` upgrades. */
  attach(server: Server): void {
    if (this.servers.has(server)) return;
    this.servers.add(server);
    server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) =>
      this.onUpgrade(server, req, socket, head),
    );
  }

  /** Starts the heartbeat, the outbox sweep and (PostgreSQL) the cross-process notifications. */
  start(): Promise<void> {
    if (this.started) return this.started;
    this.stopped = false;
    this.heartbeatTimer = setInterval(() => void this.heartbeat(), this.heartbeatMs);
    this.sweepTimer = setInterval(() => void this.sweep(), this.sweepMs);
    this.started = Promise.all([this.signals.start(), this.register()]).then(() => undefined);
    return this.started;
  }

  /**
   * Records this process for the others and removes what dead ones left: its own earlier lives
   * (same host and pid: restarted after a crash) at once, the others once their heartbeat lapsed.
   */
  private register(): Promise<void> {
    this.registered ??= (async () => {
      HUBS_IN_THIS_PROCESS.add(this.processId);
      const now = this.clock.now();
      await this.store.bridge.heartbeatProcess(this.processRecord(), now);
      const removed = await this.store.bridge.removeDeadProcesses(
        new Date(now.getTime() - this.liveWindowMs),
        { host: hostname(), pid: process.pid, keep: [...HUBS_IN_THIS_PROCESS] },
        await this.deadProcessesOnThisHost(),
      );
      if (removed.length > 0) {
        this.logger.warn({ locations: removed }, 'removed bridge connections left by dead cloud processes');
      }
    })().catch((error: unknown) => {
      this.registered = null;
      throw error;
    });
    return this.registered;
  }

  /**
   * Processes recorded on this host whose pid no longer runs: crashed (kill -9, out of memory), so
   * their bridge connections count for nothing now, not only once their heartbeat lapses. A process
   * on another host is judged by its heartbeat alone.
   */
  private async deadProcessesOnThisHost(): Promise<string[]> {
    const recorded = await this.store.bridge.processesOnHost(hostname());
    return recorded.filter((record) => !pidRuns(record.pid)).map((record) => record.processId);
  }

  private processRecord() {
    return { processId: this.processId, host: hostname(), pid: process.pid, startedAt: this.startedAt };
  }

  /** Resolves once `start` has finished (the LISTEN session is up); immediately if never started. */
  async whenStarted(): Promise<void> {
    await this.started;
  }

  /** Closes every bridge socket (they reconnect elsewhere or later) and stops the timers. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.started?.catch(() => undefined);
    this.started = null;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    if (this.sweepTimer) clearInterval(this.sweepTimer);
    this.heartbeatTimer = this.sweepTimer = null;
    // Gone from the store first, so a bridge reconnecting to another process at once is not
    // refused as a second one while this process still seems to hold it.
    HUBS_IN_THIS_PROCESS.delete(this.processId);
    if (this.registered) {
      await this.registered.catch(() => undefined);
      this.registered = null;
    }
    await this.store.bridge.removeProcess(this.processId).catch(() => undefined);
    const sessions = [...this.sessions.values()];
    for (const session of sessions) this.closeSession(session, 1001, 'cloud shutting down');
    await Promise.all(sessions.map((session) => session.work));
    await this.signals.stop();
    for (const finish of this.pendingWaits) finish();
  }

  // ── commands ────────────────────────────────────────────────────────────────────────────────

  /**
   * Adds a command to the outbox and gets it to the location's bridge, wherever it is connected.
   * A location's commands reach its bridge in the order they were added (the outbox's `seq`), even
   * two of one millisecond or from two processes: each delivery sends first what the site still lacks.
   */
  async issue(request: CommandRequest): Promise<IssuedCommand> {
    const now = this.clock.now();
    const id = request.id ?? `${request.op}-${randomUUID()}`;
    const expiresAt = request.expiresAt ?? new Date(now.getTime() + this.ttl[request.op]);
    const record = {
      id,
      locationKey: request.locationKey,
      op: request.op,
      lockerId: request.lockerId ?? null,
      params: request.params ?? null,
      transactionId: request.transactionId ?? null,
      issuedAt: now,
      expiresAt,
    };
    // Refuse here what the bridge would refuse, before anything is stored.
    wireCommand(record);
    const created = await this.store.bridge.insertCommand(record);
    // A new row is exactly what was inserted; an existing id is read as it stands.
    const command = created ? queuedCommand(record) : await this.store.bridge.getCommand(id);
    if (!command) throw new Error(`command ${id} vanished from the outbox`);
    if (created) {
      this.logger.info({ commandId: id, location: request.locationKey, op: request.op }, 'command queued');
      await this.signals.publish({ kind: 'command', location: request.locationKey, id });
    }
    return { command, created };
  }

  /**
   * Waits up to `timeoutMs` for the command to settle (succeeded, failed, expired or unknown), or
   * for what `until` waits for, and returns its record as it then stands, settled or not.
   */
  async waitForSettlement(
    id: string,
    timeoutMs: number,
    options: { justIssued?: boolean; until?: (command: BridgeCommandRecord) => boolean } = {},
  ): Promise<BridgeCommandRecord | null> {
    const done = options.until ?? ((command: BridgeCommandRecord) => isSettledStatus(command.status));
    let finish!: () => void;
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    let latest: BridgeCommandRecord | null = null;
    let checking = false;
    const check = async () => {
      if (checking) return;
      checking = true;
      try {
        latest = await this.store.bridge.getCommand(id);
        if (!latest || done(latest)) finish();
      } catch (error) {
        this.logger.warn({ err: error, commandId: id }, 'could not read a command while waiting for it');
      } finally {
        checking = false;
      }
    };
    const waiters = this.waiters.get(id) ?? new Set<Waiter>();
    waiters.add(finishOrCheck);
    this.waiters.set(id, waiters);
    function finishOrCheck(settled?: BridgeCommandRecord) {
      if (!settled) {
        void check();
        return;
      }
      latest = settled;
      if (done(settled)) finish();
    }
    const timer = setTimeout(finish, timeoutMs);
    const poll = setInterval(finishOrCheck, this.resultPollMs);
    this.pendingWaits.add(finish);
    // A command this very request has just inserted cannot have settled yet, and its delivery is
    // queued on the same store connection: reading it now only delays the delivery (command round
    // trip benchmark). The results wake the waiter; the poll still looks every resultPollMs.
    if (!options.justIssued) void check();
    try {
      await finished;
    } finally {
      clearTimeout(timer);
      clearInterval(poll);
      this.pendingWaits.delete(finish);
      waiters.delete(finishOrCheck);
      if (waiters.size === 0) this.waiters.delete(id);
    }
    const last = latest as BridgeCommandRecord | null;
    // Done is final: no need to read it again. Otherwise (timed out) answer with how it stands now.
    if (this.stopped || (last !== null && done(last))) return last;
    return this.store.bridge.getCommand(id);
  }

  /** The outbox entries of one booking, oldest first. */
  async commandsFor(transactionId: string): Promise<BridgeCommandRecord[]> {
    return this.store.bridge.commandsForTransaction(transactionId);
  }

  /** Takes back a command that has not been sent yet; false once it is on its way. */
  async withdraw(id: string): Promise<boolean> {
    const withdrawn = await this.store.bridge.withdrawQueued(
      id,
      { code: 'bridge/withdrawn', message: 'Withdrawn before it was sent' },
      this.clock.now(),
    );
    if (withdrawn) await this.signals.publish({ kind: 'result', id });
    return withdrawn;
  }

  /**
   * Proven online: the location's bridge said hello on this process and answers its pings (one that
   * misses a pong is terminated), or another process that is still heartbeating holds it and
   * recorded a pong lately. A row without such evidence (a crashed process's) does not count.
   */
  async isOnline(locationKey: string): Promise<boolean> {
    const session = this.sessions.get(locationKey);
    if (session?.ready && !session.closed) return true;
    return (await this.store.bridge.liveConnection(locationKey, this.liveAfter(), this.processId)) !== null;
  }

  /**
   * Whether the location's bridge is online (as `isOnline`) and when the cloud last heard from it:
   * now for a socket held here, the holding process's last heartbeat for one held elsewhere, else
   * the latest locker observation it sent.
   */
  async siteStatus(locationKey: string): Promise<{ online: boolean; lastSeenAt: Date | null }> {
    const session = this.sessions.get(locationKey);
    if (session?.ready && !session.closed) return { online: true, lastSeenAt: this.clock.now() };
    const connection = await this.store.bridge.liveConnection(locationKey, this.liveAfter(), this.processId);
    if (connection) return { online: true, lastSeenAt: connection.heartbeatAt };
    const states = await this.store.bridge.lockerStates(locationKey);
    const latest = Math.max(...states.map((state) => state.observedAt.getTime()));
    return { online: false, lastSeenAt: Number.isFinite(latest) ? new Date(latest) : null };
  }

  private liveAfter(): Date {
    return new Date(this.clock.now().getTime() - this.liveWindowMs);
  }

  /**
   * Gives up on a command nobody waits for any more (an open the operator was told timed out): it
   * is never (re)sent, and the bridge holding it is told (`cancel`) if it understands that. A result
   * the bridge still reports (it was already at the controller) is recorded. Answers the record as
   * it then stands: cancelled, or settled by a result that came first.
   */
  async cancel(id: string): Promise<BridgeCommandRecord | null> {
    const cancelled = await this.store.bridge.cancelOpen(id, this.clock.now());
    if (!cancelled) return this.store.bridge.getCommand(id);
    this.logger.warn(
      { commandId: id, location: cancelled.locationKey, op: cancelled.op, status: cancelled.status },
      'command not confirmed in time: cancelled',
    );
    await this.signals.publish({ kind: 'cancel', location: cancelled.locationKey, id });
    return cancelled;
  }

  /** Locations whose bridge is connected to this process and has said hello. */
  connectedLocations(): string[] {
    return [...this.sessions.values()].filter((s) => s.ready).map((s) => s.locationKey);
  }

  /** Closes the location's bridge socket as unauthorized, here and on every other process. */
  async revokeBridge(locationKey: string): Promise<void> {
    await this.signals.publish({ kind: 'revoked', location: locationKey });
  }

  // ── metrics (plain numbers for whoever exposes them) ────────────────────────────────────────

  bridgesConnectedHere(): number {
    return this.connectedLocations().length;
  }

  commandsAwaitingResultHere(): number {
    let awaiting = 0;
    for (const session of this.sessions.values()) awaiting += session.sent.size;
    return awaiting;
  }

  async bridgesConnected(): Promise<number> {
    return (await this.store.bridge.liveConnections(this.liveAfter())).length;
  }

  async commandsByStatus(): Promise<Record<CommandStatus, number>> {
    return this.store.bridge.countCommandsByStatus();
  }

  async oldestPendingCommandAgeSeconds(): Promise<number> {
    const oldest = await this.store.bridge.oldestOpenCommandIssuedAt();
    return oldest === null ? 0 : Math.max(0, (this.clock.now().getTime() - oldest.getTime()) / 1000);
  }

  async metrics(): Promise<BridgeHubMetrics> {
    const [bridgesConnected, commandsByStatus, oldestPendingCommandAgeSeconds] = await Promise.all([
      this.bridgesConnected(),
      this.commandsByStatus(),
      this.oldestPendingCommandAgeSeconds(),
    ]);
    return {
      bridgesConnectedHere: this.bridgesConnectedHere(),
      bridgesConnected,
      commandsByStatus,
      oldestPendingCommandAgeSeconds,
      commandsAwaitingResultHere: this.commandsAwaitingResultHere(),
    };
  }

  // ── connections ─────────────────────────────────────────────────────────────────────────────

  private onUpgrade(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(req.url ?? '/', 'http://cloud');
    if (url.pathname !== BRIDGE_WS_PATH) {
      // Other upgrade paths belong to whoever else listens; with nobody else, say so instead of hanging.
      if (server.listenerCount('upgrade') === 1) refuseUpgrade(socket, 404);
      return;
    }
    if (this.stopped) {
      refuseUpgrade(socket, 503);
      return;
    }
    socket.on('error', () => undefined);
    this.authenticate(req, url).then(
      (locationKey) => {
        if (!locationKey) {
          this.logger.warn({ remote: req.socket.remoteAddress }, 'bridge refused: bad token or location');
          refuseUpgrade(socket, 401);
          return;
        }
        if (this.stopped || socket.destroyed) {
          refuseUpgrade(socket, 503);
          return;
        }
        this.wss.handleUpgrade(req, socket, head, (ws) =>
          this.accept(ws, locationKey, req.socket.remoteAddress),
        );
      },
      (error: unknown) => {
        this.logger.error({ err: error }, 'bridge authentication failed');
        refuseUpgrade(socket, 503);
      },
    );
  }

  /** The location key the request's token was issued for, or null. */
  private async authenticate(req: IncomingMessage, url: URL): Promise<string | null> {
    const header = req.headers[BRIDGE_LOCATION_HEADER];
    const locationKey =
      (typeof header === 'string' ? header : null) ?? url.searchParams.get(BRIDGE_LOCATION_QUERY);
    const token = /^Bearer\s+(\S{1,4096})\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!locationKey || locationKey.length > 64 || !token) return null;
    // The old derivable demo token is refused even if a store still holds it.
    if (isLegacyDemoBridgeToken(token, locationKey)) return null;
    const storedHash = await this.store.bridge.tokenHash(locationKey);
    return storedHash !== null && bridgeTokenMatches(token, storedHash) ? locationKey : null;
  }

  private accept(socket: WebSocket, locationKey: string, remoteAddress: string | undefined): void {
    const session: BridgeSession = {
      id: randomUUID(),
      locationKey,
      lockers: new Set(),
      lockersReadAt: 0,
      pausedUntil: 0,
      socket,
      remoteAddress,
      pongTimer: null,
      pongWaiters: new Set(),
      features: new Set(),
      ready: false,
      claimed: false,
      bridgeVersion: null,
      sent: new Set(),
      work: Promise.resolve(),
      delivered: [],
      deliveredFlushScheduled: false,
      helloTimer: null,
      closed: false,
      clockOffsetMs: 0,
    };
    socket.on('pong', () => this.onPong(session));
    socket.on('message', (data: RawData, isBinary: boolean) => {
      // Before any queueing: a later instant would only make the clock offset look smaller (safe).
      const arrivedAt = this.clock.now().getTime();
      const raw = isBinary ? toBuffer(data) : toBuffer(data).toString('utf8');
      this.enqueue(session, async () => {
        // Past the socket's rate, reading stops and this message waits for the next window.
        const wait = await this.flood.admit(session.id, locationKey);
        if (wait > 0) await this.throttle(session, wait);
        await this.onMessage(session, raw, arrivedAt);
      });
    });
    socket.on('error', (error) =>
      this.logger.debug({ err: error, location: locationKey }, 'bridge socket error'),
    );
    socket.on('close', (code, reason) => this.onClose(session, code, reason.toString()));
    const previous = this.sessions.get(locationKey);
    // Messages wait on the session's work until it is decided which socket keeps the location.
    session.work = (previous ? this.contest(previous, session) : Promise.resolve(this.admit(session))).catch(
      (error: unknown) => {
        this.logger.error({ err: error, location: locationKey }, 'could not admit a bridge socket');
        this.closeSession(session, 1011, 'cloud failure');
      },
    );
  }

  private admit(session: BridgeSession): void {
    if (session.closed) return;
    this.sessions.set(session.locationKey, session);
    this.logger.info({ location: session.locationKey }, 'bridge connected');
    session.helloTimer = setTimeout(() => {
      if (!session.ready) this.closeSession(session, 1008, 'no hello');
    }, this.helloTimeoutMs);
  }

  /**
   * A second socket for a location this process holds. The held one keeps it while it answers a
   * ping (the newcomer is another bridge with the same token, or this one's own reconnect racing
   * its old socket's death): the newcomer is refused with 4409. Only a held socket that fails its
   * ping (or never said hello) is taken over.
   */
  private async contest(previous: BridgeSession, session: BridgeSession): Promise<void> {
    if (previous.ready && !previous.closed && (await this.probe(previous))) {
      await this.refuseDuplicate(session, 'another bridge holds this location on this cloud process');
      return;
    }
    if (!previous.closed) {
      this.logger.warn({ location: previous.locationKey }, 'held bridge socket did not answer; taken over');
      this.closeSession(previous, BRIDGE_CLOSE_CODES.replaced, 'another bridge connected');
      previous.socket.terminate();
    }
    this.admit(session);
  }

  /**
   * Stops reading the socket for `ms` (its frames wait in the kernel, the bridge's writes slow
   * down). Its pongs wait too, so no ping is judged meanwhile; an outstanding one is sent again after.
   */
  private async throttle(session: BridgeSession, ms: number): Promise<void> {
    session.pausedUntil = Date.now() + ms;
    const pinged = session.pongTimer !== null;
    if (session.pongTimer) clearTimeout(session.pongTimer);
    session.pongTimer = null;
    session.socket.pause();
    await new Promise((resolve) => setTimeout(resolve, ms));
    session.pausedUntil = 0;
    session.socket.resume();
    if (pinged) this.ping(session);
  }

  /** True when the bridge answers a ping within the pong timeout (an outstanding ping counts). */
  private probe(session: BridgeSession): Promise<boolean> {
    return new Promise((resolve) => {
      session.pongWaiters.add(resolve);
      this.ping(session);
    });
  }

  private ping(session: BridgeSession): void {
    if (session.pongTimer || session.closed || session.pausedUntil > Date.now()) return;
    if (session.socket.readyState !== WebSocket.OPEN) return;
    session.pongTimer = setTimeout(() => {
      session.pongTimer = null;
      this.logger.warn(
        { location: session.locationKey, pongTimeoutMs: this.pongTimeoutMs },
        'bridge did not answer a ping; terminating',
      );
      session.socket.terminate();
      this.settlePongWaiters(session, false);
    }, this.pongTimeoutMs);
    session.socket.ping();
  }

  private onPong(session: BridgeSession): void {
    if (session.pongTimer) clearTimeout(session.pongTimer);
    session.pongTimer = null;
    this.settlePongWaiters(session, true);
  }

  private settlePongWaiters(session: BridgeSession, alive: boolean): void {
    for (const waiter of session.pongWaiters) waiter(alive);
    session.pongWaiters.clear();
  }

  /** Closes a second bridge with 4409 and tells the operators, once per burst of refusals. */
  private async refuseDuplicate(session: BridgeSession, why: string): Promise<void> {
    const { locationKey } = session;
    this.closeSession(session, BRIDGE_CLOSE_CODES.replaced, why);
    const now = this.clock.now();
    const last = this.lastDuplicateAt.get(locationKey);
    this.lastDuplicateAt.set(locationKey, now.getTime());
    const details = { location: locationKey, remote: session.remoteAddress, why };
    if (last !== undefined && now.getTime() - last < DUPLICATE_ALERT_QUIET_MS) {
      this.logger.warn(details, 'second bridge with the same token refused again');
      return;
    }
    const message =
      `Due bridge usano il token della sede ${locationKey}: il secondo ` +
      `(${session.remoteAddress ?? 'indirizzo sconosciuto'}) è stato rifiutato e i comandi vanno al ` +
      'primo. Spegnere il bridge in più o dargli il token della sua sede (ogni sede ha il suo).';
    this.logger.error(details, message);
    try {
      await this.store.errorLog.add({
        at: now,
        type: DUPLICATE_BRIDGE_LOG_TYPE,
        locationKey,
        lockerId: null,
        message,
      });
    } catch (failure) {
      this.logger.error({ err: failure, location: locationKey }, 'could not log a duplicate bridge');
    }
  }

  private onClose(session: BridgeSession, code: number, reason: string): void {
    session.closed = true;
    this.flood.forget(session.id);
    session.ready = false;
    if (session.helloTimer) clearTimeout(session.helloTimer);
    if (session.pongTimer) clearTimeout(session.pongTimer);
    session.pongTimer = null;
    this.settlePongWaiters(session, false);
    if (this.sessions.get(session.locationKey) === session) this.sessions.delete(session.locationKey);
    this.logger.info({ location: session.locationKey, code, reason }, 'bridge disconnected');
    if (!session.claimed) return;
    void session.work.then(async () => {
      // A newer socket of this process for the location keeps the claim.
      if (this.sessions.get(session.locationKey)?.ready) return;
      await this.store.bridge
        .releaseConnection(session.locationKey, this.processId)
        .catch((error: unknown) => this.logger.warn({ err: error }, 'could not release a bridge connection'));
    });
  }

  private closeSession(session: BridgeSession, code: number, reason: string): void {
    if (session.closed) return;
    session.closed = true;
    session.ready = false;
    if (session.helloTimer) clearTimeout(session.helloTimer);
    this.logger.info({ location: session.locationKey, code, reason }, 'closing bridge socket');
    if (session.socket.readyState === WebSocket.OPEN || session.socket.readyState === WebSocket.CONNECTING) {
      session.socket.close(code, reason);
      // A peer that does not complete the closing handshake is cut off.
      setTimeout(() => session.socket.terminate(), 2_000).unref();
    }
  }

  /** Runs the session's work in order; a storage failure drops the socket so the bridge resends later. */
  private enqueue(session: BridgeSession, task: () => Promise<void>): void {
    session.work = session.work.then(task).catch((error: unknown) => {
      this.logger.error({ err: error, location: session.locationKey }, 'bridge message handling failed');
      this.closeSession(session, 1011, 'cloud storage failure');
    });
  }

  /**
   * Pings every bridge (one that misses the pong is terminated), then renews the evidence the other
   * processes go by: this process's row, and the rows of the bridges that answered, and removes
   * what processes that stopped heartbeating left.
   */
  private async heartbeat(): Promise<void> {
    // Sockets still waiting for a pong are not vouched for in this heartbeat.
    const answered = [...this.sessions.values()].filter((session) => session.ready && !session.pongTimer);
    for (const session of [...this.sessions.values()]) this.ping(session);
    try {
      const now = this.clock.now();
      await this.store.bridge.heartbeatProcess(this.processRecord(), now);
      await this.store.bridge.heartbeatConnections(
        this.processId,
        answered
          .filter((session) => !session.closed)
          .map((session) => ({ locationKey: session.locationKey, bridgeVersion: session.bridgeVersion })),
        now,
      );
      const removed = await this.store.bridge.removeDeadProcesses(
        new Date(now.getTime() - this.liveWindowMs),
        undefined,
        await this.deadProcessesOnThisHost(),
      );
      if (removed.length > 0) {
        this.logger.warn(
          { locations: removed },
          'removed bridge connections of cloud processes that stopped',
        );
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'could not record the bridge heartbeat');
    }
  }

  /** Settles what can no longer run, wakes waiters, and re-offers open commands to held bridges. */
  private async sweep(): Promise<void> {
    if (this.sweeping || this.stopped) return;
    this.sweeping = true;
    try {
      const now = this.clock.now();
      const expired = await this.store.bridge.expireUndelivered(now);
      const abandoned = await this.store.bridge.abandonUnanswered(
        new Date(now.getTime() - this.abandonAfterMs),
        now,
      );
      for (const id of [...expired, ...abandoned]) await this.signals.publish({ kind: 'result', id });
      if (now.getTime() - this.lastEventPruneAt >= EVENT_PRUNE_INTERVAL_MS) {
        this.lastEventPruneAt = now.getTime();
        const pruned = await this.store.bridge.deleteEventsBefore(
          new Date(now.getTime() - this.eventRetentionMs),
        );
        if (pruned > 0) this.logger.info({ pruned }, 'deleted bridge events past their retention');
      }
      for (const session of this.sessions.values()) {
        if (session.ready) this.enqueue(session, () => this.deliverOpenCommands(session));
      }
    } catch (error) {
      this.logger.warn({ err: error }, 'bridge outbox sweep failed');
    } finally {
      this.sweeping = false;
    }
  }

  private onSignal(signal: HubSignal): void {
    switch (signal.kind) {
      case 'command': {
        const session = this.sessions.get(signal.location);
        if (!session?.ready) return;
        this.enqueue(session, async () => {
          // What the site still lacks goes first, in the order it was added: a command another
          // process added a moment before this one may still have its NOTIFY on the way.
          await this.deliverOpenCommands(session);
          await this.deliverCommand(session, signal.id);
        });
        return;
      }
      case 'result':
        this.forgetSent(signal.id);
        this.wakeWaiters(signal.id);
        return;
      case 'cancel': {
        this.forgetSent(signal.id);
        this.wakeWaiters(signal.id);
        const session = this.sessions.get(signal.location);
        if (session?.ready && session.features.has('cancel')) {
          this.sendMessage(session, { type: 'cancel', commandId: signal.id });
        }
        return;
      }
      case 'probe': {
        const session = this.sessions.get(signal.location);
        if (session?.ready) void this.probe(session);
        return;
      }
      case 'connected': {
        const session = this.sessions.get(signal.location);
        if (session && signal.processId !== this.processId) {
          this.closeSession(
            session,
            BRIDGE_CLOSE_CODES.replaced,
            'the bridge connected to another cloud process',
          );
        }
        return;
      }
      case 'revoked': {
        const session = this.sessions.get(signal.location);
        if (session) this.closeSession(session, BRIDGE_CLOSE_CODES.unauthorized, 'bridge token revoked');
        return;
      }
    }
  }

  // ── delivery ────────────────────────────────────────────────────────────────────────────────

  private async deliverOpenCommands(session: BridgeSession): Promise<void> {
    const open = await this.store.bridge.openCommands(session.locationKey, MAX_COMMANDS_PER_DELIVERY);
    for (const command of open) {
      if (session.closed) return;
      if (!session.sent.has(command.id)) await this.send(session, command);
    }
  }

  /** A settled command (here or on another process) is no longer one a socket carries. */
  private forgetSent(id: string): void {
    for (const session of this.sessions.values()) session.sent.delete(id);
  }

  private wakeWaiters(id: string, settled?: BridgeCommandRecord): void {
    for (const wake of this.waiters.get(id) ?? []) wake(settled);
  }

  /** The command, when the delivery of the site's open commands did not reach it (past its batch). */
  private async deliverCommand(session: BridgeSession, id: string): Promise<void> {
    if (session.closed || session.sent.has(id)) return;
    const command = await this.store.bridge.getCommand(id);
    if (command && command.locationKey === session.locationKey && !isSettledStatus(command.status)) {
      await this.send(session, command);
    }
  }

  private async send(session: BridgeSession, command: BridgeCommandRecord): Promise<void> {
    let wire: BridgeCommand;
    try {
      // The deadline on the bridge's clock: the bridge checks it against its own, right before the
      // controller call, and must stop no later than this hub's instant (an operator was answered).
      wire = wireCommand({
        ...command,
        expiresAt: new Date(command.expiresAt.getTime() + session.clockOffsetMs),
      });
    } catch (error) {
      await this.store.bridge.settle(
        command.id,
        'failed',
        { code: 'bridge/invalid_command', message: String(error).slice(0, 2000) },
        this.clock.now(),
      );
      await this.signals.publish({ kind: 'result', id: command.id });
      return;
    }
    // Recorded as sent before it is written: a command the sweep settled meanwhile never leaves.
    if (!(await this.store.bridge.markSent(command.id, this.clock.now()))) return;
    if (session.closed || session.socket.readyState !== WebSocket.OPEN) return;
    session.sent.add(command.id);
    this.sendMessage(session, wire);
  }

  private sendMessage(session: BridgeSession, message: CloudToBridgeMessage): void {
    session.socket.send(JSON.stringify(message));
  }

  /** Confirms stored items to the bridge in batches, once the messages already received are handled. */
  private confirmDelivered(session: BridgeSession, seq: number): void {
    session.delivered.push(seq);
    if (session.deliveredFlushScheduled) return;
    session.deliveredFlushScheduled = true;
    setImmediate(() => {
      session.deliveredFlushScheduled = false;
      if (session.closed || session.socket.readyState !== WebSocket.OPEN) {
        session.delivered = [];
        return;
      }
      while (session.delivered.length > 0) {
        this.sendMessage(session, {
          type: 'delivered',
          seqs: session.delivered.splice(0, MAX_DELIVERED_SEQS),
        });
      }
    });
  }

  // ── bridge → cloud ──────────────────────────────────────────────────────────────────────────

  private async onMessage(session: BridgeSession, raw: string | Buffer, arrivedAt: number): Promise<void> {
    if (session.closed) return;
    const parsed = parseBridgeToCloud(raw);
    if (!parsed.ok) {
      if (isOtherProtocolHello(raw)) {
        this.closeSession(
          session,
          BRIDGE_CLOSE_CODES.unsupportedProtocol,
          `this hub speaks protocol ${BRIDGE_PROTOCOL_VERSION}`,
        );
        return;
      }
      if (await this.flood.invalid(session.id, session.locationKey, parsed.error.message)) {
        this.closeSession(session, 1008, 'too many invalid messages');
      }
      return;
    }
    await this.handle(session, parsed.message, arrivedAt);
  }

  private async handle(
    session: BridgeSession,
    message: BridgeToCloudMessage,
    arrivedAt: number,
  ): Promise<void> {
    const { locationKey } = session;
    const now = this.clock.now();
    if (message.type !== 'hello' && !session.ready) {
      // Nothing counts before the hello is taken: another bridge with this token, connected to a
      // process that does not hold the site, would otherwise report doors, states and results for
      // it before the hello's claim refuses it (protocol v1: the hello comes first).
      this.logger.warn(
        { location: locationKey, type: message.type },
        'bridge message before its hello; closing',
      );
      this.closeSession(session, 1008, 'hello first');
      return;
    }
    switch (message.type) {
      case 'hello': {
        if (message.locationKey !== locationKey) {
          this.closeSession(session, BRIDGE_CLOSE_CODES.unauthorized, 'token not issued for this location');
          return;
        }
        this.measureClock(session, message.sentAt, arrivedAt);
        if (Math.abs(session.clockOffsetMs) > CLOCK_OFFSET_WARN_MS) {
          this.logger.warn(
            { location: locationKey, clockOffsetMs: session.clockOffsetMs },
            "the bridge's clock differs from the cloud's; command deadlines are sent on the bridge's clock",
          );
        }
        session.bridgeVersion = message.bridgeVersion;
        session.features = new Set(message.features ?? []);
        await this.readLockers(session);
        await this.register();
        // Online from here on, for every process, unless another process holds a live bridge for
        // the location (one answering its pings): then this one is a second bridge and is refused.
        const claim = () =>
          this.store.bridge.claimConnection(
            locationKey,
            this.processId,
            message.bridgeVersion,
            this.clock.now(),
            this.liveAfter(),
          );
        let claimed = await claim();
        if (!claimed) {
          // Held on another process: it pings its socket now and drops it if it does not answer
          // (this bridge's own earlier connection, half-open); only then is this one let in.
          await this.signals.publish({ kind: 'probe', location: locationKey });
          await new Promise((resolve) => setTimeout(resolve, this.pongTimeoutMs + PROBE_RELEASE_MARGIN_MS));
          claimed = !session.closed && (await claim());
        }
        if (!claimed) {
          if (session.helloTimer) clearTimeout(session.helloTimer);
          await this.refuseDuplicate(session, 'another bridge holds this location on another cloud process');
          return;
        }
        // A process still holding an older, silent socket for the location drops it.
        await this.signals.publish({ kind: 'connected', location: locationKey, processId: this.processId });
        session.ready = true;
        session.claimed = true;
        if (session.helloTimer) clearTimeout(session.helloTimer);
        this.logger.info(
          { location: locationKey, bridgeVersion: message.bridgeVersion, buffered: message.buffered },
          'bridge said hello',
        );
        if (session.features.has('hello-ack')) this.sendMessage(session, { type: 'hello-ack' });
        if (session.features.has('cancel')) {
          // Cancels the bridge may have missed while the link was down. Past its deadline the bridge
          // drops a command by itself; the cancel is repeated a while longer all the same, for a
          // bridge whose clock was set back after the deadline went out.
          const expiringAfter = new Date(now.getTime() - CANCEL_REPEAT_AFTER_EXPIRY_MS);
          for (const id of await this.store.bridge.unconfirmedCancellations(locationKey, expiringAfter)) {
            this.sendMessage(session, { type: 'cancel', commandId: id });
          }
        }
        await this.deliverOpenCommands(session);
        return;
      }
      case 'ack':
        this.measureClock(session, message.receivedAt, arrivedAt);
        await this.store.bridge.markAcked(locationKey, message.commandId, now);
        return;
      case 'rejected': {
        this.logger.warn({ location: locationKey, rejected: message }, 'bridge rejected a message');
        if (!message.commandId) return;
        const command = await this.store.bridge.getCommand(message.commandId);
        if (command?.locationKey !== locationKey) return;
        if (await this.store.bridge.settle(command.id, 'failed', message.error, now)) {
          await this.signals.publish({ kind: 'result', id: command.id });
          await this.reportUnprogrammedPin(command, message.error);
        }
        return;
      }
      case 'result':
        await this.onResult(session, message, now);
        this.confirmDelivered(session, message.seq);
        return;
      case 'snapshot':
        await this.store.bridge.applyLockerStates(
          locationKey,
          (await this.knownLockers(session, message.lockers)).map((locker) => ({
            lockerId: locker.lockerId,
            occupancy: locker.occupancy,
            doorOpen: locker.doorOpen,
            code: locker.code,
            observedAt: new Date(message.takenAt),
          })),
          now,
        );
        this.confirmDelivered(session, message.seq);
        return;
      case 'event':
        await this.onEvent(session, message, now);
        this.confirmDelivered(session, message.seq);
        return;
    }
  }

  /**
   * The bridge stamped `stamp` on its clock before the frame arrived here at `arrivedAt` on the
   * hub's: their difference is at most how far its clock is ahead (less by the transit). The latest
   * is kept, so a clock that is set is followed from the bridge's next hello or ack on.
   */
  private measureClock(session: BridgeSession, stamp: string, arrivedAt: number): void {
    session.clockOffsetMs = Date.parse(stamp) - arrivedAt;
  }

  /**
   * A paid booking whose PIN did not reach its locker (the controller refused it, e.g. because the
   * locker still holds another booking, or the outcome is unknown) leaves a visitor who cannot open:
   * the operators' log says so, with what to do.
   */
  private async reportUnprogrammedPin(
    command: BridgeCommandRecord,
    error: { code: string; message: string },
  ): Promise<void> {
    if (command.op !== 'book') return;
    const message =
      `PIN della prenotazione ${command.transactionId ?? '?'} non programmato sul locker ` +
      `${command.lockerId ?? '?'} (${error.code}: ${error.message}). ` +
      'Verificare il locker e aprirlo al cliente da Gestione Locker.';
    this.logger.error({ commandId: command.id, location: command.locationKey, error }, message);
    try {
      await this.store.errorLog.add({
        at: this.clock.now(),
        type: PIN_NOT_PROGRAMMED_LOG_TYPE,
        locationKey: command.locationKey,
        lockerId: command.lockerId,
        message: message.slice(0, 4000),
      });
    } catch (failure) {
      this.logger.error({ err: failure, commandId: command.id }, 'could not log an unprogrammed PIN');
    }
  }

  private async onResult(session: BridgeSession, result: ResultMessage, now: Date): Promise<void> {
    const outcome = await this.store.bridge.recordResult(session.locationKey, result, now);
    if (!outcome.command) {
      this.logger.warn(
        { location: session.locationKey, commandId: result.commandId },
        'result for an unknown command',
      );
      return;
    }
    if (!outcome.applied) return;
    const { command } = outcome;
    this.logger.info(
      { location: session.locationKey, commandId: command.id, op: command.op, status: result.status },
      'command settled',
    );
    const observedAt = new Date(result.completedAt);
    const changes: LockerStateChange[] = (result.data?.lockers ?? []).map((locker) => ({
      lockerId: locker.lockerId,
      occupancy: locker.occupancy,
      doorOpen: locker.doorOpen,
      code: locker.code,
      observedAt,
    }));
    const implied = IMPLIED_OCCUPANCY[command.op];
    if (result.status === 'SUCCEEDED' && implied && command.lockerId !== null) {
      changes.push({ lockerId: command.lockerId, occupancy: implied, observedAt });
    }
    await this.store.bridge.applyLockerStates(session.locationKey, changes, now);
    // Requests waiting here answer with the record just stored; other processes are told to look.
    this.wakeWaiters(command.id, command);
    await this.signals.publish({ kind: 'result', id: command.id });
    if (result.status !== 'SUCCEEDED') {
      await this.reportUnprogrammedPin(
        command,
        result.error ?? { code: result.status, message: 'no detail' },
      );
    }
  }

  /** Reads the location's locker numbers into the session. */
  private async readLockers(session: BridgeSession): Promise<void> {
    const lockers = await this.store.locations.lockers(session.locationKey);
    session.lockers = new Set(lockers.map((locker) => locker.number));
    session.lockersReadAt = Date.now();
  }

  /**
   * The items about lockers the location has; the others are counted for the burst's log line.
   * An unknown number re-reads the lockers (at most every 30 s): an operator may have added some.
   */
  private async knownLockers<T extends { lockerId: number }>(
    session: BridgeSession,
    items: readonly T[],
  ): Promise<T[]> {
    if (
      items.some((item) => !session.lockers.has(item.lockerId)) &&
      Date.now() - session.lockersReadAt > LOCKER_SET_REFRESH_MS
    ) {
      await this.readLockers(session);
    }
    return items.filter((item) => {
      if (session.lockers.has(item.lockerId)) return true;
      this.flood.unknownLocker(session.id, session.locationKey, item.lockerId);
      return false;
    });
  }

  private async onEvent(session: BridgeSession, event: EventMessage, now: Date): Promise<void> {
    // Confirmed to the bridge all the same (the caller does), so its buffer does not resend it.
    if ((await this.knownLockers(session, [event])).length === 0) return;
    const { id, seq, kind, lockerId, occurredAt, type: _type, ...payload } = event;
    const stored = await this.store.bridge.insertEvent(
      {
        id,
        locationKey: session.locationKey,
        seq,
        kind,
        lockerId,
        occurredAt: new Date(occurredAt),
        payload,
      },
      now,
    );
    if (!stored) return;
    const observedAt = new Date(occurredAt);
    const change: LockerStateChange | null =
      event.kind === 'state-change'
        ? { lockerId, occupancy: event.to, observedAt }
        : event.kind === 'door'
          ? { lockerId, doorOpen: event.door === 'opened', observedAt }
          : event.ok && IMPLIED_OCCUPANCY[event.action]
            ? { lockerId, occupancy: IMPLIED_OCCUPANCY[event.action], observedAt }
            : null;
    if (change) await this.store.bridge.applyLockerStates(session.locationKey, [change], now);
  }
}

/** A command as `insertCommand` stores it: queued, never sent. */
function queuedCommand(command: NewBridgeCommand): BridgeCommandRecord {
  return {
    ...command,
    status: 'queued',
    attempts: 0,
    lastSentAt: null,
    ackedAt: null,
    completedAt: null,
    result: null,
    error: null,
  };
}

/** The command as it travels to the bridge; throws if the bridge could not accept it. */
export function wireCommand(command: {
  id: string;
  op: CommandOp;
  lockerId: number | null;
  params: Record<string, unknown> | null;
  issuedAt: Date;
  expiresAt: Date;
}): BridgeCommand {
  return commandSchema.parse({
    type: 'command',
    id: command.id,
    op: command.op,
    issuedAt: command.issuedAt.toISOString(),
    expiresAt: command.expiresAt.toISOString(),
    ...(command.lockerId === null ? {} : { lockerId: command.lockerId }),
    ...(command.params === null ? {} : { params: command.params }),
  });
}

function refuseUpgrade(socket: Duplex, status: number): void {
  if (socket.destroyed) return;
  const body =
    status === 401
      ? JSON.stringify(errorBody('auth/unauthorized', 'Bridge token or location not accepted'))
      : JSON.stringify({
          error: { code: status === 404 ? 'route/not_found' : 'internal', message: STATUS_CODES[status] },
        });
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n` +
      'Connection: close\r\n' +
      'Content-Type: application/json\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      (status === 401 ? 'WWW-Authenticate: Bearer\r\n' : '') +
      `\r\n${body}`,
  );
}

function toBuffer(data: RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}

function isOtherProtocolHello(raw: string | Buffer): boolean {
  try {
    const value = JSON.parse(typeof raw === 'string' ? raw : raw.toString('utf8')) as unknown;
    return (
      typeof value === 'object' &&
      value !== null &&
      (value as { type?: unknown }).type === 'hello' &&
      (value as { protocolVersion?: unknown }).protocolVersion !== BRIDGE_PROTOCOL_VERSION
    );
  } catch {
    return false;
  }
}
