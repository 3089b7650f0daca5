import {
  isActiveBookingStatus,
  isPaidBookingStatus,
  type BookingStatus,
  type LiveLockerBooking,
  type LockerBookingLiveDetails,
  type TransitionReason,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { BookingRecord } from '../store/booking.repository';
import type { Store } from '../store/store';
import type { AdminIdentity } from './auth.service';
import type { BookingService } from './booking.service';
import {
  OPERATIONS_DROPPING_BOOKINGS,
  type LockerCommandOutcome,
  type LockerControl,
  type LockerOperation,
} from './locker-control';

/** An operator's action on one locker, with what they confirmed about the bookings it cancels. */
export interface LockerActionRequest {
  locationKey: string;
  lockerId: number;
  operation: LockerOperation;
  /** The operator saw the live bookings (a 409 `locker/booking_live`) and cancels them. */
  confirm?: boolean;
  /** The operator's words, kept with each cancellation. */
  reason?: string;
  /** A paid booking's money is owed back (refund_due) or not (cancelled_by_operator); owed when left out. */
  refund?: boolean;
}

export interface CancelledByAction {
  transactionId: string;
  from: BookingStatus;
  to: BookingStatus;
}

export interface LockerActionResult extends LockerCommandOutcome {
  cancelledBookings: CancelledByAction[];
}

/** A move made by an operator can race a provider's notification: this many reads decide it. */
const CANCEL_ATTEMPTS = 3;

/**
 * Gestione Locker's actions as moves of the booking state machine. Disattiva, Attiva and Annulla
 * prenotazione leave no booking on the controller's locker, so a live booking of that locker — the
 * one holding it now, and any whose PIN is programmed there for later — is cancelled with them by
 * the operator: a paid one to `refund_due` (or `cancelled_by_operator` when they say no refund is
 * owed), an unpaid hold to `cancelled_by_operator`. Nothing happens without the operator's
 * confirmation (409 `locker/booking_live` naming the bookings).
 *
 * Order: the controller command first, then the cancellation. A command the controller refuses
 * (or whose outcome is unknown) changes no booking, and the operator may try again. The command
 * goes out for the booking whose PIN it takes off, so the PIN commands know it is gone; the
 * cancellation's `booking.cancelled` then programs the locker's next booking after it, never
 * before (an unbook after that would take the next PIN off too).
 */
export class LockerActionService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly control: LockerControl,
    private readonly bookings: BookingService,
  ) {}

  async run(actor: AdminIdentity, request: LockerActionRequest): Promise<LockerActionResult> {
    const { locationKey, lockerId, operation } = request;
    const live = OPERATIONS_DROPPING_BOOKINGS.includes(operation)
      ? await this.liveBookings(locationKey, lockerId)
      : [];
    if (live.length > 0 && request.confirm !== true) {
      const details: LockerBookingLiveDetails = { lockerId, bookings: live.map(describe) };
      throw new AppError(
        'locker/booking_live',
        `Il locker ${lockerId} ha ${live.length === 1 ? 'una prenotazione attiva' : `${live.length} prenotazioni attive`}: ` +
          `conferma per annullarla con l'azione`,
        details,
      );
    }
    const programmed = live.find((booking) => isPaidBookingStatus(booking.status));
    const outcome = await this.control.command(locationKey, lockerId, operation, {
      forBooking: programmed?.transactionId,
    });
    const cancelledBookings: CancelledByAction[] = [];
    for (const booking of live) {
      const cancelled = await this.cancel(booking.transactionId, actor, request);
      if (cancelled) cancelledBookings.push(cancelled);
    }
    return { ...outcome, cancelledBookings };
  }

  /**
   * Bookings live on the locker: the one holding it now (lapsed holds excluded), and paid ones
   * whose PIN the controller holds for later. Earliest first.
   */
  private async liveBookings(locationKey: string, lockerId: number): Promise<BookingRecord[]> {
    const now = this.clock.now();
    const [holders, programmed] = await Promise.all([
      this.store.bookingAdmin.currentHolders(locationKey, now),
      this.control.bookingsProgrammedOn(locationKey, lockerId),
    ]);
    const ids = new Set([
      ...holders.filter((h) => h.lockerNumber === lockerId).map((h) => h.transactionId),
      ...programmed,
    ]);
    const live: BookingRecord[] = [];
    for (const id of ids) {
      const booking = await this.store.bookings.get(id);
      if (booking && isActiveBookingStatus(booking.status) && booking.endAt > now) live.push(booking);
    }
    return live.sort((a, b) => a.startAt.getTime() - b.startAt.getTime());
  }

  /** Cancels one booking as the operator; null when it is no longer live (ended, lapsed, cancelled). */
  private async cancel(
    transactionId: string,
    actor: AdminIdentity,
    request: LockerActionRequest,
  ): Promise<CancelledByAction | null> {
    const reason: TransitionReason =
      request.operation === 'inhibit' ? 'operator_cancelled' : 'operator_freed_locker';
    const detail = [actor.email, request.reason?.trim()].filter(Boolean).join(': ');
    for (let attempt = 0; attempt < CANCEL_ATTEMPTS; attempt += 1) {
      const current = await this.store.bookings.get(transactionId);
      if (!current || !isActiveBookingStatus(current.status)) return null;
      // Paid meanwhile (a provider's notification won the race): still owed unless said otherwise.
      const to: BookingStatus =
        isPaidBookingStatus(current.status) && request.refund !== false
          ? 'refund_due'
          : 'cancelled_by_operator';
      const moved = await this.bookings.changeStatus(transactionId, {
        from: [current.status],
        to,
        actor: 'operator',
        reason,
        detail,
      });
      if (moved) return { transactionId, from: current.status, to };
    }
    throw new AppError(
      'booking/invalid_state',
      `La prenotazione ${transactionId} è cambiata più volte durante l'annullamento: riprova`,
    );
  }
}

function describe(booking: BookingRecord): LiveLockerBooking {
  const paid = isPaidBookingStatus(booking.status);
  const name = [booking.customer.firstName, booking.customer.lastName].filter(Boolean).join(' ');
  return {
    transactionId: booking.transactionId,
    status: booking.status,
    paid,
    paidCents: paid ? booking.totalCents : 0,
    startTimeIso: booking.startAt.toISOString(),
    endTimeIso: booking.endAt.toISOString(),
    lockerNumbers: booking.lockers.filter((l) => l.active).map((l) => l.number),
    customerName: name || null,
  };
}
