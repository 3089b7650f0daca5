import {
  amountInCents,
  centsToEuros,
  buildNote,
  generatePin,
  isHoldBookingStatus,
  parseNote,
  parsePhone,
  type BookingStatus,
  type LockerSize,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import { AppError } from '../errors';
import {
  PaymentProviderError,
  PaymentResultExpiredError,
  PaymentResultInvalidError,
  type CreatedPayment,
  type EncryptedPaymentParams,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentResponseUrls,
} from '../payments/payment-provider';
import type { BookingRecord, Customer } from '../store/booking.repository';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import type { BookingEmailService } from './booking-email.service';
import type { BookingService, RandomSource } from './booking.service';
import type { LocationService } from './location.service';
import { EXTENDABLE_STATUSES } from '@deposito/protocol/booking/extension';
import type { TimeWindow } from '@deposito/protocol/booking/locker-availability';

/** Statuses a payment has already settled; a further notification for them changes nothing. */
const SETTLED_STATUSES: readonly BookingStatus[] = [
  'confirmed',
  'scheduled',
  'confirmed_late',
  'failed_after_payment',
  'refund_due',
  'cancelled_by_operator',
];

/** The error-log type of payment problems an operator must act on (refunds, mismatches). */
export const PAYMENT_ERROR_LOG_TYPE = 'payment';
/** The log entry saying a refund asked for was made: for the record, nothing to act on (no alert). */
export const PAYMENT_REFUND_MADE_LOG_TYPE = 'payment/refund_made';

export interface PayerDetails {
  firstName: string;
  lastName: string;
  email: string;
  /** Prefix and number in one string, e.g. '+393331234567'. */
  phone: string;
  discountCode: string | null;
  note?: string;
}

export interface NightPaymentRequest extends PayerDetails {
  locationKey: string;
  size: LockerSize;
  quantity: number;
  window: TimeWindow;
}

/** What a payment result did to its booking. */
export interface PaymentSettlement {
  transactionId: string;
  /** The booking's status afterwards; null when no such booking exists. */
  status: BookingStatus | null;
  /** True when this call changed the booking (false for replays, pending and declined results). */
  changed: boolean;
}

export interface PaymentServiceDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  events: DomainEvents;
  bookings: BookingService;
  locations: LocationService;
  emails: BookingEmailService;
  /** The gateway; resolved on first use (its URLs depend on where the cloud is reachable). */
  provider: () => PaymentProvider;
  /** The return and notification URLs handed to the gateway. */
  responseUrls: () => PaymentResponseUrls;
  random: RandomSource;
}

/**
 * '+393331234567' → '+39' and '3331234567' (protocol's parsePhone, any country), so the booking
 * keeps the two fields the admin area shows, E.164 together. The payment schemas have already
 * refused anything else; an unreadable number is kept as its digits, without a prefix.
 */
export function splitPhone(phone: string): { phonePrefix: string | null; phoneNumber: string } {
  const parsed = parsePhone(phone);
  return parsed
    ? { phonePrefix: parsed.dialCode, phoneNumber: parsed.nationalNumber }
    : { phonePrefix: null, phoneNumber: phone.replace(/\D/g, '') };
}

/** A fresh non-trivial PIN that no booking holding lockers at the location uses. */
export async function assignPin(
  store: Store,
  random: RandomSource,
  locationKey: string,
  now: Date,
): Promise<string> {
  return generatePin(
    { randomBytes: (size) => random.bytes(size) },
    { exclude: await store.bookings.activePins(locationKey, now) },
  );
}

/** True when the booking starts on a later calendar day than today, both in the location's zone. */
export function startsOnLaterDay(booking: Pick<BookingRecord, 'startAt'>, zone: string, now: Date): boolean {
  const startDay = DateTime.fromJSDate(booking.startAt, { zone }).toISODate();
  const today = DateTime.fromJSDate(now, { zone }).toISODate();
  return startDay !== null && today !== null && startDay > today;
}

/**
 * The payment path of a booking: the gateway page for a pending booking (always for the server's
 * own total), and what the gateway's result does to the booking. Results are idempotent: the
 * visitor's return and the server-to-server notification may race or be replayed, and the
 * booking is settled once (the store's conditional status change decides who wins).
 */
export class PaymentService {
  constructor(private readonly deps: PaymentServiceDeps) {}

  /** `POST /api/payments/create-payment`: saves the payer's details and answers the gateway page. */
  async createPayment(
    transactionId: string,
    payer: PayerDetails,
    sent: { amountCents?: number } = {},
  ): Promise<CreatedPayment> {
    const existing = await this.deps.store.bookings.get(transactionId);
    if (!existing) throw new AppError('BOOKING_NOT_FOUND');
    await this.deps.bookings.saveCustomerDetails(transactionId, {
      customer: this.customerOf(existing, payer),
      discountCode: payer.discountCode,
      ...(payer.note ? { note: payer.note } : {}),
    });
    // Frozen before the page exists: whatever the visitor sends afterwards, the page's amount stays
    // the booking's total.
    const booking = await this.deps.bookings.openPayment(transactionId);
    return this.startPayment(booking, sent.amountCents);
  }

  /**
   * `POST /api/payments/retry`: the payment page again for a hold whose payment was declined (or
   * abandoned), for the same frozen total, while the hold lives.
   */
  async retryPayment(transactionId: string): Promise<CreatedPayment> {
    const booking = await this.deps.bookings.openPayment(transactionId);
    return this.startPayment(booking, undefined);
  }

  /** `POST /api/night-payments/create-night-payment`: holds the night stay, then pays it. */
  async createNightPayment(request: NightPaymentRequest): Promise<CreatedPayment> {
    const note =
      request.note && request.note.trim() !== ''
        ? request.note
        : buildNote({ lang: parseNote(request.note).lang, night: true });
    const held = await this.deps.bookings.hold({
      locationKey: request.locationKey,
      size: request.size,
      quantity: request.quantity,
      window: request.window,
      flow: 'night',
      note,
    });
    try {
      await this.deps.bookings.saveCustomerDetails(held.transactionId, {
        customer: this.customerOf(held, request),
        discountCode: request.discountCode,
      });
      const booking = await this.deps.bookings.openPayment(held.transactionId);
      return await this.startPayment(booking, undefined);
    } catch (error) {
      // Nothing was paid: give the lockers back rather than keep them until the hold lapses.
      await this.deps.bookings.cancel(held.transactionId).catch(() => undefined);
      throw error;
    }
  }

  /**
   * The visitor's return (`POST /api/payments/decrypt`) and the gateway's notification both land
   * here: the result is verified with the gateway and applied to its booking.
   */
  async handleResult(
    params: EncryptedPaymentParams,
    via: 'return' | 'notification',
  ): Promise<PaymentSettlement> {
    let outcome: PaymentOutcome;
    try {
      outcome = await this.deps.provider().readResult(params);
    } catch (error) {
      if (error instanceof PaymentResultExpiredError) {
        this.deps.logger.info({ via }, 'payment result refused: expired');
        throw new AppError('payment/result_expired', error.message);
      }
      if (error instanceof PaymentResultInvalidError) {
        this.deps.logger.warn({ err: error, via }, 'payment result refused');
        throw new AppError('payment/invalid_parameters', error.message);
      }
      if (error instanceof PaymentProviderError) {
        this.deps.logger.error({ err: error, via }, 'payment result could not be verified');
        throw new AppError('payment/provider_error', error.message);
      }
      throw error;
    }
    this.deps.logger.info(
      {
        via,
        transactionId: outcome.transactionId,
        result: outcome.result,
        providerTransactionId: outcome.providerTransactionId,
      },
      'payment result',
    );
    return this.applyOutcome(outcome);
  }

  /** Applies a verified gateway outcome to its booking. */
  async applyOutcome(outcome: PaymentOutcome): Promise<PaymentSettlement> {
    const { store, logger } = this.deps;
    const booking = await store.bookings.get(outcome.transactionId);
    const settlement = (status: BookingStatus | null, changed: boolean): PaymentSettlement => ({
      transactionId: outcome.transactionId,
      status,
      changed,
    });
    if (!booking) {
      if (outcome.result === 'OK') {
        await this.logForOperator(
          null,
          `Payment ${outcome.providerTransactionId ?? '?'} received for unknown booking ${outcome.transactionId}: refund it`,
        );
      }
      return settlement(null, false);
    }
    if (outcome.result === 'XX') return settlement(booking.status, false);
    if (outcome.result === 'KO') {
      if (!isHoldBookingStatus(booking.status)) return settlement(booking.status, false);
      // A declined card for a hold whose payment page we never opened (no checkout is frozen):
      // nothing was charged and nothing is owed, so the hold stays as it is.
      if (booking.status === 'pending' && !outcome.cancelledByBuyer) return settlement(booking.status, false);
      const moved = await this.deps.bookings.changeStatus(booking.transactionId, {
        from: [booking.status],
        ...(outcome.cancelledByBuyer
          ? { to: 'cancelled', reason: 'payment_cancelled_by_buyer' }
          : { to: 'payment_declined', reason: 'payment_declined' }),
        actor: 'provider',
        detail: outcome.errorDescription ?? null,
      });
      // A declined card: the visitor may try again (the same total) until the hold lapses.
      logger.info(
        { transactionId: booking.transactionId, reason: outcome.errorDescription },
        outcome.cancelledByBuyer ? 'payment cancelled by the buyer' : 'payment declined',
      );
      return settlement(moved?.status ?? (await this.currentStatus(booking)), moved !== null);
    }
    return this.settlePaid(booking, outcome);
  }

  private async settlePaid(booking: BookingRecord, outcome: PaymentOutcome): Promise<PaymentSettlement> {
    const { store, clock, logger } = this.deps;
    const reference = outcome.providerTransactionId;
    // Replays of one payment record nothing new; a second payment (another reference) is new.
    const firstReport = reference
      ? await store.paymentReceipts.record({
          transactionId: booking.transactionId,
          providerReference: reference,
          amountCents: outcome.amountCents ?? null,
          receivedAt: clock.now(),
        })
      : true;
    const replay = async (current: BookingRecord): Promise<PaymentSettlement> => {
      if (firstReport && reference && current.providerReference && current.providerReference !== reference) {
        await this.logForOperator(
          current.locationKey,
          `Booking ${current.transactionId} was paid twice (${current.providerReference} and ${reference}): refund ${reference}`,
        );
      }
      return { transactionId: current.transactionId, status: current.status, changed: false };
    };
    if (booking.status === 'cancelled_by_operator' && booking.paidAt === null) {
      return this.refuseUnhonoured(booking, outcome);
    }
    if (SETTLED_STATUSES.includes(booking.status)) return replay(booking);

    const location = await this.deps.locations.require(booking.locationKey);
    // Confirmed only for exactly its total: a checkout opened for another amount (or a gateway
    // that does not say what it charged) is paid money we cannot match to what is booked.
    const total = amountInCents(booking.totalCents);
    if (outcome.amountCents !== total) {
      return this.refuseAmount(booking, outcome, total);
    }

    const stayId = await store.bookingExtensions.stayOf(booking.transactionId);
    if (stayId) return this.settleExtension(booking, stayId, location, reference);

    const now = clock.now();
    const holdLive =
      isHoldBookingStatus(booking.status) && booking.expiresAt !== null && booking.expiresAt > now;
    if (holdLive) {
      const later = startsOnLaterDay(booking, location.zone, now);
      const confirmed = await this.deps.bookings.changeStatus(booking.transactionId, {
        from: [booking.status],
        to: later ? 'scheduled' : 'confirmed',
        actor: 'provider',
        reason: 'paid',
        detail: reference,
        paidAt: now,
        // A later day's PIN is assigned on the day by the morning scheduler.
        ...(later ? {} : { pin: await assignPin(store, this.deps.random, location.key, now) }),
        ...(reference ? { providerReference: reference } : {}),
        // Queued with the payment's commit: a crash before the send loses no confirmation.
        email: later ? 'scheduled' : 'confirmation',
      });
      if (confirmed) {
        logger.info({ transactionId: confirmed.transactionId, status: confirmed.status }, 'booking paid');
        await this.deps.emails.deliver(confirmed.transactionId);
        return { transactionId: confirmed.transactionId, status: confirmed.status, changed: true };
      }
      // Another notification settled it first, or the hold was expired just now: look again.
      const current = await store.bookings.get(booking.transactionId);
      if (current && SETTLED_STATUSES.includes(current.status)) return replay(current);
    }
    return this.settleLate(booking, location, reference);
  }

  /**
   * A paid extension of a stay: confirmed with the stay's PIN on the stay's lockers (never for a
   * later day: it continues a stay in progress), which the bridge hub then programs to the new end;
   * paid after its hold lapsed, confirmed late only if those same lockers are still free. A stay
   * that ended meanwhile in a cancellation has nothing to extend: the money is owed back.
   */
  private async settleExtension(
    booking: BookingRecord,
    stayId: string,
    location: LocationRecord,
    reference: string | null,
  ): Promise<PaymentSettlement> {
    const { store, clock, logger } = this.deps;
    const root = await store.bookings.get(stayId);
    if (!root || !EXTENDABLE_STATUSES.includes(root.status) || !root.pin) {
      const failed = await this.failAfterPayment(booking.transactionId, booking.status, 'paid_no_lockers', {
        reference,
      });
      await this.logForOperator(
        location.key,
        `Extension ${booking.transactionId} of booking ${stayId} was paid (${reference ?? 'no reference'}) after the stay was ${root?.status ?? 'deleted'}: refund it`,
      );
      await this.deps.emails.deliver(booking.transactionId);
      return {
        transactionId: booking.transactionId,
        status: failed?.status ?? (await this.currentStatus(booking)),
        changed: failed !== null,
      };
    }
    const now = clock.now();
    if (isHoldBookingStatus(booking.status) && booking.expiresAt !== null && booking.expiresAt > now) {
      const confirmed = await this.deps.bookings.changeStatus(booking.transactionId, {
        from: [booking.status],
        to: 'confirmed',
        actor: 'provider',
        reason: 'paid',
        detail: reference,
        paidAt: now,
        pin: root.pin,
        ...(reference ? { providerReference: reference } : {}),
        email: 'extension',
      });
      if (confirmed) {
        logger.info({ transactionId: confirmed.transactionId, stayId }, 'stay extended');
        await this.deps.emails.deliver(confirmed.transactionId);
        return { transactionId: confirmed.transactionId, status: confirmed.status, changed: true };
      }
      const current = await store.bookings.get(booking.transactionId);
      if (current && SETTLED_STATUSES.includes(current.status)) {
        return { transactionId: current.transactionId, status: current.status, changed: false };
      }
    }
    return this.settleLate(booking, location, reference, { pin: root.pin, sameLockersOnly: true });
  }

  /**
   * Paid, but not the booking's total: nothing is confirmed and no PIN is given. The booking ends
   * `failed_after_payment` (its lockers go back on sale), the operators are told to refund, and
   * the completion page tells the visitor.
   */
  private async refuseAmount(
    booking: BookingRecord,
    outcome: PaymentOutcome,
    total: number,
  ): Promise<PaymentSettlement> {
    const charged = outcome.amountCents === undefined ? 'an unknown amount' : `${outcome.amountCents} cents`;
    const detail = `charged ${charged}, the booking costs ${total} cents`;
    const failed = await this.failAfterPayment(booking.transactionId, booking.status, 'amount_mismatch', {
      reference: outcome.providerTransactionId,
      detail,
    });
    if (!failed) {
      // Settled meanwhile by another result: this one is a second payment to give back.
      const current = await this.deps.store.bookings.get(booking.transactionId);
      await this.logForOperator(
        booking.locationKey,
        `Booking ${booking.transactionId}: a payment (${outcome.providerTransactionId ?? 'no reference'}) ${detail}: refund it`,
      );
      return { transactionId: booking.transactionId, status: current?.status ?? null, changed: false };
    }
    await this.logForOperator(
      booking.locationKey,
      `Booking ${booking.transactionId} not confirmed: the gateway ${detail} (${outcome.providerTransactionId ?? 'no reference'}): refund it`,
    );
    await this.deps.emails.deliver(booking.transactionId);
    return { transactionId: booking.transactionId, status: failed.status, changed: true };
  }

  /**
   * Money the gateway took for a booking that cannot have it: the booking ends
   * `failed_after_payment` (its lockers go back on sale, a refund is owed), recording when it was
   * paid and the gateway's reference; `detail` says why when the reference alone does not.
   */
  private failAfterPayment(
    transactionId: string,
    from: BookingStatus,
    reason: 'paid_no_lockers' | 'amount_mismatch',
    { reference, detail = reference }: { reference: string | null; detail?: string | null },
  ): Promise<BookingRecord | null> {
    return this.deps.bookings.changeStatus(transactionId, {
      from: [from],
      to: 'failed_after_payment',
      actor: 'provider',
      reason,
      detail,
      paidAt: this.deps.clock.now(),
      ...(reference ? { providerReference: reference } : {}),
    });
  }

  /** Paid for a hold an operator had already cancelled: nothing to honour, the money goes back. */
  private async refuseUnhonoured(
    booking: BookingRecord,
    outcome: PaymentOutcome,
  ): Promise<PaymentSettlement> {
    const failed = await this.failAfterPayment(
      booking.transactionId,
      'cancelled_by_operator',
      'paid_no_lockers',
      { reference: outcome.providerTransactionId },
    );
    await this.logForOperator(
      booking.locationKey,
      `Booking ${booking.transactionId} was paid (${outcome.providerTransactionId ?? 'no reference'}) after an operator cancelled it: refund it`,
    );
    await this.deps.emails.deliver(booking.transactionId);
    return {
      transactionId: booking.transactionId,
      status: failed?.status ?? booking.status,
      changed: failed !== null,
    };
  }

  /** Paid after the hold lapsed (or was cancelled): its lockers or others if free, else a refund. */
  private async settleLate(
    booking: BookingRecord,
    location: LocationRecord,
    reference: string | null,
    /** An extension: the stay's PIN, on the stay's lockers only. */
    extension?: { pin: string; sameLockersOnly: true },
  ): Promise<PaymentSettlement> {
    const { store, clock, events, logger } = this.deps;
    const now = clock.now();
    const result = await store.bookings.confirmLatePayment({
      transactionId: booking.transactionId,
      now,
      pin: extension?.pin ?? (await assignPin(store, this.deps.random, location.key, now)),
      providerReference: reference,
      ...(extension ? { sameLockersOnly: true, email: 'extension' as const } : {}),
    });
    if (result.outcome === 'not_late') {
      const current = result.booking;
      return { transactionId: booking.transactionId, status: current?.status ?? null, changed: false };
    }
    for (const transactionId of result.expired) {
      if (transactionId !== booking.transactionId) events.emit({ type: 'booking.expired', transactionId });
    }
    if (result.outcome === 'confirmed_late') {
      logger.warn(
        { transactionId: booking.transactionId },
        'booking paid after its hold lapsed: confirmed late',
      );
      events.emit({ type: 'booking.confirmed', booking: result.booking });
      await this.reclaimDiscount(result.booking, location.key, now);
      await this.deps.emails.deliver(result.booking.transactionId);
    } else {
      await this.logForOperator(
        location.key,
        `Booking ${booking.transactionId} was paid (${reference ?? 'no reference'}) after its hold expired and no ${booking.size} locker is free: refund it`,
      );
      await this.deps.emails.deliver(booking.transactionId);
    }
    return { transactionId: booking.transactionId, status: result.booking.status, changed: true };
  }

  /**
   * The lapsed hold gave its single-use code back; the visitor paid the discounted price all the
   * same, so the code is this booking's again — unless another booking used it meanwhile, which an
   * operator should know about (the discount is honoured either way: it was charged).
   */
  private async reclaimDiscount(booking: BookingRecord, locationKey: string, now: Date): Promise<void> {
    const code = booking.discountCode;
    if (!code) return;
    const discount = await this.deps.store.discounts.get(code);
    if (!discount?.usableOnce) return;
    if (await this.deps.store.discounts.claim(code, booking.transactionId, now)) return;
    await this.logForOperator(
      locationKey,
      `Booking ${booking.transactionId} was paid late with the single-use code ${code}, which another booking used after this hold lapsed`,
    );
  }

  private async startPayment(
    booking: BookingRecord,
    sentAmountCents: number | undefined,
  ): Promise<CreatedPayment> {
    const amountCents = amountInCents(booking.totalCents);
    if (sentAmountCents !== undefined && sentAmountCents !== amountCents) {
      // The browser's figure is never charged; a difference only tells us a page is out of date (or tampered with).
      this.deps.logger.warn(
        { transactionId: booking.transactionId, sentAmountCents, amountCents },
        'payment amount sent differs from the booking total; charging the total',
      );
    }
    const email = booking.customer.email;
    if (!email) throw new AppError('validation/invalid_body', 'The booking has no e-mail address');
    try {
      const created = await this.deps.provider().createPayment({
        transactionId: booking.transactionId,
        amountCents,
        currency: 'EUR',
        buyerName: [booking.customer.firstName, booking.customer.lastName].filter(Boolean).join(' '),
        buyerEmail: email,
        language: booking.lang,
        urls: this.deps.responseUrls(),
      });
      this.deps.logger.info(
        { transactionId: booking.transactionId, amountCents, providerRef: created.providerRef },
        'payment created',
      );
      return created;
    } catch (error) {
      if (error instanceof PaymentProviderError) {
        this.deps.logger.error(
          { err: error, transactionId: booking.transactionId },
          'payment creation failed',
        );
        throw new AppError('payment/provider_error', error.message);
      }
      throw error;
    }
  }

  private customerOf(existing: BookingRecord, payer: PayerDetails): Customer {
    const kept = existing.customer;
    const samePhone =
      kept.phonePrefix !== null &&
      kept.phoneNumber !== null &&
      `${kept.phonePrefix}${kept.phoneNumber}` === parsePhone(payer.phone)?.e164;
    const phone = samePhone
      ? { phonePrefix: kept.phonePrefix, phoneNumber: kept.phoneNumber }
      : splitPhone(payer.phone);
    return { firstName: payer.firstName, lastName: payer.lastName, email: payer.email, ...phone };
  }

  /**
   * Asks the gateway to give a `refund_due` booking's payment back and, when it has, moves the
   * booking to `refunded` (as the provider, the gateway's reference in its history). A booking with
   * no payment reference, or a gateway that refuses or does not answer, stays `refund_due` with an
   * entry in the operators' log: they refund it by hand. Never throws; answers the booking as it is.
   */
  async refund(transactionId: string): Promise<BookingRecord | null> {
    // One refund call per booking at a time in this process: a double click, or an operator's retry
    // racing the visitor's cancellation, joins the call under way instead of refunding twice (the
    // gateway refuses a refund beyond what was paid, which covers other processes).
    const running = this.refunding.get(transactionId);
    if (running) return running;
    const call = this.refundOnce(transactionId).finally(() => this.refunding.delete(transactionId));
    this.refunding.set(transactionId, call);
    return call;
  }

  private readonly refunding = new Map<string, Promise<BookingRecord | null>>();

  private async refundOnce(transactionId: string): Promise<BookingRecord | null> {
    const { store, bookings } = this.deps;
    const booking = await store.bookings.get(transactionId);
    if (!booking || booking.status !== 'refund_due') return booking;
    const amount = `${centsToEuros(amountInCents(booking.totalCents)).toFixed(2)} €`;
    if (!booking.providerReference) {
      await this.logForOperator(
        booking.locationKey,
        `Booking ${transactionId}: no payment reference to refund ${amount} automatically; refund it by hand`,
      );
      return booking;
    }
    let refundReference: string;
    try {
      ({ refundReference } = await this.deps.provider().refund({
        transactionId,
        providerTransactionId: booking.providerReference,
        amountCents: amountInCents(booking.totalCents),
        currency: 'EUR',
      }));
    } catch (error) {
      await this.logForOperator(
        booking.locationKey,
        `Booking ${transactionId}: the gateway did not refund ${amount} (${(error as Error).message}); refund it by hand`,
      );
      return store.bookings.get(transactionId);
    }
    const refunded = await bookings.changeStatus(transactionId, {
      from: ['refund_due'],
      to: 'refunded',
      actor: 'provider',
      reason: 'refund_made',
      detail: refundReference,
    });
    // The entry asking for the refund stays in the operators' log: this one says it is done.
    await store.errorLog.add({
      at: this.deps.clock.now(),
      type: PAYMENT_REFUND_MADE_LOG_TYPE,
      locationKey: booking.locationKey,
      lockerId: null,
      message: `Booking ${transactionId}: ${amount} refunded by the gateway (${refundReference}); nothing to do`,
    });
    this.deps.logger.info({ transactionId, refundReference }, 'refund made');
    return refunded ?? store.bookings.get(transactionId);
  }

  private async currentStatus(booking: BookingRecord): Promise<BookingStatus | null> {
    return (await this.deps.store.bookings.get(booking.transactionId))?.status ?? null;
  }

  /** An error-log entry (the admin area's log) plus an error line: something an operator must do. */
  private async logForOperator(locationKey: string | null, message: string): Promise<void> {
    this.deps.logger.error({ locationKey }, message);
    await this.deps.store.errorLog.add({
      at: this.deps.clock.now(),
      type: PAYMENT_ERROR_LOG_TYPE,
      locationKey,
      lockerId: null,
      message,
    });
  }
}
