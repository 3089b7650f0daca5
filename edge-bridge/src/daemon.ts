// The edge-bridge daemon: keeps the link to the cloud, relays commands to the locker controller,
// polls the lockers, and buffers everything the cloud must hear until it confirms delivery.
import type { Server } from 'node:http';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { pino, type Logger } from 'pino';
import {
  BRIDGE_FEATURES,
  BRIDGE_PROTOCOL_VERSION,
  type CloudToBridgeMessage,
} from '@deposito/protocol/bridge/v1';
import { BridgeBuffer } from './buffer/bridge-buffer';
import { CommandRunner, DEFAULT_COMMAND_RETRY, type RetryPolicy } from './command-runner';
import { ControllerClient } from './controller/controller-client';
import { bufferPath, type BridgeConfig } from './env';
import { BridgeLink } from './link/bridge-link';
import { StatePoller } from './state-poller';
import { startStatusServer, type HealthReport } from './status-server';
import { isoTime, systemClock, type Clock, type TimerHandle } from './clock';
import { BRIDGE_VERSION } from './version';

export { BRIDGE_VERSION };

/** Settled commands are remembered this long, to recognise a resent id. */
const COMMAND_RETENTION_MS = 7 * 24 * 3600_000;
const REPLAY_BATCH = 200;

export interface BridgeDaemonOptions {
  config: BridgeConfig;
  clock?: Clock;
  random?: () => number;
  logger?: Logger;
  commandRetry?: RetryPolicy;
  heartbeatMs?: number;
  /** Reports delivery of the backlog after a reconnect (sent so far, backlog size). */
  onReplayProgress?: (sent: number, total: number) => void;
  /** Called when the cloud refuses the bridge's credentials (the link has stopped). */
  onLinkRefused?: (reason: string) => void;
}

export class BridgeDaemon {
  readonly buffer: BridgeBuffer;
  readonly controller: ControllerClient;
  readonly link: BridgeLink;
  private readonly config: BridgeConfig;
  private readonly clock: Clock;
  private readonly logger: Logger;
  private readonly runner: CommandRunner;
  private readonly poller: StatePoller;
  private server: Server | null = null;
  private tickTimer: TimerHandle | null = null;
  private ticking: Promise<void> | null = null;
  private stopped = false;
  private lastSentSeq = 0;
  private flushing = false;
  private flushAgain = false;
  private replay: { total: number; sent: number } | null = null;
  private lastPruneAt = 0;
  private startedAt: number | null = null;

  constructor(private readonly options: BridgeDaemonOptions) {
    const { config } = options;
    this.config = config;
    this.clock = options.clock ?? systemClock;
    this.logger =
      options.logger ?? pino({ level: config.logLevel, base: { locationKey: config.locationKey } });
    const random = options.random ?? Math.random;
    this.buffer = BridgeBuffer.open(bufferPath(config), { maxOutboxItems: config.maxOutboxItems });
    this.controller = new ControllerClient({ ...config.controller, clock: this.clock });
    // The poller and the command runner share the site's buffer, controller and clock.
    const site = { buffer: this.buffer, controller: this.controller, clock: this.clock };
    this.poller = new StatePoller({
      ...site,
      logger: this.logger.child({ component: 'poller' }),
      snapshotIntervalMs: config.snapshotIntervalMs,
    });
    this.runner = new CommandRunner({
      ...site,
      logger: this.logger.child({ component: 'commands' }),
      random,
      retry: options.commandRetry ?? DEFAULT_COMMAND_RETRY,
      reconcileWindowMs: config.reconcileWindowMs,
      onResult: () => void this.flushOutbox(),
    });
    this.link = new BridgeLink({
      cloudUrl: config.cloudUrl,
      token: config.bridgeToken,
      locationKey: config.locationKey,
      logger: this.logger.child({ component: 'link' }),
      clock: this.clock,
      random,
      ...(config.linkBackoff ? { backoff: config.linkBackoff } : {}),
      ...(options.heartbeatMs ? { heartbeatMs: options.heartbeatMs } : {}),
      onOpen: () => this.onLinkOpen(),
      onMessage: (message) => this.onCloudMessage(message),
      onInvalidMessage: (failure) => {
        this.link.send({
          type: 'rejected',
          ...(failure.commandId ? { commandId: failure.commandId } : {}),
          error: failure.error,
        });
      },
      onRefused: ({ reason }) => options.onLinkRefused?.(reason),
    });
  }

  /** Starts everything; resolves with the status server's port once it listens. */
  async start(): Promise<{ httpPort: number }> {
    const { server, port } = await startStatusServer(() => this.health(), this.config.http);
    this.server = server;
    this.startedAt = this.clock.now();
    this.runner.recoverInterrupted();
    this.link.start();
    this.logger.info(
      { httpPort: port, controller: `${this.config.controller.recipient}:${this.config.controller.port}` },
      'edge bridge started',
    );
    void this.runner.drain();
    this.scheduleTick(0);
    return { httpPort: port };
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.tickTimer !== null) this.clock.clearTimeout(this.tickTimer);
    await this.link.stop();
    await this.runner.stop();
    await this.ticking;
    if (this.server) {
      this.server.closeAllConnections();
      await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    }
    this.buffer.close();
    this.logger.info('edge bridge stopped');
  }

  /** One poll cycle: poll, settle unknown outcomes, run due commands, deliver. Runs on a timer. */
  async tick(): Promise<void> {
    if (this.ticking) return this.ticking;
    this.ticking = this.runTick().finally(() => {
      this.ticking = null;
    });
    return this.ticking;
  }

  private async runTick(): Promise<void> {
    try {
      const report = await this.poller.poll();
      if (report.ok) this.runner.reconcile((id) => this.poller.observed(id));
      await this.runner.drain();
      await this.flushOutbox(); // picks up items other processes (the CLI) wrote to the buffer
      const now = this.clock.now();
      if (now - this.lastPruneAt > 3600_000) {
        this.lastPruneAt = now;
        this.buffer.pruneCommands(now - COMMAND_RETENTION_MS);
      }
    } catch (error) {
      this.logger.error({ err: error }, 'poll cycle failed');
    }
  }

  health(): HealthReport {
    const now = this.clock.now();
    const stats = this.buffer.stats();
    const poll = this.poller.lastPoll;
    const oldest = stats.outbox.oldestCreatedAt;
    const up = this.link.isAccepted;
    const controllerProblem = this.controllerProblem(now);
    const problems = [...(up ? [] : [this.linkProblem()]), ...(controllerProblem ? [controllerProblem] : [])];
    return {
      status: up && poll?.ok && !controllerProblem ? 'ok' : 'degraded',
      problems,
      locationKey: this.config.locationKey,
      bridgeVersion: BRIDGE_VERSION,
      now: isoTime(now),
      link: {
        up,
        state: this.link.state,
        connectedSince: this.link.connectedSince === null ? null : isoTime(this.link.connectedSince),
        lastError: this.link.lastError,
        reconnects: this.link.reconnects,
      },
      controller: {
        healthy: controllerProblem === null,
        problem: controllerProblem,
        lastPollAt: poll ? isoTime(poll.at) : null,
        lastPollOk: poll ? poll.ok : null,
        lastPollError: poll?.error ?? null,
        lastSuccessAt: this.poller.lastSuccessAt === null ? null : isoTime(this.poller.lastSuccessAt),
        latencyMs: this.controller.lastLatencyMs,
      },
      buffer: {
        depth: stats.outbox.total,
        results: stats.outbox.results,
        events: stats.outbox.events,
        snapshots: stats.outbox.snapshots,
        oldestBufferedAt: oldest === null ? null : isoTime(oldest),
        oldestAgeSeconds: oldest === null ? null : Math.max(0, Math.round((now - oldest) / 1000)),
      },
      commands: stats.commands,
    };
  }

  /** Why the link does not hold the site: down (and why), or open but not yet taken by the cloud. */
  private linkProblem(): string {
    if (this.link.isUp)
      return 'not linked to the cloud (open, but the cloud has not accepted this bridge yet)';
    return `not linked to the cloud (${this.link.state}${this.link.lastError ? `: ${this.link.lastError}` : ''})`;
  }

  /**
   * Why the controller cannot be relied on now, or null. A hung controller shows within its timeout:
   * the request in progress fails then, and so does the poll waiting behind it.
   */
  private controllerProblem(now: number): string | null {
    const poll = this.poller.lastPoll;
    if (poll && !poll.ok) return `controller: the last state poll failed: ${poll.error ?? 'unknown error'}`;
    const exchange = this.controller.lastExchange;
    if (exchange && !exchange.answered) {
      return `controller: no proper answer to the last request: ${exchange.error ?? 'unknown error'}`;
    }
    // Polls follow each other pollIntervalMs apart, each (and a command run between) bounded by the timeout.
    const since = this.poller.lastSuccessAt ?? this.startedAt;
    const overdueMs = this.config.pollIntervalMs + 2 * this.controller.timeoutMs;
    if (since !== null && now - since > overdueMs) {
      return `controller: no successful state poll for ${Math.round((now - since) / 1000)} s`;
    }
    return null;
  }

  private scheduleTick(delay: number): void {
    if (this.stopped) return;
    this.tickTimer = this.clock.setTimeout(() => {
      this.tickTimer = null;
      void this.tick().finally(() => this.scheduleTick(this.config.pollIntervalMs));
    }, delay);
  }

  private onLinkOpen(): void {
    const stats = this.buffer.stats();
    this.link.send({
      type: 'hello',
      protocolVersion: BRIDGE_PROTOCOL_VERSION,
      bridgeVersion: BRIDGE_VERSION,
      locationKey: this.config.locationKey,
      buffered: {
        results: stats.outbox.results,
        events: stats.outbox.events,
        snapshots: stats.outbox.snapshots,
        pendingCommands: stats.commands.RECEIVED + stats.commands.RUNNING + stats.commands.RETRYING,
      },
      oldestBufferedAt: stats.outbox.oldestCreatedAt === null ? null : isoTime(stats.outbox.oldestCreatedAt),
      sentAt: isoTime(this.clock.now()),
      features: [...BRIDGE_FEATURES],
    });
    // Everything not acknowledged is sent again, in order, on every new connection.
    this.lastSentSeq = 0;
    this.replay = stats.outbox.total > 0 ? { total: stats.outbox.total, sent: 0 } : null;
    if (this.replay) this.logger.info({ items: stats.outbox.total }, 'delivering buffered items');
    this.poller.requestSnapshot();
    void this.flushOutbox();
  }

  private onCloudMessage(message: CloudToBridgeMessage): void {
    switch (message.type) {
      case 'delivered': {
        const deleted = this.buffer.acknowledge(message.seqs);
        this.logger.debug({ acknowledged: message.seqs.length, deleted }, 'cloud confirmed delivery');
        return;
      }
      case 'hello-ack':
        return; // the link has reset its backoff
      case 'cancel':
        this.runner.cancel(message.commandId);
        return;
      case 'command': {
        // Stored on disk before the ack: an acknowledged command survives a crash. Its run starts
        // first (up to the controller request leaving): an operator waits for the door, not the ack.
        // One that cannot run (already expired) has its result out before the ack; the cloud takes
        // the two in either order (an ack after the result changes nothing).
        const { duplicate, receivedAt } = this.runner.receive(message);
        if (!duplicate) void this.runner.drain();
        this.link.send({ type: 'ack', commandId: message.id, duplicate, receivedAt: isoTime(receivedAt) });
        return;
      }
    }
  }

  /** Sends buffered items after the last one sent on this connection, in seq order. */
  private async flushOutbox(): Promise<void> {
    if (this.flushing) {
      this.flushAgain = true;
      return;
    }
    this.flushing = true;
    try {
      do {
        this.flushAgain = false;
        while (this.link.isUp && !this.stopped) {
          const items = this.buffer.pending(this.lastSentSeq, REPLAY_BATCH);
          if (items.length === 0) {
            this.finishReplay();
            break;
          }
          for (const item of items) {
            if (!this.link.send(item.message)) return;
            this.lastSentSeq = item.seq;
          }
          if (this.replay) {
            this.replay.sent = Math.min(this.replay.total, this.replay.sent + items.length);
            if (this.replay.sent >= this.replay.total) this.finishReplay();
            else this.options.onReplayProgress?.(this.replay.sent, this.replay.total);
          }
          await yieldToEventLoop();
        }
      } while (this.flushAgain && this.link.isUp && !this.stopped);
    } finally {
      this.flushing = false;
    }
  }

  private finishReplay(): void {
    if (!this.replay) return;
    this.options.onReplayProgress?.(this.replay.total, this.replay.total);
    this.logger.info({ items: this.replay.total }, 'buffered items sent');
    this.replay = null;
  }
}
