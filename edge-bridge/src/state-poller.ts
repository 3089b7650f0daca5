// Polls the controller for every locker's state and turns what changed into events for the cloud.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { LockerSnapshot, UnsequencedMessage } from '@deposito/protocol/bridge/v1';
import type { BridgeBuffer } from './buffer/bridge-buffer';
import type { ControllerClient } from './controller/controller-client';
import { isoTime, type Clock } from './clock';

const STATES_KEY = 'lockerStates';

export interface ObservedLocker {
  snapshot: LockerSnapshot;
  /** Last time a poll saw this door go from closed to open (epoch ms). */
  doorOpenedAt: number | null;
}

export interface PollReport {
  at: number;
  ok: boolean;
  error?: string;
  events: number;
}

export class StatePoller {
  private readonly known: Map<number, LockerSnapshot>;
  private readonly doorOpenedAt = new Map<number, number>();
  private snapshotDue = true;
  private lastSnapshotAt: number | null = null;
  lastPoll: PollReport | null = null;
  lastSuccessAt: number | null = null;

  constructor(
    private readonly deps: {
      buffer: BridgeBuffer;
      controller: ControllerClient;
      clock: Clock;
      logger: Logger;
      snapshotIntervalMs: number;
    },
  ) {
    // Compared against the first poll, so what changed while the bridge was stopped is reported too.
    const stored = deps.buffer.getMeta<LockerSnapshot[]>(STATES_KEY) ?? [];
    this.known = new Map(stored.map((s) => [s.lockerId, s]));
  }

  /** The next successful poll also queues a full snapshot (after a reconnect, for instance). */
  requestSnapshot(): void {
    this.snapshotDue = true;
  }

  observed(lockerId: number): ObservedLocker | null {
    const snapshot = this.known.get(lockerId);
    return snapshot ? { snapshot, doorOpenedAt: this.doorOpenedAt.get(lockerId) ?? null } : null;
  }

  async poll(): Promise<PollReport> {
    const { buffer, controller, clock, logger } = this.deps;
    let lockers;
    try {
      lockers = await controller.getLockersState();
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      logger.warn({ err: error }, 'state poll failed');
      this.lastPoll = { at: clock.now(), ok: false, error: message, events: 0 };
      return this.lastPoll;
    }
    const now = clock.now();
    const occurredAt = isoTime(now);
    const current: LockerSnapshot[] = lockers.map((l) => ({ lockerId: l.number, ...l.state, code: l.code }));
    const events: UnsequencedMessage[] = [];
    for (const locker of current) {
      const before = this.known.get(locker.lockerId);
      if (locker.doorOpen && !before?.doorOpen) this.doorOpenedAt.set(locker.lockerId, now);
      if (!before) continue;
      if (before.occupancy !== locker.occupancy) {
        events.push({
          type: 'event',
          kind: 'state-change',
          id: randomUUID(),
          occurredAt,
          lockerId: locker.lockerId,
          from: before.occupancy,
          to: locker.occupancy,
        });
      }
      if (before.doorOpen !== locker.doorOpen) {
        events.push({
          type: 'event',
          kind: 'door',
          id: randomUUID(),
          occurredAt,
          lockerId: locker.lockerId,
          door: locker.doorOpen ? 'opened' : 'closed',
        });
      }
    }
    const snapshotNow =
      this.snapshotDue ||
      this.lastSnapshotAt === null ||
      now - this.lastSnapshotAt >= this.deps.snapshotIntervalMs;
    buffer.transaction(() => {
      for (const event of events) buffer.enqueue(event, now);
      if (snapshotNow) buffer.enqueue({ type: 'snapshot', takenAt: occurredAt, lockers: current }, now);
      buffer.setMeta(STATES_KEY, current);
    });
    if (snapshotNow) {
      this.snapshotDue = false;
      this.lastSnapshotAt = now;
    }
    this.known.clear();
    for (const locker of current) this.known.set(locker.lockerId, locker);
    if (events.length > 0) logger.info({ events: events.length }, 'locker changes observed');
    this.lastSuccessAt = now;
    this.lastPoll = { at: now, ok: true, events: events.length };
    return this.lastPoll;
  }
}
