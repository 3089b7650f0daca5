import { randomFillSync } from 'node:crypto';
import {
  bookingPriceCents,
  bookingTotals,
  calendarBounds,
  centsToEuros,
  FAST_TRACK_HOURS,
  fastTrackWindow,
  generatePin,
  HANDED_OVER_BOOKING_STATUSES,
  holdMinutes,
  namedHoldExpiry,
  canTransition,
  bookingTotalFits,
  MAX_EUROS,
  isHoldBookingStatus,
  isInBlockWindow,
  parseDurationUnit,
  parseNote,
  REFUND_OWED_STATUSES,
  transactionIdFromBytes,
  unitPriceCents,
  type AppliedDiscount,
  type BookingDuration,
  type BookingFlow,
  type BookingReadBack,
  type BookingStatus,
  type Duration,
  type LockerSize,
  type SystemSettings,
} from '@deposito/protocol';
import { DateTime } from 'luxon';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import { AppError } from '../errors';
import type {
  BookingRecord,
  Customer,
  NewBooking,
  ReservationRequest,
  ReservationResult,
  StatusTransition,
} from '../store/booking.repository';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import type { AvailabilityService } from './availability.service';
import { assertFastTrackOpen, assertWindowOffered } from './booking-window-rules';
import type { DiscountService } from './discount.service';
import type { LocationService } from './location.service';
import type { TimeWindow } from '@deposito/protocol/booking/locker-availability';
import type { SettingsService } from './settings.service';

/** Where unguessable ids and PINs come from; crypto unless a test passes its own. */
export interface RandomSource {
  bytes(size: number): Uint8Array;
}

/** Bytes the crypto pool hands out at a time: one system call per ~100 holds instead of two per hold. */
const CRYPTO_POOL_BYTES = 4096;

/**
 * crypto's random bytes, drawn from a pool refilled by `randomFillSync` (a call per request cost ~4%
 * of a hold: reservation benchmark). Each byte is handed out once; every answer is a copy.
 */
export function pooledCryptoRandom(): RandomSource {
  const pool = new Uint8Array(CRYPTO_POOL_BYTES);
  let position = CRYPTO_POOL_BYTES;
  return {
    bytes(size) {
      if (size > CRYPTO_POOL_BYTES) return randomFillSync(new Uint8Array(size));
      if (position + size > CRYPTO_POOL_BYTES) {
        randomFillSync(pool);
        position = 0;
      }
      const bytes = pool.slice(position, position + size);
      position += size;
      return bytes;
    },
  };
}

export const cryptoRandom: RandomSource = pooledCryptoRandom();

/** How far in the past a start may lie (clock skew, a page left open on the summary). */
const START_GRACE_MS = 15 * 60_000;
const TRANSACTION_ID_BYTES = 16;

const NO_CUSTOMER: Customer = {
  firstName: null,
  lastName: null,
  email: null,
  phonePrefix: null,
  phoneNumber: null,
};

/** Statuses whose PIN and lockers the customer may see: paid and handed over. */
const PAID_WITH_LOCKERS: readonly BookingStatus[] = HANDED_OVER_BOOKING_STATUSES;

/** Holds whose payment page is open (or was declined): frozen at the amount the page charges. */
const FROZEN_HOLD_STATUSES: readonly BookingStatus[] = ['paying', 'payment_declined'];

export interface HoldRequest {
  locationKey: string;
  size: LockerSize;
  quantity: number;
  /** The booked period; the fast-track window (now, 3 hours) when absent. */
  window?: TimeWindow;
  /** The duration the browser chose; must match the window. Derived from the window when absent. */
  duration?: Duration;
  /** The page whose choices the period must be among (booking-window-rules.ts); daytime when absent. */
  flow?: BookingFlow;
  /** A pending hold of this visitor to move rather than a new one. */
  transactionId?: string;
  /** Exactly these lockers (one visitor blocking a locker he picked). */
  lockerNumbers?: number[];
  note?: string;
}

export interface BookingServiceDeps {
  store: Store;
  clock: Clock;
  events: DomainEvents;
  settings: SettingsService;
  locations: LocationService;
  availability: AvailabilityService;
  discounts: DiscountService;
  random?: RandomSource;
}

/** The legacy duration shapes (`3`, `{ value, unit: 'ore' | 'h' | 'g' }`) as a canonical duration. */
export function toDuration(duration: BookingDuration): Duration {
  if (typeof duration === 'number') return { value: duration, unit: 'hours' };
  const unit = parseDurationUnit(duration.unit);
  if (!unit) throw new AppError('booking/invalid_period', `Unknown duration unit ${duration.unit}`);
  return { value: duration.value, unit };
}

/**
 * The duration a window spans: whole calendar days in the zone (so a stay across a DST change is
 * still "1 day"), otherwise whole hours; null when it is neither.
 */
export function durationOfWindow(window: TimeWindow, zone: string): Duration | null {
  const hours = (window.endAt.getTime() - window.startAt.getTime()) / 3_600_000;
  // Shorter than the shortest local day (23 hours on a DST change): whole hours or nothing, no zone needed.
  if (hours < 23) return Number.isInteger(hours) && hours >= 1 ? { value: hours, unit: 'hours' } : null;
  const start = DateTime.fromJSDate(window.startAt, { zone });
  const end = DateTime.fromJSDate(window.endAt, { zone });
  const days = Math.round(end.diff(start, 'days').days);
  if (days >= 1 && start.plus({ days }).toMillis() === end.toMillis()) return { value: days, unit: 'days' };
  return Number.isInteger(hours) && hours >= 1 ? { value: hours, unit: 'hours' } : null;
}

function windowMatches(window: TimeWindow, duration: Duration, zone: string): boolean {
  // Hours are elapsed time whatever the zone does; days are calendar days in the zone.
  if (duration.unit === 'hours') {
    return window.endAt.getTime() - window.startAt.getTime() === duration.value * 3_600_000;
  }
  const start = DateTime.fromJSDate(window.startAt, { zone });
  return start.plus({ days: duration.value }).toMillis() === window.endAt.getTime();
}

/**
 * The first instant after the booking horizon at a location (local midnight after
 * `calendarBounds(now).max`), kept per zone until the location's date changes: every hold checks it
 * and luxon's zone arithmetic cost more than the rest of the check.
 */
const horizonByZone = new Map<string, { fromMs: number; untilMs: number; horizonEndMs: number }>();

function bookingHorizonEnd(now: Date, zone: string): number {
  const nowMs = now.getTime();
  const cached = horizonByZone.get(zone);
  if (cached && cached.fromMs <= nowMs && nowMs < cached.untilMs) return cached.horizonEndMs;
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  // The horizon's last date, as calendarBounds words it, then the midnight that ends it.
  const maxDate = calendarBounds(now, zone).max;
  const horizonEndMs = DateTime.fromISO(maxDate, { zone }).plus({ days: 1 }).toMillis();
  horizonByZone.set(zone, {
    fromMs: today.toMillis(),
    untilMs: today.plus({ days: 1 }).toMillis(),
    horizonEndMs,
  });
  return horizonEndMs;
}

/**
 * PINs offered per reservation attempt, and attempts before reading every active PIN instead. Four
 * six-digit candidates are all taken only at a location holding a large share of the million PINs.
 */
const PIN_CANDIDATES = 4;
const PIN_CANDIDATE_ROUNDS = 3;

/** PIN digits drawn from one call to the source per 64 bytes rather than one per PIN (a hold draws several). */
function bufferedRandom(source: RandomSource): { randomBytes(size: number): Uint8Array } {
  let buffer: Uint8Array = new Uint8Array(0);
  let position = 0;
  return {
    randomBytes(size) {
      if (position + size > buffer.length) {
        buffer = source.bytes(Math.max(64, size));
        position = 0;
      }
      position += size;
      return buffer.subarray(position - size, position);
    },
  };
}

/** The next fast-track window, for a hold that names no period (computed only then: luxon is costly). */
function fastTrackTimeWindow(now: Date, zone: string): TimeWindow {
  const fastTrack = fastTrackWindow(now, zone);
  return { startAt: new Date(fastTrack.startTimeIso), endAt: new Date(fastTrack.endTimeIso) };
}

const formatCents = (cents: number) => (cents / 100).toFixed(2);

/** An unpaid hold whose time is up, whether or not the expiry job has marked it yet. */
function lapsed(booking: BookingRecord, now: Date): boolean {
  return isHoldBookingStatus(booking.status) && booking.expiresAt !== null && booking.expiresAt <= now;
}

function sameWindow(booking: BookingRecord, window: TimeWindow): boolean {
  return (
    booking.startAt.getTime() === window.startAt.getTime() &&
    booking.endAt.getTime() === window.endAt.getTime()
  );
}

/** The event each status a booking moves to announces (the others announce nothing). */
const STATUS_EVENTS: Partial<
  Record<BookingStatus, 'booking.confirmed' | 'booking.scheduled' | 'booking.cancelled' | 'booking.expired'>
> = {
  confirmed: 'booking.confirmed',
  confirmed_late: 'booking.confirmed',
  scheduled: 'booking.scheduled',
  cancelled: 'booking.cancelled',
  cancelled_by_operator: 'booking.cancelled',
  refund_due: 'booking.cancelled',
  expired: 'booking.expired',
};

/** What a hold is for, decided by the server: where, when, at what price, with which note. */
interface HoldTerms {
  location: LocationRecord;
  window: TimeWindow;
  duration: Duration;
  priceCents: number;
  note: string;
  lang: BookingRecord['lang'];
}

/** A hold that has not lapsed, at this location, for exactly this window. */
function isLiveHoldFor(
  booking: BookingRecord | null,
  location: LocationRecord,
  window: TimeWindow,
  now: Date,
): boolean {
  return (
    booking !== null &&
    isHoldBookingStatus(booking.status) &&
    !lapsed(booking, now) &&
    booking.locationKey === location.key &&
    sameWindow(booking, window)
  );
}

/** The visitor's pending hold at this location that a new request may move, while it lasts. */
function movableHold(
  booking: BookingRecord | null,
  location: LocationRecord,
  now: Date,
): BookingRecord | null {
  return booking &&
    booking.status === 'pending' &&
    booking.locationKey === location.key &&
    booking.expiresAt !== null &&
    booking.expiresAt > now
    ? booking
    : null;
}

/** The request asks for the booking's own lockers again: same size, number and period, none picked. */
function sameLockersAndPeriod(booking: BookingRecord, request: HoldRequest, window: TimeWindow): boolean {
  return (
    !request.lockerNumbers &&
    booking.size === request.size &&
    booking.quantity === request.quantity &&
    sameWindow(booking, window)
  );
}

/**
 * Holds, bookings and their life until payment. Prices, PINs, ids and lockers are decided here,
 * never taken from the browser.
 */
export class BookingService {
  private readonly store: Store;
  private readonly clock: Clock;
  private readonly events: DomainEvents;
  private readonly random: RandomSource;

  constructor(private readonly deps: BookingServiceDeps) {
    this.store = deps.store;
    this.clock = deps.clock;
    this.events = deps.events;
    this.random = deps.random ?? cryptoRandom;
  }

  newTransactionId(): string {
    return transactionIdFromBytes(this.random.bytes(TRANSACTION_ID_BYTES));
  }

  /** The price of `quantity` lockers for `duration`, in cents; `booking/invalid_period` when not for sale. */
  priceCents(location: LocationRecord, size: LockerSize, duration: Duration, quantity: number): number {
    const price = bookingPriceCents({ pricing: location.pricing, size, duration, quantity });
    if (price === null) {
      throw new AppError(
        'booking/invalid_period',
        `No price for ${duration.value} ${duration.unit} at ${location.key}`,
      );
    }
    // Every amount on the wire is at most MAX_EUROS: a table priced near it times several lockers
    // would make a booking no answer (or gateway) could carry.
    if (!bookingTotalFits(price)) {
      throw new AppError('booking/amount_too_high', `The total would exceed ${MAX_EUROS} €`);
    }
    return price;
  }

  /**
   * Holds lockers for a pending booking (or moves the visitor's existing hold) in one atomic step.
   * The hold lapses after BOOKING_EXPIRATION_MINUTES unless paid.
   */
  async hold(request: HoldRequest): Promise<BookingRecord> {
    const location = await this.deps.locations.require(request.locationKey);
    const now = this.clock.now();
    const settings = await this.assertTakingBookings(location, now);
    const window = request.window ?? fastTrackTimeWindow(now, location.zone);
    this.assertBookableWindow(location, window, now);
    const duration = request.duration ?? durationOfWindow(window, location.zone);
    if (!duration || !windowMatches(window, duration, location.zone)) {
      throw new AppError('booking/invalid_period', 'The end does not match the duration');
    }
    const existing = request.transactionId ? await this.store.bookings.get(request.transactionId) : null;
    // A live hold saved again for its own period was checked when it was made (the summary page
    // re-sends it minutes later, when its slot may no longer be offered).
    if (!isLiveHoldFor(existing, location, window, now)) {
      assertWindowOffered({
        flow: request.flow ?? 'daytime',
        window,
        duration,
        now,
        zone: location.zone,
        settings,
      });
    }
    const priceCents = this.priceCents(location, request.size, duration, request.quantity);
    const note = request.note ?? 'lang:it';
    const terms: HoldTerms = { location, window, duration, priceCents, note, lang: parseNote(note).lang };

    if (existing && FROZEN_HOLD_STATUSES.includes(existing.status) && !lapsed(existing, now)) {
      // The payment page charges this hold's total: the same request again changes nothing, any
      // other change would make the paid amount differ from what is booked.
      if (existing.locationKey === location.key && sameLockersAndPeriod(existing, request, window))
        return existing;
      throw new AppError('booking/payment_started');
    }
    const hold = movableHold(existing, location, now);
    if (hold && sameLockersAndPeriod(hold, request, window)) {
      const updated = await this.updateHoldTerms(hold, terms, now);
      if (updated) return updated;
    }
    const minutes = holdMinutes(settings.BOOKING_EXPIRATION_MINUTES, Boolean(hold?.customer.email));
    const expiresAt = new Date(now.getTime() + minutes * 60_000);
    const booking = this.newPendingBooking(request, terms, hold, expiresAt);
    const result = await this.reserveHold(request, location, booking, hold !== null, now);
    if (hold?.discountCode) await this.deps.discounts.release(hold.discountCode, hold.transactionId);
    for (const transactionId of result.expired) this.events.emit({ type: 'booking.expired', transactionId });
    this.events.emit({ type: 'booking.held', booking: result.booking });
    return result.booking;
  }

  /** Same lockers, same period: only the hold's details change; a code already applied stays. */
  private async updateHoldTerms(
    hold: BookingRecord,
    terms: HoldTerms,
    now: Date,
  ): Promise<BookingRecord | null> {
    const discount = hold.discountCode
      ? await this.discountStillValid(hold, terms.location, terms.duration)
      : null;
    const totals = bookingTotals({ priceCents: terms.priceCents, discount });
    return this.store.bookings.updateHold(
      hold.transactionId,
      {
        duration: terms.duration,
        priceOriginalCents: totals.priceCents,
        priceDiscountedCents: totals.discountedPriceCents,
        feeCents: totals.feeCents,
        totalCents: totals.totalCents,
        discountCode: discount ? hold.discountCode : null,
        note: terms.note,
        lang: terms.lang,
      },
      now,
    );
  }

  /** The pending booking a hold saves: the visitor's hold moved, or a new one with a new id. */
  private newPendingBooking(
    request: HoldRequest,
    terms: HoldTerms,
    hold: BookingRecord | null,
    expiresAt: Date,
  ): NewBooking {
    const totals = bookingTotals({ priceCents: terms.priceCents });
    return {
      transactionId: hold ? hold.transactionId : this.newTransactionId(),
      locationKey: terms.location.key,
      status: 'pending',
      startAt: terms.window.startAt,
      endAt: terms.window.endAt,
      size: request.size,
      quantity: request.quantity,
      duration: terms.duration,
      priceOriginalCents: totals.priceCents,
      priceDiscountedCents: totals.discountedPriceCents,
      feeCents: totals.feeCents,
      totalCents: totals.totalCents,
      discountCode: null,
      customer: hold ? hold.customer : NO_CUSTOMER,
      note: terms.note,
      lang: terms.lang,
      pin: null,
      expiresAt,
    };
  }

  /**
   * Reserves the booking's lockers, replacing the hold's when it has one (a fresh hold when that one
   * lapsed a moment ago); `booking/locker_unavailable` when too few are free.
   */
  private async reserveHold(
    request: HoldRequest,
    location: LocationRecord,
    booking: NewBooking,
    replaceHold: boolean,
    now: Date,
  ): Promise<Extract<ReservationResult, { ok: true }>> {
    const reservation = {
      maxOnline: location.maxOnline[request.size],
      now,
      lockerNumbers: request.lockerNumbers,
    };
    let result = await this.reserveWithUnusedPin({ ...reservation, booking, replaceHold });
    if (!result.ok && result.reason === 'hold_missing') {
      // The hold lapsed a moment ago: make a fresh one.
      result = await this.reserveWithUnusedPin({
        ...reservation,
        booking: { ...booking, transactionId: this.newTransactionId(), customer: NO_CUSTOMER },
      });
    }
    if (!result.ok) {
      const available = result.reason === 'unavailable' ? result.available : 0;
      throw new AppError(
        'booking/locker_unavailable',
        `Only ${available} ${request.size} locker(s) can be booked for that time`,
        { available },
      );
    }
    return result;
  }

  /**
   * A booking for a later day (`POST /api/bookings/scheduled`): held like any other from now on,
   * so it consumes capacity at once. Prices a browser sent are compared with ours: the original
   * price must be ours; the discounted one may be the price after the hold's discount, with or
   * without the service fee.
   */
  async holdScheduled(
    request: Omit<HoldRequest, 'duration' | 'lockerNumbers' | 'window'> & {
      window: TimeWindow;
      sentPriceCents?: number;
      sentDiscountedCents?: number;
    },
  ): Promise<BookingRecord> {
    const location = await this.deps.locations.require(request.locationKey);
    const duration = durationOfWindow(request.window, location.zone);
    if (!duration) throw new AppError('booking/invalid_period', 'The period is not whole hours or days');
    const priceCents = this.priceCents(location, request.size, duration, request.quantity);
    const existing = request.transactionId ? await this.store.bookings.get(request.transactionId) : null;
    const discount =
      existing?.status === 'pending' && existing.discountCode
        ? await this.deps.discounts.check({
            code: existing.discountCode,
            duration,
            zone: location.zone,
            transactionId: existing.transactionId,
          })
        : null;
    const totals = bookingTotals({ priceCents, discount: discount?.ok ? discount.discount : null });
    this.assertPriceMatches(request.sentPriceCents, [priceCents]);
    this.assertPriceMatches(request.sentDiscountedCents, [
      totals.discountedPriceCents,
      totals.totalCents,
      priceCents,
      priceCents + totals.feeCents,
    ]);
    return this.hold({ ...request, duration });
  }

  /**
   * The visitor's details (and discount code) for a hold; the total is recomputed. Once the payment
   * page is open only the contact details may change: a different code would change the total.
   */
  async saveCustomerDetails(
    transactionId: string,
    details: { customer: Customer; discountCode: string | null; note?: string },
  ): Promise<BookingRecord> {
    const booking = await this.requireHold(transactionId);
    const code = details.discountCode?.trim() || null;
    const now = this.clock.now();
    if (booking.status !== 'pending') {
      if (code !== booking.discountCode) throw new AppError('booking/payment_started');
      const updated = await this.store.bookings.updateHold(
        transactionId,
        {
          customer: details.customer,
          ...(details.note !== undefined && { note: details.note, lang: parseNote(details.note).lang }),
        },
        now,
        FROZEN_HOLD_STATUSES,
      );
      if (!updated) throw new AppError('BOOKING_EXPIRED');
      return updated;
    }
    const location = await this.deps.locations.require(booking.locationKey);
    let discount: AppliedDiscount | null = null;
    if (code) {
      discount = await this.deps.discounts.claimFor({
        code,
        transactionId,
        duration: booking.duration,
        zone: location.zone,
      });
    }
    if (booking.discountCode && booking.discountCode !== code) {
      await this.deps.discounts.release(booking.discountCode, transactionId);
    }
    const totals = bookingTotals({ priceCents: booking.priceOriginalCents, discount });
    const updated = await this.store.bookings.updateHold(
      transactionId,
      {
        expiresAt: await this.namedHoldExpiry(booking),
        customer: details.customer,
        discountCode: code,
        priceDiscountedCents: totals.discountedPriceCents,
        feeCents: totals.feeCents,
        totalCents: totals.totalCents,
        ...(details.note !== undefined && { note: details.note, lang: parseNote(details.note).lang }),
      },
      now,
    );
    if (!updated) {
      if (code) await this.deps.discounts.release(code, transactionId);
      // Frozen by a payment page opened meanwhile, or lapsed.
      const current = await this.store.bookings.get(transactionId);
      if (current && FROZEN_HOLD_STATUSES.includes(current.status)) {
        throw new AppError('booking/payment_started');
      }
      throw new AppError('BOOKING_EXPIRED');
    }
    return updated;
  }

  /** When a hold lapses once its visitor is known (protocol's namedHoldExpiry); undefined: unchanged. */
  private async namedHoldExpiry(booking: BookingRecord): Promise<Date | undefined> {
    const { BOOKING_EXPIRATION_MINUTES } = await this.deps.settings.system();
    return namedHoldExpiry(booking, BOOKING_EXPIRATION_MINUTES) ?? undefined;
  }

  /**
   * Freezes a hold for the payment page about to be opened for its total (pending → paying), or
   * reopens payment of a frozen one (paying | payment_declined → paying). `BOOKING_EXPIRED` when
   * the hold lapsed.
   */
  async openPayment(transactionId: string): Promise<BookingRecord> {
    const booking = await this.requireHold(transactionId);
    const frozen = await this.changeStatus(transactionId, {
      from: [booking.status],
      to: 'paying',
      actor: 'visitor',
      reason: 'payment_opened',
    });
    if (frozen && !lapsed(frozen, this.clock.now())) return frozen;
    if (frozen) throw new AppError('BOOKING_EXPIRED');
    // Moved meanwhile (paid, expired, cancelled): say what it is now.
    await this.requireHold(transactionId);
    throw new AppError('booking/invalid_state');
  }

  /** Cancels a pending booking and frees its lockers; cancelling one that already ended changes nothing. */
  async cancel(transactionId: string): Promise<void> {
    const booking = await this.store.bookings.get(transactionId);
    if (!booking) throw new AppError('BOOKING_NOT_FOUND');
    if (booking.status === 'cancelled' || booking.status === 'expired') return;
    const cancelled = await this.changeStatus(transactionId, {
      from: ['pending', 'paying', 'payment_declined'],
      to: 'cancelled',
      actor: 'visitor',
      reason: 'visitor_cancelled',
    });
    if (!cancelled) {
      const current = await this.store.bookings.get(transactionId);
      if (current?.status === 'cancelled' || current?.status === 'expired') return;
      throw new AppError(
        'booking/invalid_state',
        `A ${current?.status ?? 'missing'} booking cannot be cancelled`,
      );
    }
  }

  /**
   * Moves a booking between statuses and tells subscribers (the seam payments use to confirm and
   * the bridge hub listens to). Null when the booking is not in one of `from`.
   */
  async changeStatus(
    transactionId: string,
    transition: Omit<StatusTransition, 'now'>,
  ): Promise<BookingRecord | null> {
    const owesMoney = (REFUND_OWED_STATUSES as readonly BookingStatus[]).includes(transition.to);
    const booking = await this.store.bookings.transition(transactionId, {
      // Money kept for a booking that is not honoured: the visitor is told it will come back.
      ...(owesMoney ? { email: 'refund' } : {}),
      ...transition,
      now: this.clock.now(),
    });
    if (!booking) return null;
    if (booking.status === 'refund_due') {
      // Whoever handles refunds works from the operators' error log, like every other refund owed.
      await this.store.errorLog.add({
        at: this.clock.now(),
        type: 'payment',
        locationKey: booking.locationKey,
        lockerId: null,
        message: `Booking ${booking.transactionId} was cancelled by the ${transition.actor} (${transition.detail ?? transition.reason}): refund ${centsToEuros(booking.totalCents).toFixed(2)} €`,
      });
    }
    const announced = STATUS_EVENTS[booking.status];
    if (announced === 'booking.expired') this.events.emit({ type: announced, transactionId });
    else if (announced) this.events.emit({ type: announced, booking });
    if (booking.status === 'refund_due' || booking.status === 'cancelled_by_operator') {
      await this.endExtensions(booking, transition);
    }
    return booking;
  }

  /**
   * A stay cancelled takes its extensions with it, by the same hand and for the same reason: the
   * paid ones are owed back too (or cancelled as the stay was), the unpaid holds let go.
   */
  private async endExtensions(stay: BookingRecord, transition: Omit<StatusTransition, 'now'>): Promise<void> {
    for (const transactionId of await this.store.bookingExtensions.ofStay(stay.transactionId)) {
      const extension = await this.store.bookings.get(transactionId);
      if (!extension) continue;
      const to = isHoldBookingStatus(extension.status)
        ? transition.actor === 'visitor'
          ? 'cancelled'
          : 'cancelled_by_operator'
        : stay.status;
      if (!canTransition(extension.status, to, transition.actor)) continue;
      await this.changeStatus(transactionId, {
        from: [extension.status],
        to,
        actor: transition.actor,
        reason: transition.reason,
        detail: `stay ${stay.transactionId} cancelled${transition.detail ? `: ${transition.detail}` : ''}`,
      });
    }
  }

  async get(transactionId: string): Promise<BookingRecord> {
    const booking = await this.store.bookings.get(transactionId);
    if (!booking) throw new AppError('BOOKING_NOT_FOUND');
    return booking;
  }

  /**
   * The booking as the completion page reads it. The PIN and lockers show only once paid; a
   * scheduled booking shows neither (assigned on the day).
   */
  async readBack(transactionId: string): Promise<BookingReadBack> {
    const booking = await this.get(transactionId);
    const paid = PAID_WITH_LOCKERS.includes(booking.status);
    const showLockers = paid || isHoldBookingStatus(booking.status);
    return {
      transactionId: booking.transactionId,
      location: booking.locationKey,
      nome: booking.customer.firstName ?? '',
      cognome: booking.customer.lastName ?? '',
      email: booking.customer.email ?? '',
      lockerType: booking.size,
      quantita: booking.quantity,
      reservedLockers: showLockers ? booking.lockers.filter((l) => l.active).map((l) => l.number) : [],
      startTimeIso: booking.startAt.toISOString(),
      endTimeIso: booking.endAt.toISOString(),
      price_discounted: centsToEuros(booking.priceDiscountedCents),
      total: centsToEuros(booking.totalCents),
      status: booking.status,
      pin: paid ? booking.pin : null,
      note: booking.note,
    };
  }

  /**
   * The fast-track offer for a visitor starting now: a large locker for 3 hours, else a standard
   * one; `booking/locker_unavailable` when neither is free. Reserves nothing.
   */
  async fastTrackOffer(
    locationKey: string,
  ): Promise<{ size: LockerSize; lockerNumber: number; priceCents: number }> {
    const location = await this.deps.locations.require(locationKey);
    const now = this.clock.now();
    const settings = await this.assertTakingBookings(location, now);
    assertFastTrackOpen(now, location.zone, settings);
    const window = fastTrackWindow(now, location.zone);
    const sellable = await this.deps.availability.sellableForWindow(location, {
      startAt: new Date(window.startTimeIso),
      endAt: new Date(window.endTimeIso),
    });
    const size: LockerSize | null =
      sellable.large.length > 0 ? 'large' : sellable.standard.length > 0 ? 'standard' : null;
    if (!size) throw new AppError('booking/locker_unavailable');
    const unit = unitPriceCents(location.pricing, size, { value: FAST_TRACK_HOURS, unit: 'hours' });
    if (unit === null) throw new AppError('booking/invalid_period', `No ${FAST_TRACK_HOURS}-hour price`);
    return { size, lockerNumber: sellable[size][0].number, priceCents: unit };
  }

  /** Compares a price a browser sent with ours; `booking/price_mismatch` when it is none of the accepted ones. */
  assertPriceMatches(sentCents: number | undefined, acceptedCents: readonly number[]): void {
    if (sentCents === undefined || acceptedCents.includes(sentCents)) return;
    throw new AppError(
      'booking/price_mismatch',
      `The price sent (${formatCents(sentCents)} €) is not ours (${formatCents(acceptedCents[0])} €)`,
    );
  }

  /**
   * Reserves with a PIN no booking holding lockers at the location uses, checked in the reservation's
   * own step from a few random candidates (an indexed lookup; reading every active PIN grew with the
   * location's future bookings, and a separate check cost a round trip per hold: reservation
   * benchmarks). Reading every active PIN remains the fallback.
   */
  private async reserveWithUnusedPin(
    request: Omit<ReservationRequest, 'pinCandidates'>,
  ): Promise<ReservationResult> {
    const random = bufferedRandom(this.random);
    for (let round = 0; round < PIN_CANDIDATE_ROUNDS; round += 1) {
      const pinCandidates = Array.from({ length: PIN_CANDIDATES }, () => generatePin(random));
      const result = await this.store.bookings.reserveLockers({ ...request, pinCandidates });
      if (result.ok || result.reason !== 'pins_taken') return result;
    }
    const { locationKey } = request.booking;
    const pin = generatePin(random, {
      exclude: await this.store.bookings.activePins(locationKey, request.now),
    });
    return this.store.bookings.reserveLockers({ ...request, booking: { ...request.booking, pin } });
  }

  /** A hold that has not lapsed (pending, or frozen for its payment page). */
  private async requireHold(transactionId: string): Promise<BookingRecord> {
    const booking = await this.store.bookings.get(transactionId);
    if (!booking) throw new AppError('BOOKING_NOT_FOUND');
    if (booking.status === 'expired' || lapsed(booking, this.clock.now()))
      throw new AppError('BOOKING_EXPIRED');
    if (!isHoldBookingStatus(booking.status)) {
      throw new AppError('booking/invalid_state', `The booking is ${booking.status}, no longer pending`);
    }
    return booking;
  }

  private async discountStillValid(
    hold: BookingRecord,
    location: LocationRecord,
    duration: Duration,
  ): Promise<AppliedDiscount | null> {
    const check = await this.deps.discounts.check({
      code: hold.discountCode!,
      duration,
      zone: location.zone,
      transactionId: hold.transactionId,
    });
    if (check.ok) return check.discount;
    await this.deps.discounts.release(hold.discountCode!, hold.transactionId);
    return null;
  }

  /**
   * The system settings, read once per request; `booking/maintenance` while bookings are closed:
   * everywhere (maintenance mode, a block window) or at this site (its own maintenance).
   */
  private async assertTakingBookings(location: LocationRecord, now: Date): Promise<SystemSettings> {
    const settings = await this.deps.settings.system();
    const blocked =
      settings.BLOCK_WINDOWS.length > 0 && isInBlockWindow(now, location.zone, settings.BLOCK_WINDOWS);
    if (settings.MAINTENANCE_MODE || location.maintenance || blocked) {
      throw new AppError('booking/maintenance');
    }
    return settings;
  }

  private assertBookableWindow(location: LocationRecord, window: TimeWindow, now: Date): void {
    if (window.endAt <= window.startAt)
      throw new AppError('booking/invalid_period', 'The end must be after the start');
    if (window.startAt.getTime() < now.getTime() - START_GRACE_MS) {
      throw new AppError('booking/invalid_period', 'The start is in the past');
    }
    if (window.startAt.getTime() >= bookingHorizonEnd(now, location.zone)) {
      throw new AppError('booking/invalid_period', 'The start is beyond the booking horizon');
    }
  }
}
