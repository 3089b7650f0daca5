// Executes the cloud's commands on the controller, each id at most once: stored before it is
// acknowledged, marked RUNNING at the instant the request leaves for the controller, finished with
// exactly one result (plus, for an UNKNOWN outcome, possibly one reconciled result once a poll shows
// what happened). A command whose deadline (`expiresAt`) passes, or that the cloud cancels, before
// its request leaves is never sent: EXPIRED.
import type { Logger } from 'pino';
import { STATE_SETTING_OPS, type BridgeCommand, type ResultMessage } from '@deposito/protocol/bridge/v1';
import type { BridgeBuffer, CommandRecord, UnsequencedResult } from './buffer/bridge-buffer';
import type { CallOptions, ControllerClient } from './controller/controller-client';
import { ControllerError, ControllerNotSentError } from './controller/controller-errors';
import type { ObservedLocker } from './state-poller';
import { isoTime, type Clock, type TimerHandle } from './clock';

export interface RetryPolicy {
  baseMs: number;
  capMs: number;
}

export const DEFAULT_COMMAND_RETRY: RetryPolicy = { baseMs: 2_000, capMs: 60_000 };

export interface CommandRunnerDeps {
  buffer: BridgeBuffer;
  controller: ControllerClient;
  clock: Clock;
  logger: Logger;
  random: () => number;
  retry: RetryPolicy;
  reconcileWindowMs: number;
  /** Called after a result was queued, so it can be delivered at once. */
  onResult: () => void;
}

type ResultData = NonNullable<ResultMessage['data']>;

const isStateSetting = (op: BridgeCommand['op']) => (STATE_SETTING_OPS as readonly string[]).includes(op);
const changesLocker = (op: BridgeCommand['op']) => op !== 'getState' && op !== 'history';

const CANCELLED = {
  code: 'command/cancelled',
  message: 'cancelled by the cloud before it was sent to the controller; it will not be sent',
} as const;

/** What a cancel found: the command is now certainly not run, was already sent, or had finished. */
export type CancelOutcome = 'cancelled' | 'already-sent' | 'finished' | 'not-received';

export class CommandRunner {
  private draining: Promise<void> | null = null;
  private drainAgain = false;
  private retryTimer: TimerHandle | null = null;
  private stopped = false;
  /** The command whose controller request is waiting for its turn, by id: aborting drops it unsent. */
  private readonly waiting = new Map<string, AbortController>();
  /** Commands the cloud cancelled while an attempt was at the controller: that attempt is not retried. */
  private readonly cancelledInFlight = new Set<string>();

  constructor(private readonly deps: CommandRunnerDeps) {}

  /**
   * Commands left RUNNING by a crash may or may not have reached the controller: they become UNKNOWN
   * and are checked against the next polls, never run again.
   */
  recoverInterrupted(): void {
    const { buffer, clock, logger } = this.deps;
    for (const record of buffer.interruptedCommands()) {
      const now = clock.now();
      logger.warn({ commandId: record.id }, 'command was running when the bridge stopped; outcome unknown');
      buffer.finishCommand(
        this.result(record, 'UNKNOWN', now, {
          error: {
            code: 'bridge/interrupted',
            message: 'the bridge stopped while the controller was executing it',
          },
        }),
        now,
        changesLocker(record.command.op) ? now + this.deps.reconcileWindowMs : null,
      );
    }
  }

  /**
   * Stores a received command; a known id is not run again, its recorded result is queued again.
   * An id the cloud cancelled before it arrived is stored already finished, never run.
   */
  receive(command: BridgeCommand): { duplicate: boolean; receivedAt: number } {
    const { buffer, clock, logger } = this.deps;
    const receivedAt = clock.now();
    const { record, duplicate, cancelled } = buffer.transaction(() => {
      const received = buffer.receiveCommand(command, receivedAt);
      const cancelledFirst = !received.duplicate && buffer.wasCancelled(command.id);
      if (cancelledFirst) {
        const result = this.result(received.record, 'EXPIRED', receivedAt, { error: CANCELLED });
        buffer.finishCommand(result, receivedAt);
      }
      return { ...received, cancelled: cancelledFirst };
    });
    if (cancelled) {
      logger.info({ commandId: command.id }, 'command arrived after the cloud cancelled it; not run');
      this.deps.onResult();
    }
    if (duplicate) {
      logger.info(
        { commandId: command.id, status: record.status },
        'command received again; not re-executed',
      );
      if (record.result) {
        buffer.enqueue(record.result, receivedAt);
        this.deps.onResult();
      }
    }
    return { duplicate, receivedAt };
  }

  /** Runs every due command, one after another; concurrent calls join the running pass. */
  drain(): Promise<void> {
    if (this.draining) {
      this.drainAgain = true;
      return this.draining;
    }
    // Cleared in a later microtask, so a pass that finds nothing to do cannot leave `draining` set.
    this.draining = this.runDue().finally(() => {
      this.draining = null;
      this.scheduleRetry();
    });
    return this.draining;
  }

  private async runDue(): Promise<void> {
    do {
      this.drainAgain = false;
      for (const record of this.deps.buffer.commandsDue(this.deps.clock.now())) {
        if (this.stopped) return;
        await this.execute(record);
      }
    } while (this.drainAgain && !this.stopped);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.retryTimer !== null) this.deps.clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    await this.draining;
  }

  /**
   * The cloud gave up on a command. Not yet sent to the controller (received, retrying, or waiting
   * for its turn): it never will be, and is answered EXPIRED (`command/cancelled`). Already sent: it
   * cannot be called back, and its result follows as usual, except that an attempt that fails is not
   * retried (EXPIRED, `command/cancelled`). Not received yet: the id is remembered,
   * so the command is answered EXPIRED if it ever arrives.
   */
  cancel(commandId: string): CancelOutcome {
    const { buffer, clock, logger } = this.deps;
    const log = logger.child({ commandId });
    const record = buffer.getCommand(commandId);
    if (!record) {
      buffer.recordCancellation(commandId, clock.now());
      log.info('cancel for a command not received; it will not run if it arrives');
      return 'not-received';
    }
    switch (record.status) {
      case 'RECEIVED':
      case 'RETRYING': {
        const waiting = this.waiting.get(commandId);
        log.info('command cancelled by the cloud before it was sent; not run');
        // Its request is queued for the controller: dropping it makes execute() record the result.
        if (waiting) waiting.abort();
        else {
          this.finish(record, 'EXPIRED', { error: CANCELLED });
          // A later command for the same locker may have been waiting for this one.
          void this.drain();
        }
        return 'cancelled';
      }
      case 'RUNNING':
        // The attempt under way cannot be called back, but a failed one must not be tried again.
        this.cancelledInFlight.add(commandId);
        log.warn('cancel came after the command was sent to the controller; its result follows, no retry');
        return 'already-sent';
      default:
        log.debug({ status: record.status }, 'cancel for a finished command; nothing to do');
        return 'finished';
    }
  }

  /**
   * A book, unbook or inhibit runs only once every one received before it for the same locker has
   * finished. Otherwise a take-off waiting for its retry would run after the next booking's PIN and
   * take that PIN off the door (or the PIN, sent first, would be refused by a locker still booked).
   * Opens and reads do not wait.
   */
  private waitsForItsLocker(record: CommandRecord): boolean {
    const locker = stateSettingLocker(record.command);
    if (locker === null) return false;
    for (const earlier of this.deps.buffer.unfinishedCommands()) {
      if (earlier.id === record.id) return false;
      if (stateSettingLocker(earlier.command) === locker) return true;
    }
    return false;
  }

  /** Settles UNKNOWN outcomes against what the latest poll observed. */
  reconcile(observe: (lockerId: number) => ObservedLocker | null): void {
    const { buffer, clock, logger } = this.deps;
    const now = clock.now();
    for (const record of buffer.commandsToReconcile()) {
      const { command } = record;
      const seen = 'lockerId' in command && command.lockerId !== undefined ? observe(command.lockerId) : null;
      if (seen && appliedAsSeen(command, record, seen)) {
        logger.info({ commandId: record.id }, 'unknown outcome settled by state poll: applied');
        buffer.finishCommand(this.result(record, 'SUCCEEDED', now, { reconciled: true }), now);
        this.deps.onResult();
      } else if (now >= (record.reconcileUntil ?? 0)) {
        if (isStateSetting(command.op)) {
          logger.info({ commandId: record.id }, 'unknown outcome settled by state poll: not applied');
          buffer.finishCommand(
            this.result(record, 'FAILED', now, {
              reconciled: true,
              error: {
                code: 'controller/not_applied',
                message: 'state polls after the timeout show it was not applied',
              },
            }),
            now,
          );
          this.deps.onResult();
        } else {
          // A door that opened and closed between two polls leaves no trace: the outcome stays unknown.
          buffer.stopReconciling(record.id);
        }
      }
    }
  }

  private async execute(listed: CommandRecord): Promise<void> {
    const { buffer, clock, logger, controller } = this.deps;
    // The pass listed it earlier: a cancel may have finished it since.
    const record = buffer.getCommand(listed.id);
    if (!record || !isDue(record, clock.now())) return;
    const { command } = record;
    const log = logger.child({ commandId: command.id, op: command.op });
    const expiresAt = Date.parse(command.expiresAt);
    const expired = (when: string) =>
      this.finish(record, 'EXPIRED', {
        error: {
          code: 'command/expired',
          message: record.lastError
            ? `expired while retrying: ${record.lastError}`
            : `expired at ${command.expiresAt} ${when}; not sent to the controller`,
        },
      });
    if (clock.now() >= expiresAt) {
      log.info('command expired before it could run');
      expired('before it could run');
      return;
    }
    if (this.waitsForItsLocker(record)) {
      log.debug('an earlier command for the locker is not finished; this one waits for it');
      return;
    }
    const cancel = new AbortController();
    this.waiting.set(command.id, cancel);
    const attempts = record.attempts + 1;
    try {
      const data = await this.runOnController(command, controller, {
        deadline: expiresAt,
        signal: cancel.signal,
        // Recorded at the instant the request leaves: from here a crash means UNKNOWN, never a re-run.
        onSend: () => buffer.markRunning(command.id, clock.now()),
      });
      log.info('command succeeded');
      this.finish({ ...record, attempts }, 'SUCCEEDED', data ? { data } : {});
    } catch (error) {
      const now = clock.now();
      if (error instanceof ControllerNotSentError) {
        if (error.reason === 'cancelled') this.finish(record, 'EXPIRED', { error: CANCELLED });
        else {
          log.warn('deadline passed while waiting for the controller; not sent');
          expired('while it waited for the controller');
        }
        return;
      }
      if (!(error instanceof ControllerError)) {
        log.error({ err: error }, 'command failed unexpectedly');
        this.finish({ ...record, attempts }, 'FAILED', {
          error: { code: 'bridge/internal', message: error instanceof Error ? error.message : String(error) },
        });
        return;
      }
      const detail = { code: error.code, message: error.message };
      if (error.retryable && isStateSetting(command.op)) {
        if (this.cancelledInFlight.has(command.id)) {
          log.info({ err: error }, 'attempt failed after the cloud cancelled the command; not retried');
          this.finish({ ...record, attempts }, 'EXPIRED', {
            error: {
              code: CANCELLED.code,
              message: `cancelled by the cloud while an attempt was under way (${error.message}); not retried`,
            },
          });
          return;
        }
        const delay = retryDelay(attempts, this.deps.retry, this.deps.random);
        if (now + delay < expiresAt) {
          log.warn({ err: error, attempts, retryInMs: delay }, 'controller unreachable; will retry');
          buffer.scheduleRetry(command.id, now + delay, error.message);
          return;
        }
        log.warn({ err: error, attempts }, 'controller unreachable until the command expired');
        this.finish({ ...record, attempts }, 'EXPIRED', {
          error: { code: error.code, message: `expired while retrying: ${error.message}` },
        });
        return;
      }
      if (error.outcome === 'UNKNOWN' && changesLocker(command.op)) {
        log.warn({ err: error }, 'controller outcome unknown; checking the next state polls');
        this.finish({ ...record, attempts }, 'UNKNOWN', { error: detail }, now + this.deps.reconcileWindowMs);
        return;
      }
      log.warn({ err: error }, 'command failed');
      this.finish({ ...record, attempts }, 'FAILED', { error: detail });
    } finally {
      this.waiting.delete(command.id);
      this.cancelledInFlight.delete(command.id);
    }
  }

  private async runOnController(
    command: BridgeCommand,
    controller: ControllerClient,
    options: CallOptions,
  ): Promise<ResultData | null> {
    switch (command.op) {
      case 'open':
        await controller.open(command.lockerId, options);
        return null;
      case 'inhibit':
        await controller.inhibit(command.lockerId, options);
        return null;
      case 'unbook':
        await controller.unbook(command.lockerId, options);
        return null;
      case 'book':
        await controller.book(command.lockerId, command.params, options);
        return null;
      case 'getState': {
        const lockers = (await controller.getLockersState(options))
          .filter((l) => command.lockerId === undefined || l.number === command.lockerId)
          .map((l) => ({ lockerId: l.number, ...l.state, code: l.code }));
        return { lockers };
      }
      case 'history': {
        const entries = await controller.history(
          {
            from: command.params.from,
            to: command.params.to,
            ...(command.lockerId === undefined ? {} : { locker: command.lockerId }),
            ...(command.params.index === undefined ? {} : { index: command.params.index }),
          },
          options,
        );
        return {
          history: entries.map((e) => ({
            index: e.index,
            lockerId: e.locker,
            occurredAt: e.date,
            kind: e.type,
            ...(e.description ? { description: e.description } : {}),
          })),
        };
      }
    }
  }

  private finish(
    record: CommandRecord,
    status: ResultMessage['status'],
    extra: Partial<Pick<UnsequencedResult, 'data' | 'error' | 'reconciled'>>,
    reconcileUntil: number | null = null,
  ): void {
    const now = this.deps.clock.now();
    this.deps.buffer.finishCommand(this.result(record, status, now, extra), now, reconcileUntil);
    this.deps.onResult();
  }

  private result(
    record: CommandRecord,
    status: ResultMessage['status'],
    at: number,
    extra: Partial<Pick<UnsequencedResult, 'data' | 'error' | 'reconciled'>>,
  ): UnsequencedResult {
    return {
      type: 'result',
      commandId: record.id,
      op: record.command.op,
      ok: status === 'SUCCEEDED',
      status,
      attempts: record.attempts,
      completedAt: isoTime(at),
      ...extra,
    };
  }

  private scheduleRetry(): void {
    const { buffer, clock } = this.deps;
    if (this.retryTimer !== null) clock.clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const next = buffer.nextRetryAt();
    if (next === null || this.stopped) return;
    this.retryTimer = clock.setTimeout(
      () => {
        this.retryTimer = null;
        void this.drain();
      },
      Math.max(0, next - clock.now()),
    );
  }
}

/** The locker a book, unbook or inhibit sets; null for every other command. */
function stateSettingLocker(command: BridgeCommand): number | null {
  if (!isStateSetting(command.op) || !('lockerId' in command) || command.lockerId === undefined) return null;
  return command.lockerId;
}

/** Waiting to run: never tried, or its retry time has come. */
function isDue(record: CommandRecord, now: number): boolean {
  return (
    record.status === 'RECEIVED' ||
    (record.status === 'RETRYING' && record.nextAttemptAt !== null && record.nextAttemptAt <= now)
  );
}

/** Exponential with equal jitter: between half and all of min(cap, base · 2^(attempt-1)). */
export function retryDelay(attempt: number, policy: RetryPolicy, random: () => number): number {
  const bound = Math.min(policy.capMs, policy.baseMs * 2 ** Math.min(Math.max(attempt - 1, 0), 30));
  return Math.floor(bound / 2 + (random() * bound) / 2);
}

function appliedAsSeen(command: BridgeCommand, record: CommandRecord, seen: ObservedLocker): boolean {
  switch (command.op) {
    case 'book':
      return seen.snapshot.occupancy === 'booked';
    case 'unbook':
      return seen.snapshot.occupancy === 'free';
    case 'inhibit':
      return seen.snapshot.occupancy === 'inhibited';
    case 'open':
      return (
        seen.snapshot.doorOpen ||
        (seen.doorOpenedAt !== null && record.executedAt !== null && seen.doorOpenedAt >= record.executedAt)
      );
    default:
      return false;
  }
}
