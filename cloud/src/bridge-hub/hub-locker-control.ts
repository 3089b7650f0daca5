import type { LockerFullState, LockerStatus } from '@deposito/protocol';
import type { CommandOp, Occupancy } from '@deposito/protocol/bridge/v1';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { LockerCommandOutcome, LockerControl, LockerOperation } from '../services/locker-control';
import {
  CANCELLED_COMMAND_ERROR,
  isSettledStatus,
  type BridgeCommandRecord,
} from '../store/bridge.repository';
import type { Store } from '../store/store';
import type { BridgeHub } from './bridge-hub';
import { pinOnLocker } from './booking-commands';

/** The operator's browser gives up after 5 s; the answer must be out before that. */
export const DEFAULT_ANSWER_WITHIN_MS = 4_500;
/**
 * An open still unconfirmed this long before its answer is due is cancelled then, so that on a
 * live link the bridge hears of it before its deadline and says whether it had already gone out.
 */
const CANCEL_LEAD_MS = 500;
/** The bridge's error for a command it dropped unsent on the hub's `cancel` (protocol bridge/v1). */
const BRIDGE_CANCELLED_CODE = 'command/cancelled';

/** Cancelled by the hub after it went to the bridge, which has not said yet whether it had sent it. */
const awaitsBridgeAfterCancel = (command: BridgeCommandRecord) =>
  command.status === 'expired' &&
  command.error?.code === CANCELLED_COMMAND_ERROR.code &&
  command.result === null &&
  command.lastSentAt !== null;

const OPERATION_OPS: Record<LockerOperation, CommandOp> = {
  open: 'open',
  inhibit: 'inhibit',
  unbook: 'unbook',
  // "Annulla prenotazione" cancels the PIN booking on the controller: the same controller call.
  'unbook-soap': 'unbook',
};

const STATUS_OF: Record<Occupancy, LockerStatus> = {
  free: 'available',
  booked: 'occupied',
  inhibited: 'inhibited',
  unknown: 'unknown',
};

/** A locker of the admin grid, with how old the state is (the web reads the protocol fields only). */
export type HubLockerFullState = LockerFullState & {
  doorOpen?: boolean;
  /** When the bridge last observed this locker; absent when it never has (state from our bookings). */
  observedAt?: string;
  ageSeconds?: number;
};

/**
 * Gestione Locker through the bridge hub.
 *
 * Commands: with the location's bridge connected (to any cloud process) the command is sent and the
 * answer waits up to ~4.5 s for the controller's result: executed (200), refused (502
 * bridge/command_failed), expired (504 bridge/command_expired), outcome unknown (504 bridge/timeout).
 * With no bridge proven online (BridgeHub.isOnline: answering pings here, or held by a live
 * process), `open` is refused at once (503 bridge/offline: a door opening later with nobody there is
 * worse than none) and nothing is stored; inhibit/unbook/unbook-soap are stored and answered
 * `queued` (202 bridge/queued), delivered when the bridge reconnects within 24 h. A state-setting
 * command still running after the wait is answered `queued` as well.
 *
 * An `open`'s deadline is the instant its answer is due: the bridge checks it right before the
 * controller call (on its own clock, shifted by the hub for skew so it errs early), so whatever
 * happens to the link, no controller call for it starts after the operator was answered. One still
 * unconfirmed 0.5 s before then is cancelled (never sent again; the bridge drops it unless it is
 * already at the controller) and the answer waits until the deadline for the bridge to say which:
 * executed (200), or 504 bridge/timeout, which then holds: it will not run after this answer.
 *
 * Taking a locker out of service (Disattiva) also stops it being sold online, and putting it back
 * (Attiva) sells it again, once the command is executed or queued. The bookings such a command
 * cancels are LockerActionService's business; a command given `forBooking` is recorded with that
 * booking, so its PIN counts as taken off (`pinOnLocker`) and no second unbook follows.
 *
 * Full state: every locker of the location with the last state its bridge reported (snapshots,
 * state-change and door events, results) and its age, merged with the booking holding it now
 * (transactionId, online). A locker the bridge never reported shows what our bookings say.
 */
export class HubLockerControl implements LockerControl {
  constructor(
    private readonly hub: BridgeHub,
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly answerWithinMs: number = DEFAULT_ANSWER_WITHIN_MS,
  ) {}

  async fullState(locationKey: string): Promise<HubLockerFullState[]> {
    if (!(await this.store.locations.get(locationKey))) {
      throw new AppError('location/not_found', `No location '${locationKey}'`);
    }
    const now = this.clock.now();
    const [lockers, states, holders] = await Promise.all([
      this.store.locations.lockers(locationKey),
      this.store.bridge.lockerStates(locationKey),
      this.store.bookingAdmin.currentHolders(locationKey, now),
    ]);
    const stateOf = new Map(states.map((state) => [state.lockerId, state]));
    const holderOf = new Map(holders.map((holder) => [holder.lockerNumber, holder.transactionId]));
    return lockers.map((locker): HubLockerFullState => {
      const transactionId = holderOf.get(locker.number);
      const booking = transactionId ? { transactionId, online: true } : {};
      const state = stateOf.get(locker.number);
      if (!state) {
        const status: LockerStatus = !locker.inService
          ? 'maintenance'
          : transactionId
            ? 'occupied'
            : 'available';
        return { id: locker.number, size: locker.size, status, ...booking };
      }
      let status = STATUS_OF[state.occupancy];
      // Out of service here but free on the controller: not for sale, shown as maintenance.
      if (status === 'available' && !locker.inService) status = 'maintenance';
      return {
        id: locker.number,
        size: locker.size,
        status,
        ...booking,
        doorOpen: state.doorOpen,
        observedAt: state.observedAt.toISOString(),
        ageSeconds: Math.max(0, Math.round((now.getTime() - state.observedAt.getTime()) / 1000)),
      };
    });
  }

  siteStatus(locationKey: string): Promise<{ online: boolean; lastSeenAt: Date | null }> {
    return this.hub.siteStatus(locationKey);
  }

  async bookingsProgrammedOn(locationKey: string, lockerId: number): Promise<string[]> {
    const ahead = await this.store.bookingAdmin.confirmedAhead(locationKey, [lockerId], this.clock.now());
    const programmed: string[] = [];
    for (const booking of ahead) {
      if (pinOnLocker(await this.hub.commandsFor(booking.transactionId), lockerId).sent) {
        programmed.push(booking.transactionId);
      }
    }
    return programmed;
  }

  async command(
    locationKey: string,
    lockerId: number,
    operation: LockerOperation,
    options: { forBooking?: string } = {},
  ): Promise<LockerCommandOutcome> {
    const lockers = await this.store.locations.lockers(locationKey);
    if (lockers.length === 0 && !(await this.store.locations.get(locationKey))) {
      throw new AppError('location/not_found', `No location '${locationKey}'`);
    }
    if (!lockers.some((locker) => locker.number === lockerId)) {
      throw new AppError('locker/not_found', `Nessun locker ${lockerId} a ${locationKey}`);
    }
    const op = OPERATION_OPS[operation];
    const online = await this.hub.isOnline(locationKey);
    if (!online && op === 'open') {
      throw new AppError('bridge/offline', 'La sede non è collegata: il locker non può essere aperto ora');
    }
    // The answer is due at `answerBy` at the latest; an open must not start after it.
    const answerBy = this.clock.now().getTime() + this.answerWithinMs;
    const waitStarted = performance.now();
    const untilAnswer = () => this.answerWithinMs - (performance.now() - waitStarted);
    // Issued for the booking whose PIN it takes off, so that booking's PIN is known to be gone.
    const { command, created } = await this.hub.issue({
      locationKey,
      op,
      lockerId,
      ...(options.forBooking && { transactionId: options.forBooking }),
      ...(op === 'open' && { expiresAt: new Date(answerBy) }),
    });
    const confirmWithinMs =
      op === 'open'
        ? Math.max(0, untilAnswer() - Math.min(CANCEL_LEAD_MS, this.answerWithinMs / 2))
        : this.answerWithinMs;
    let settled = online
      ? await this.hub.waitForSettlement(command.id, confirmWithinMs, { justIssued: created })
      : null;
    if (op === 'open' && settled && !isSettledStatus(settled.status)) {
      // The operator is about to be told it timed out: it must not open the door afterwards.
      settled = await this.hub.cancel(command.id);
      // Until the deadline, the bridge may still say it had already sent it (and how it went).
      if (settled && awaitsBridgeAfterCancel(settled) && untilAnswer() > 0) {
        settled = await this.hub.waitForSettlement(command.id, untilAnswer(), {
          until: (current) => !awaitsBridgeAfterCancel(current),
        });
      }
    }
    const outcome = this.outcomeOf(settled ?? command, op);
    if (operation === 'inhibit' || operation === 'unbook') {
      await this.store.locations.setLockerInService(locationKey, lockerId, operation === 'unbook');
    }
    return outcome;
  }

  private outcomeOf(command: BridgeCommandRecord, op: CommandOp): LockerCommandOutcome {
    const commandId = command.id;
    switch (command.status) {
      case 'succeeded':
        return { outcome: 'executed', commandId };
      case 'failed':
        throw new AppError(
          'bridge/command_failed',
          command.error ? `${command.error.code}: ${command.error.message}` : undefined,
          { commandId },
        );
      case 'expired':
        if (
          command.error?.code === CANCELLED_COMMAND_ERROR.code ||
          command.error?.code === BRIDGE_CANCELLED_CODE
        ) {
          throw new AppError(
            'bridge/timeout',
            'The location did not confirm in time; the command was cancelled and will not run after this answer',
            { commandId },
          );
        }
        throw new AppError('bridge/command_expired', undefined, { commandId });
      case 'unknown':
        throw new AppError(
          'bridge/timeout',
          'The locker controller did not answer; whether the command ran is unknown',
          { commandId },
        );
      default:
        if (op === 'open') {
          throw new AppError(
            'bridge/timeout',
            'The location did not confirm in time; its deadline has passed: it will not run after this answer',
            { commandId },
          );
        }
        return {
          outcome: 'queued',
          commandId,
          message: 'Comando in coda: sarà eseguito quando la sede risponde',
        };
    }
  }
}
