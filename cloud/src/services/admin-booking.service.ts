import { randomBytes } from 'node:crypto';
import {
  type BookingHistoryEntry,
  type RefundBookingResponse,
  type MoveBookingLockerResponse,
  type ResendBookingEmailResponse,
  bookingPriceCents,
  centsToEuros,
  eurosToCents,
  generatePin,
  isActiveBookingStatus,
  bookingTotalFits,
  MAX_AMOUNT_CENTS,
  MAX_EUROS,
  parseNote,
  SERVICE_FEE_CENTS,
  transactionIdFromBytes,
  type BookingRow,
  type BookingStatus,
  type TestBooking,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import { AppError } from '../errors';
import type { BookingListRow } from '../store/booking-admin.repository';
import type { BookingRecord } from '../store/booking.repository';
import type { Store } from '../store/store';
import type { AdminActivityLog } from './admin-activity.service';
import type { AdminIdentity } from './auth.service';
import { activeLockerNumbers } from './booking-extension.service';
import { resendableEmail, resendEmailKind } from './booking-email.service';
import { durationOfWindow } from './booking.service';
import type { SettingsService } from './settings.service';

/** Runs the morning scheduler once (the payments engineer's job); absent until that job exists. */
export interface MorningSchedulerRun {
  runNow(): Promise<{ message: string }>;
}

function toBookingRow(row: BookingListRow): BookingRow {
  return {
    TRANSACTION_ID: row.transactionId,
    STATUS: row.status,
    LOCATION_KEY: row.locationKey,
    START_TIME: row.startAt.toISOString(),
    END_TIME: row.endAt.toISOString(),
    created_at: row.createdAt.toISOString(),
    locker_id: row.lockerNumber,
    locker_type: row.size,
    nome: row.firstName,
    cognome: row.lastName,
    email: row.email,
    telefono_prefisso: row.phonePrefix,
    telefono_numero: row.phoneNumber,
    PIN: row.pin,
    note: row.note,
    price_original: centsToEuros(row.priceOriginalCents),
    price_discounted: centsToEuros(row.priceDiscountedCents),
    is_test: row.isTest,
  };
}

/** Prenotazioni and Strumenti Avanzati: the recent bookings list, hand-made test bookings, the morning run. */
/** What gives a booking's money back through the payment gateway (PaymentService.refund). */
export interface RefundRun {
  refund(transactionId: string): Promise<BookingRecord | null>;
}

export class AdminBookingService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly settings: SettingsService,
    private readonly activity: AdminActivityLog,
    /** Null in an app without the morning scheduler: "run now" then says so. */
    private readonly morningScheduler: MorningSchedulerRun | null,
    /** The payment gateway's refund of a booking (PaymentService.refund). */
    private readonly refunds: RefundRun,
    /** Told of a moved booking, so its PIN follows it to the new locker. */
    private readonly events: DomainEvents | null = null,
  ) {}

  /**
   * Moves a paid booking from one of its lockers to a free one of the same size (a jammed door, a
   * locker out of order) for what is left of its stay. The move is recorded in the booking's
   * history; the PIN is taken off the old locker and put on the new one.
   */
  async moveLocker(
    actor: AdminIdentity,
    transactionId: string,
    move: { from: number; to: number },
  ): Promise<MoveBookingLockerResponse> {
    // A stay the visitor extended is one period on its lockers, its pieces bookings of their own:
    // moving one piece would split the stay between two lockers.
    const extensions = await Promise.all(
      (await this.store.bookingExtensions.ofStay(transactionId)).map((id) => this.store.bookings.get(id)),
    );
    const extended =
      (await this.store.bookingExtensions.stayOf(transactionId)) !== null ||
      extensions.some((extension) => extension !== null && isActiveBookingStatus(extension.status));
    if (extended) {
      throw new AppError(
        'booking/invalid_state',
        'Il cliente ha prolungato questa prenotazione: il locker non si può cambiare',
      );
    }
    const result = await this.store.bookings.moveLocker({
      transactionId,
      fromNumber: move.from,
      toNumber: move.to,
      now: this.clock.now(),
      actor: 'operator',
      detail: actor.email,
    });
    if (!result.ok) {
      switch (result.reason) {
        case 'not_found':
          throw new AppError('BOOKING_NOT_FOUND');
        case 'invalid_state':
          throw new AppError(
            'booking/invalid_state',
            'Solo una prenotazione pagata e non ancora finita (confermata) può cambiare locker',
          );
        case 'not_its_locker':
          throw new AppError('locker/not_found', `Il locker ${move.from} non è di questa prenotazione`);
        case 'no_such_locker':
          throw new AppError(
            'locker/not_found',
            `Nessun locker ${move.to} della stessa dimensione in questa sede`,
          );
        case 'taken':
          throw new AppError(
            'booking/locker_unavailable',
            `Il locker ${move.to} è occupato o fuori servizio per il resto della prenotazione`,
          );
      }
    }
    const { booking } = result;
    for (const expired of result.expired)
      this.events?.emit({ type: 'booking.expired', transactionId: expired });
    this.events?.emit({ type: 'booking.moved', booking, fromLocker: move.from });
    const message = `Prenotazione ${transactionId}: locker ${move.from} → ${move.to}, il PIN passa al nuovo locker`;
    // Written against both lockers, so each one's history tells where the booking went or came from.
    for (const lockerId of [move.from, move.to]) {
      await this.activity.record(actor, 'admin/booking_moved', message, {
        locationKey: booking.locationKey,
        lockerId,
      });
    }
    const lockers = activeLockerNumbers(booking);
    return { success: true, message, lockers };
  }

  /**
   * Every recorded move of a booking and of the visitor's extensions of its stay (each marked with
   * the extension's reference), oldest first; BOOKING_NOT_FOUND for an unknown one.
   */
  async history(transactionId: string): Promise<BookingHistoryEntry[]> {
    if (!(await this.store.bookings.get(transactionId))) throw new AppError('BOOKING_NOT_FOUND');
    const entries = async (id: string, extension: boolean) =>
      (await this.store.bookings.events(id)).map((event) => ({
        at: event.at.toISOString(),
        from: event.from,
        to: event.to,
        actor: event.actor,
        reason: event.reason,
        detail: extension
          ? `prolungamento ${id}${event.detail ? `: ${event.detail}` : ''}`.slice(0, 1000)
          : event.detail,
        ...(extension ? { extension: id } : {}),
      }));
    const extensions = await this.store.bookingExtensions.ofStay(transactionId);
    const all = [
      ...(await entries(transactionId, false)),
      ...(await Promise.all(extensions.map((id) => entries(id, true)))).flat(),
    ];
    // Stable: moves at the same instant keep the booking's own first.
    return all.sort((a, b) => a.at.localeCompare(b.at));
  }

  /**
   * Queues the booking's e-mail again, to its own address (a visitor on the phone who lost it): the
   * confirmation with the PIN, or the scheduled notice before the PIN's day, with a fresh private
   * link. `my_booking/resend_not_available` when there is none to send.
   */
  async resendEmail(actor: AdminIdentity, transactionId: string): Promise<ResendBookingEmailResponse> {
    const booking = await this.store.bookings.get(transactionId);
    if (!booking) throw new AppError('BOOKING_NOT_FOUND');
    const kind = resendableEmail(booking);
    if (!kind) throw new AppError('my_booking/resend_not_available');
    await this.store.emailOutbox.enqueue({
      transactionId,
      kind: resendEmailKind(kind),
      now: this.clock.now(),
    });
    const what =
      kind === 'confirmation' ? 'La conferma con il PIN' : 'La conferma (PIN in arrivo il giorno stesso)';
    const message = `${what} della prenotazione ${transactionId} è stata inviata di nuovo a ${booking.customer.email}`;
    await this.activity.record(actor, 'admin/booking_email_resent', message, {
      locationKey: booking.locationKey,
    });
    return { success: true, message };
  }

  /**
   * A `refund_due` booking's money back: asked of the gateway (which moves it to `refunded` when
   * made, else leaves it owed with an entry in the log), or, `byHand`, recorded as given back
   * outside the gateway by this operator. `booking/invalid_state` for any other status.
   */
  async refund(actor: AdminIdentity, transactionId: string, byHand: boolean): Promise<RefundBookingResponse> {
    const booking = await this.store.bookings.get(transactionId);
    if (!booking) throw new AppError('BOOKING_NOT_FOUND');
    if (booking.status !== 'refund_due') {
      throw new AppError(
        'booking/invalid_state',
        `Booking ${transactionId} is ${booking.status}, not refund_due`,
      );
    }
    let status: BookingStatus = booking.status;
    if (byHand) {
      const moved = await this.store.bookings.transition(transactionId, {
        from: ['refund_due'],
        to: 'refunded',
        now: this.clock.now(),
        actor: 'operator',
        reason: 'refund_made',
        detail: `by hand, recorded by ${actor.email}`,
      });
      if (!moved) throw new AppError('booking/invalid_state');
      status = moved.status;
    } else {
      status = (await this.refunds.refund(transactionId))?.status ?? status;
    }
    const done = status === 'refunded';
    await this.activity.record(
      actor,
      'admin/booking_refunded',
      done
        ? `Rimborso della prenotazione ${transactionId} ${byHand ? 'registrato (fatto a mano)' : 'eseguito dal gateway'}`
        : `Rimborso della prenotazione ${transactionId} non eseguito dal gateway`,
    );
    return {
      success: done,
      status,
      message: done
        ? byHand
          ? 'Rimborso registrato come fatto a mano'
          : 'Rimborso eseguito dal gateway di pagamento'
        : 'Il gateway non ha eseguito il rimborso: vedi il Log Errori, o rimborsa a mano e registralo',
    };
  }

  async recent(limit: number, search?: string): Promise<BookingRow[]> {
    return (await this.store.bookingAdmin.recentRows(limit, search)).map(toBookingRow);
  }

  /**
   * A booking made by hand: the given lockers (not for scheduled bookings, whose lockers are
   * assigned on the day) or the lowest free ones, reserved atomically like any other booking so a
   * test can never double-book a locker. The online cap does not apply: an operator may fill a site.
   */
  async createTestBooking(actor: AdminIdentity, input: TestBooking): Promise<{ transactionId: string }> {
    const location = await this.store.locations.get(input.location);
    if (!location) throw new AppError('location/not_found', `No location '${input.location}'`);
    const lockers = await this.store.locations.lockers(location.key);
    const known = new Set(lockers.filter((l) => l.size === input.type).map((l) => l.number));
    const wrong = (input.lockerIds ?? []).filter((id) => !known.has(id));
    if (wrong.length > 0) {
      throw new AppError(
        'locker/not_found',
        `Nessun locker ${input.type} ${wrong.join(', ')} a ${location.key}`,
      );
    }
    const transactionId = input.transactionId ?? transactionIdFromBytes(randomBytes(16));
    if (await this.store.bookings.get(transactionId)) {
      throw new AppError('booking/invalid_state', `La transazione ${transactionId} esiste già`);
    }
    const now = this.clock.now();
    const startAt = new Date(input.startTime);
    const endAt = new Date(input.endTime);
    const duration = durationOfWindow({ startAt, endAt }, location.zone) ?? {
      value: Math.max(1, Math.ceil((endAt.getTime() - startAt.getTime()) / 3_600_000)),
      unit: 'hours' as const,
    };
    const listPrice =
      bookingPriceCents({
        pricing: location.pricing,
        size: input.type,
        duration,
        quantity: input.quantity,
      }) ?? 0;
    const originalCents = input.priceOriginal == null ? listPrice : eurosToCents(input.priceOriginal);
    const discountedCents =
      input.priceDiscounted == null ? originalCents : eurosToCents(input.priceDiscounted);
    // Every amount on the wire is at most MAX_EUROS, the location's list price for many lockers and
    // days included (as a visitor's hold, BookingService.priceCents): never a booking no answer carries.
    if (originalCents > MAX_AMOUNT_CENTS || !bookingTotalFits(discountedCents)) {
      throw new AppError(
        'booking/amount_too_high',
        `Con la commissione il totale supererebbe ${MAX_EUROS.toLocaleString('it-IT')} €: indica un prezzo più basso`,
      );
    }
    const pin =
      input.pin ??
      (input.status === 'scheduled'
        ? null
        : generatePin(
            { randomBytes: (size) => randomBytes(size) },
            {
              exclude: await this.store.bookings.activePins(location.key, now),
            },
          ));
    const expirationMinutes = await this.settings.bookingExpirationMinutes();
    const result = await this.store.bookings.reserveLockers({
      booking: {
        transactionId,
        locationKey: location.key,
        status: input.status,
        startAt,
        endAt,
        size: input.type,
        quantity: input.quantity,
        duration,
        priceOriginalCents: originalCents,
        priceDiscountedCents: discountedCents,
        feeCents: SERVICE_FEE_CENTS,
        totalCents: discountedCents + SERVICE_FEE_CENTS,
        discountCode: null,
        customer: {
          firstName: input.nome,
          lastName: input.cognome,
          email: input.email,
          phonePrefix: null,
          phoneNumber: null,
        },
        note: input.note,
        lang: parseNote(input.note).lang,
        pin,
        expiresAt: input.status === 'pending' ? new Date(now.getTime() + expirationMinutes * 60_000) : null,
      },
      maxOnline: lockers.length,
      now,
      lockerNumbers: input.lockerIds && input.lockerIds.length > 0 ? input.lockerIds : undefined,
    });
    if (!result.ok) {
      throw new AppError(
        'booking/locker_unavailable',
        input.lockerIds?.length
          ? `I locker ${input.lockerIds.join(', ')} non sono liberi in quel periodo`
          : `Solo ${result.reason === 'unavailable' ? result.available : 0} locker ${input.type} liberi in quel periodo`,
      );
    }
    // No money came in: the takings must never count it (they leave marked bookings out).
    await this.store.bookingAdmin.markTest(transactionId);
    if (input.paidAt && input.status !== 'pending') {
      await this.store.bookings.setPaidAt(transactionId, new Date(input.paidAt));
    }
    await this.activity.record(
      actor,
      'admin/test_booking_created',
      `Prenotazione di test ${transactionId} (${input.status}, ${input.quantity} ${input.type}) creata`,
      { locationKey: location.key, lockerId: result.booking.lockers[0]?.number ?? null },
    );
    return { transactionId };
  }

  async runMorningScheduler(
    actor: AdminIdentity,
  ): Promise<{ success: true; message: string } | { success: false; error: string }> {
    if (!this.morningScheduler) {
      return {
        success: false,
        error: 'Il Morning Scheduler non è disponibile su questo server (job non configurato)',
      };
    }
    const { message } = await this.morningScheduler.runNow();
    await this.activity.record(actor, 'admin/morning_scheduler_run', `Morning Scheduler avviato: ${message}`);
    return { success: true, message };
  }
}
