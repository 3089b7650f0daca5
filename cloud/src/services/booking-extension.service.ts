import { isHoldBookingStatus, parseNote, type ExtensionOfferResponse } from '@deposito/protocol';
import {
  EXTENDABLE_STATUSES,
  extensionOffer,
  type ExtensionOffer,
} from '@deposito/protocol/booking/extension';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import { AppError } from '../errors';
import type { BookingRecord, NewBooking } from '../store/booking.repository';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import { durationOfWindow, type BookingService } from './booking.service';
import type { SettingsService } from './settings.service';

/**
 * A stay as the visitor lives it: the booking they made and the extensions paid after it, end to
 * end on the same lockers with the same PIN.
 */
export interface Stay {
  /** The stay's first booking (the one its private links and e-mails name). */
  root: BookingRecord;
  /** Every extension booking of the stay, whatever its status, oldest first. */
  extensions: BookingRecord[];
  /** The paid extensions that follow the root end to end: the stay lasts until the last one ends. */
  paid: BookingRecord[];
  endAt: Date;
}

export interface BookingExtensionDeps {
  store: Store;
  clock: Clock;
  events: DomainEvents;
  settings: SettingsService;
  bookings: BookingService;
}

/** The locker numbers a booking holds now. */
export const activeLockerNumbers = (booking: BookingRecord) =>
  booking.lockers.filter((locker) => locker.active).map((locker) => locker.number);

/** The stay a booking belongs to (an extension's is its root's); null when the root is gone. */
export async function readStay(store: Store, booking: BookingRecord): Promise<Stay | null> {
  const rootId = (await store.bookingExtensions.stayOf(booking.transactionId)) ?? booking.transactionId;
  const root = rootId === booking.transactionId ? booking : await store.bookings.get(rootId);
  if (!root) return null;
  const ids = await store.bookingExtensions.ofStay(root.transactionId);
  const extensions = (await Promise.all(ids.map((id) => store.bookings.get(id)))).filter(
    (extension): extension is BookingRecord => extension !== null,
  );
  const paid: BookingRecord[] = [];
  let endAt = root.endAt;
  for (const extension of [...extensions].sort((a, b) => a.startAt.getTime() - b.startAt.getTime())) {
    if (!EXTENDABLE_STATUSES.includes(extension.status)) continue;
    if (extension.startAt.getTime() !== endAt.getTime()) break;
    paid.push(extension);
    endAt = extension.endAt;
  }
  return { root, extensions, paid, endAt };
}

/**
 * Extensions of a stay: what the visitor may extend to (protocol's `extensionOffer`, then whether
 * the lockers are free until then) and the hold of the longer stay, a booking of its own for the
 * added time on the same lockers with the stay's PIN, paid on the gateway's page like any hold.
 * The payment (PaymentService) confirms it with the stay's PIN; the bridge hub then gives the
 * controller the stay's new end.
 */
/** An extension offer as the visitor's and the operator's pages read it (extensionOfferSchema). */
export function extensionOfferAnswer(offer: ExtensionOffer): ExtensionOfferResponse {
  return {
    allowed: offer.allowed,
    refusal: offer.allowed ? null : offer.refusal,
    options: offer.options.map((option) => ({
      duration: option.duration,
      endIso: option.endAt.toISOString(),
      priceCents: option.priceCents,
      totalCents: option.totalCents,
    })),
  };
}

export class BookingExtensionService {
  constructor(private readonly deps: BookingExtensionDeps) {}

  stayOf(booking: BookingRecord): Promise<Stay | null> {
    return readStay(this.deps.store, booking);
  }

  /** The longer stays on offer now, each only while the lockers are free until its end. */
  async offer(stay: Stay, location: LocationRecord): Promise<ExtensionOffer> {
    const { root } = stay;
    const duration = durationOfWindow({ startAt: root.startAt, endAt: stay.endAt }, location.zone);
    const now = this.deps.clock.now();
    if (!duration) return { allowed: false, refusal: 'location_closes', options: [] };
    const offer = extensionOffer({
      status: root.status,
      startAt: root.startAt,
      endAt: stay.endAt,
      duration,
      night: parseNote(root.note).night,
      pricing: location.pricing,
      size: root.size,
      quantity: root.quantity,
      zone: location.zone,
      now,
    });
    if (!offer.allowed) return offer;
    // The stay's own open holds do not count: a new choice replaces them.
    const lockerIds = root.lockers.filter((locker) => locker.active).map((locker) => locker.lockerId);
    const mine = [root.transactionId, ...stay.extensions.map((extension) => extension.transactionId)];
    const taken = await this.deps.store.bookingExtensions.nextOccupied(lockerIds, stay.endAt, mine);
    const options = taken ? offer.options.filter((option) => option.endAt <= taken) : offer.options;
    return options.length > 0
      ? { allowed: true, options }
      : { allowed: false, refusal: 'locker_taken', options: [] };
  }

  /**
   * Holds the stay's lockers from its end to `endAt` (one of the offered ends) for the price
   * difference, with the stay's PIN; the visitor's earlier unpaid extension holds are let go first.
   */
  async hold(
    stay: Stay,
    location: LocationRecord,
    endAt: Date,
    /** Priced as offered (the visitor pays), or of no amount (an operator's grant). */
    charge: 'priced' | 'free' = 'priced',
  ): Promise<BookingRecord> {
    const { store, clock, settings, bookings } = this.deps;
    const system = await settings.system();
    if (system.MAINTENANCE_MODE || location.maintenance) throw new AppError('booking/maintenance');
    const offer = await this.offer(stay, location);
    const option = offer.options.find((candidate) => candidate.endAt.getTime() === endAt.getTime());
    if (!option) {
      throw new AppError(
        !offer.allowed && offer.refusal === 'locker_taken'
          ? 'my_booking/extension_locker_taken'
          : 'my_booking/extension_not_available',
      );
    }
    for (const open of stay.extensions.filter((extension) => isHoldBookingStatus(extension.status))) {
      await bookings.cancel(open.transactionId);
    }
    const { root } = stay;
    const now = clock.now();
    const window = { startAt: stay.endAt, endAt: option.endAt };
    const extension: NewBooking = {
      transactionId: bookings.newTransactionId(),
      locationKey: root.locationKey,
      status: 'pending',
      ...window,
      size: root.size,
      quantity: root.quantity,
      duration: durationOfWindow(window, location.zone) ?? option.duration,
      priceOriginalCents: charge === 'free' ? 0 : option.priceCents,
      priceDiscountedCents: charge === 'free' ? 0 : option.priceCents,
      feeCents: 0,
      totalCents: charge === 'free' ? 0 : option.totalCents,
      discountCode: null,
      customer: { ...root.customer },
      note: root.note,
      lang: root.lang,
      // The stay's PIN: the same code opens the lockers until the stay's new end.
      pin: root.pin,
      expiresAt: new Date(now.getTime() + system.BOOKING_EXPIRATION_MINUTES * 60_000),
    };
    const result = await store.bookings.reserveLockers({
      booking: extension,
      // The extension is sold like any stay: within the location's online cap.
      maxOnline: location.maxOnline[root.size],
      now,
      lockerNumbers: activeLockerNumbers(root),
    });
    if (!result.ok) throw new AppError('my_booking/extension_locker_taken');
    await store.bookingExtensions.add({
      transactionId: extension.transactionId,
      stayId: root.transactionId,
      createdAt: now,
    });
    for (const transactionId of result.expired)
      this.deps.events.emit({ type: 'booking.expired', transactionId });
    this.deps.events.emit({ type: 'booking.held', booking: result.booking });
    return result.booking;
  }

  /**
   * An operator gives the stay more time without charge: the extension is held like the visitor's
   * (same lockers, same offer, same refusals) for no amount, then confirmed by the operator with the
   * stay's PIN (the bridge hub programs the new end) and the visitor gets the "extended" e-mail.
   */
  async grant(
    stay: Stay,
    location: LocationRecord,
    endAt: Date,
    operator: { email: string; reason: string },
  ): Promise<BookingRecord> {
    const { root } = stay;
    if (!root.pin) throw new AppError('my_booking/extension_not_available');
    const held = await this.hold(stay, location, endAt, 'free');
    const confirmed = await this.deps.bookings.changeStatus(held.transactionId, {
      from: ['pending'],
      to: 'confirmed',
      actor: 'operator',
      reason: 'operator_extended',
      detail: `${operator.email}: ${operator.reason}`.slice(0, 1000),
      pin: root.pin,
      email: 'extension',
    });
    if (!confirmed) throw new AppError('booking/invalid_state');
    return confirmed;
  }
}
