import { createHash, randomBytes } from 'node:crypto';
import {
  amountInCents,
  HANDED_OVER_BOOKING_STATUSES,
  PAID_BOOKING_STATUSES,
  type BookingStatus,
  type MyBookingLinkResponse,
  type MyBookingResendResponse,
  type MyBookingResponse,
} from '@deposito/protocol';
import {
  readVisitorCancellationPolicy,
  VISITOR_CANCELLATION_POLICY_SETTING,
  visitorCancellationVerdict,
  type CancellationVerdict,
  type VisitorCancellationPolicy,
} from '@deposito/protocol/booking/cancellation-policy';
import type { Language } from '@deposito/protocol/booking/note';
import ical from 'ical-generator';
import { DateTime } from 'luxon';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import { MORNING_HOUR } from '../jobs/morning-scheduler';
import type { BookingRecord } from '../store/booking.repository';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import { resendableEmail, resendEmailKind } from './booking-email.service';
import {
  activeLockerNumbers,
  extensionOfferAnswer,
  readStay,
  type BookingExtensionService,
  type Stay,
} from './booking-extension.service';
import { bookingReceiptPdf, hasReceipt, receiptFileName } from './booking-receipt';
import type { BookingService } from './booking.service';
import type { SettingsService } from './settings.service';

/** A link keeps working this long after the booking's end (receipts, questions), then lapses. */
export const MY_BOOKING_LINK_DAYS_AFTER_END = 30;
/** 256 random bits: unguessable, whatever the number of links issued. */
const TOKEN_BYTES = 32;

/** Extensions listed on the page: the paid ones, and those whose money is owed or was given back. */
const EXTENSION_LISTED: readonly BookingStatus[] = [
  'confirmed',
  'confirmed_late',
  'failed_after_payment',
  'refund_due',
  'refunded',
];

/** Statuses whose PIN the visitor may see (the ones holding lockers now; as the completion page). */
const PIN_SHOWN: readonly BookingStatus[] = HANDED_OVER_BOOKING_STATUSES;
const PAID: readonly BookingStatus[] = PAID_BOOKING_STATUSES;

export function hashMyBookingToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** The visitor's page path of a token (the web route). */
export function myBookingPath(token: string): string {
  return `/my-booking/${token}`;
}

/** The calendar texts, in the booking's language (the .ics and the Google Calendar link). */
const CALENDAR_TEXTS: Record<
  Language,
  { title: string; reference: string; lockers: string; address: string }
> = {
  it: {
    title: 'Deposito bagagli',
    reference: 'Codice prenotazione',
    lockers: 'Locker',
    address: 'Indirizzo',
  },
  en: { title: 'Luggage storage', reference: 'Booking reference', lockers: 'Lockers', address: 'Address' },
  es: {
    title: 'Consigna de equipaje',
    reference: 'Código de reserva',
    lockers: 'Taquillas',
    address: 'Dirección',
  },
  jp: { title: '手荷物預かり', reference: '予約番号', lockers: 'ロッカー', address: '住所' },
};

/** Google Calendar wants `YYYYMMDDTHHmmssZ`. */
const googleInstant = (instant: Date) =>
  DateTime.fromJSDate(instant, { zone: 'utc' }).toFormat("yyyyMMdd'T'HHmmss'Z'");

/**
 * The visitor's own booking page behind private links: mints links (the token is returned once
 * and only its hash is stored), reads a booking through one, and makes its calendar file.
 */
export class MyBookingService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    /** The merchant and VAT rate of the receipts. */
    private readonly settings: SettingsService,
    /** Moves bookings (the visitor's cancellation). */
    private readonly bookings: BookingService,
    /** Offers and holds extensions of the stay. */
    private readonly extensions: BookingExtensionService,
  ) {}

  /** A new link of the booking, valid until 30 days after its end. */
  async mint(booking: Pick<BookingRecord, 'transactionId' | 'endAt'>): Promise<MyBookingLinkResponse> {
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const expiresAt = DateTime.fromJSDate(booking.endAt)
      .plus({ days: MY_BOOKING_LINK_DAYS_AFTER_END })
      .toJSDate();
    await this.store.bookingLinks.add({
      tokenHash: hashMyBookingToken(token),
      transactionId: booking.transactionId,
      createdAt: this.clock.now(),
      expiresAt,
    });
    return { token, expiresAt: expiresAt.toISOString() };
  }

  /**
   * A link for the completion page of a paid booking (of its stay's first booking when it is an
   * extension: the page shows the whole stay); BOOKING_NOT_FOUND for any other.
   */
  async mintForPaidBooking(transactionId: string): Promise<MyBookingLinkResponse> {
    const booking = await this.store.bookings.get(transactionId);
    if (!booking || !PAID.includes(booking.status)) throw new AppError('BOOKING_NOT_FOUND');
    const stay = await readStay(this.store, booking);
    return this.mint(stay ? { transactionId: stay.root.transactionId, endAt: stay.endAt } : booking);
  }

  /**
   * Holds the lockers for the longer stay the visitor chose (one of `extension.options`, by its
   * end) and answers the extension's hold, whose payment page the caller opens.
   */
  async extend(token: string, endIso: string): Promise<BookingRecord> {
    const { stay, location } = await this.openStay(token);
    return this.extensions.hold(stay, location, new Date(endIso));
  }

  /** Revokes one link; the booking's other links keep working. */
  async revoke(token: string): Promise<boolean> {
    const link = await this.store.bookingLinks.find(hashMyBookingToken(token));
    if (!link) return false;
    return (await this.store.bookingLinks.revoke(link.transactionId, this.clock.now(), link.tokenHash)) > 0;
  }

  /**
   * The visitor cancels under the policy: the booking moves to refund_due as the visitor (recorded,
   * lockers released, the refund e-mail queued in the same transaction, the operators' refund entry
   * written, and `booking.cancelled` emitted, which takes the PIN off the controller, as for an
   * operator's cancellation). Outside the policy nothing changes: `my_booking/cancel_not_allowed`.
   */
  async cancel(token: string): Promise<MyBookingResponse> {
    // The whole stay: its extensions follow the first booking (BookingService.changeStatus).
    const { stay, location } = await this.openStay(token);
    const booking = stay.root;
    const { verdict } = await this.cancellation(booking, location);
    if (!verdict.allowed) {
      throw new AppError('my_booking/cancel_not_allowed', `Not cancellable online: ${verdict.reason}`);
    }
    const moved = await this.bookings.changeStatus(booking.transactionId, {
      from: [booking.status],
      to: 'refund_due',
      actor: 'visitor',
      reason: 'visitor_cancelled',
      detail: 'my booking page',
    });
    // Changed meanwhile (paid statuses only move forward): the answer says what it is now.
    if (!moved) throw new AppError('booking/invalid_state');
    return this.read(token);
  }

  /**
   * Queues the booking's confirmation again, to the booking's own address only (never one the
   * caller names): the paid e-mail of its status now (with the PIN once assigned, else the
   * scheduled one), with a fresh private link. `allow` takes one from the booking's hourly
   * allowance or throws. `my_booking/resend_not_available` when it is not paid.
   */
  async resend(
    token: string,
    allow: (transactionId: string) => Promise<void>,
  ): Promise<MyBookingResendResponse> {
    const booking = (await this.openStay(token)).stay.root;
    const kind = resendableEmail(booking);
    if (!kind) throw new AppError('my_booking/resend_not_available');
    await allow(booking.transactionId);
    await this.store.emailOutbox.enqueue({
      transactionId: booking.transactionId,
      kind: resendEmailKind(kind),
      now: this.clock.now(),
    });
    return { sentTo: maskEmailAddress(booking.customer.email!) };
  }

  async read(token: string): Promise<MyBookingResponse> {
    const { stay, location } = await this.openStay(token);
    const booking = stay.root;
    const { policy, verdict } = await this.cancellation(booking, location);
    const lockers = activeLockerNumbers(booking);
    const showPin = PIN_SHOWN.includes(booking.status) && booking.pin !== null;
    const extension = await this.extensions.offer(stay, location);
    return {
      reference: booking.transactionId,
      status: booking.status,
      location: {
        name: location.name,
        address: location.address,
        timezone: location.zone,
        openingHours: location.openingHours,
        mapsUrl: mapsUrl(location),
      },
      size: booking.size,
      quantity: booking.quantity,
      // A scheduled booking's lockers are shown on the day, with its PIN.
      lockers: PIN_SHOWN.includes(booking.status) ? lockers : [],
      startIso: booking.startAt.toISOString(),
      endIso: stay.endAt.toISOString(),
      paidCents: [booking, ...stay.paid].reduce((sum, paid) => sum + amountInCents(paid.totalCents), 0),
      pin: showPin ? booking.pin : null,
      pinExpectedFrom:
        booking.status === 'scheduled' ? pinExpectedFrom(booking, location).toISOString() : null,
      receipt: hasReceipt(booking),
      googleCalendarUrl: this.googleCalendarUrl(stay, location, showPin),
      cancellation: {
        policy,
        allowed: verdict.allowed,
        refusal: verdict.allowed ? null : verdict.reason,
      },
      extension: extensionOfferAnswer(extension),
      extensions: stay.extensions
        .filter((paid) => EXTENSION_LISTED.includes(paid.status))
        .map((paid) => ({
          reference: paid.transactionId,
          status: paid.status,
          startIso: paid.startAt.toISOString(),
          endIso: paid.endAt.toISOString(),
          paidCents: amountInCents(paid.totalCents),
        })),
    };
  }

  /** The policy in force (system setting) and what it says of this booking now. */
  private async cancellation(
    booking: BookingRecord,
    location: LocationRecord,
  ): Promise<{ policy: VisitorCancellationPolicy; verdict: CancellationVerdict }> {
    const policy = readVisitorCancellationPolicy(
      await this.store.settings.get(VISITOR_CANCELLATION_POLICY_SETTING),
    );
    const verdict = visitorCancellationVerdict({
      policy,
      status: booking.status,
      bookedAt: booking.createdAt,
      startAt: booking.startAt,
      zone: location.zone,
      now: this.clock.now(),
    });
    return { policy, verdict };
  }

  /** The booking's PDF receipt; `my_booking/receipt_not_available` unless it is paid. */
  async receipt(token: string): Promise<{ filename: string; pdf: Uint8Array }> {
    const { stay, location } = await this.openStay(token);
    const booking = stay.root;
    if (!hasReceipt(booking)) throw new AppError('my_booking/receipt_not_available');
    return {
      filename: receiptFileName(booking.transactionId),
      pdf: await bookingReceiptPdf(this.settings, booking, location),
    };
  }

  /** The booking as an iCalendar file: the stay, the address, and the PIN once assigned. */
  async calendar(token: string): Promise<{ filename: string; ics: string }> {
    const { stay, location } = await this.openStay(token);
    const booking = stay.root;
    const texts = CALENDAR_TEXTS[booking.lang];
    const calendar = ical({ prodId: { company: 'Deposito', product: 'my-booking' }, name: texts.title });
    calendar.createEvent({
      id: `${booking.transactionId}@deposito`,
      start: booking.startAt,
      end: stay.endAt,
      summary: `${texts.title} – ${location.name}`,
      location: `${location.name}, ${location.address}`,
      description: this.notes(booking, location, PIN_SHOWN.includes(booking.status)),
    });
    return { filename: `deposito-${booking.transactionId}.ics`, ics: calendar.toString() };
  }

  private notes(booking: BookingRecord, location: LocationRecord, withPin: boolean): string {
    const texts = CALENDAR_TEXTS[booking.lang];
    const lockers = activeLockerNumbers(booking);
    return [
      `${texts.reference}: ${booking.transactionId}`,
      `${texts.address}: ${location.address}`,
      ...(withPin && lockers.length > 0 ? [`${texts.lockers}: ${lockers.join(', ')}`] : []),
      ...(withPin && booking.pin ? [`PIN: ${booking.pin}`] : []),
    ].join('\n');
  }

  private googleCalendarUrl(stay: Stay, location: LocationRecord, withPin: boolean): string {
    const booking = stay.root;
    const texts = CALENDAR_TEXTS[booking.lang];
    const query = new URLSearchParams({
      action: 'TEMPLATE',
      text: `${texts.title} – ${location.name}`,
      dates: `${googleInstant(booking.startAt)}/${googleInstant(stay.endAt)}`,
      details: this.notes(booking, location, withPin),
      location: `${location.name}, ${location.address}`,
    });
    return `https://calendar.google.com/calendar/render?${query.toString()}`;
  }

  /** The stay of a live link (from its first booking, whichever booking of it the link names). */
  private async openStay(token: string): Promise<{ stay: Stay; location: LocationRecord }> {
    const { booking, location } = await this.open(token);
    const stay = await readStay(this.store, booking);
    if (!stay) throw new AppError('my_booking/not_found');
    return { stay, location };
  }

  /** The booking and location of a live link; one answer for unknown, expired, revoked or deleted. */
  private async open(token: string): Promise<{ booking: BookingRecord; location: LocationRecord }> {
    const link = /^[A-Za-z0-9_-]{1,200}$/.test(token)
      ? await this.store.bookingLinks.find(hashMyBookingToken(token))
      : null;
    const now = this.clock.now();
    if (!link || link.revokedAt !== null || link.expiresAt.getTime() <= now.getTime()) {
      throw new AppError('my_booking/not_found');
    }
    const booking = await this.store.bookings.get(link.transactionId);
    const location = booking ? await this.store.locations.get(booking.locationKey) : null;
    if (!booking || !location) throw new AppError('my_booking/not_found');
    return { booking, location };
  }
}

/** `giulia.rossi@example.com` → `g•••@example.com`: enough to recognise, not to harvest. */
export function maskEmailAddress(address: string): string {
  const at = address.lastIndexOf('@');
  if (at <= 0) return '•••';
  return `${address[0]}•••${address.slice(at)}`;
}

/** Google's universal maps link: the phone's map app opens it (Android, iOS), a desktop the site. */
function mapsUrl(location: Pick<LocationRecord, 'name' | 'address'>): string {
  const query = encodeURIComponent(`${location.name}, ${location.address}`);
  return `https://www.google.com/maps/search/?api=1&query=${query}`;
}

/** The morning of the booking's local day, when the scheduler assigns the PIN and e-mails it. */
function pinExpectedFrom(booking: BookingRecord, location: LocationRecord): Date {
  return DateTime.fromJSDate(booking.startAt, { zone: location.zone })
    .startOf('day')
    .set({ hour: MORNING_HOUR })
    .toJSDate();
}
