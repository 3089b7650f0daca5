import { DateTime } from 'luxon';
import { MAX_AMOUNT_CENTS, MIN_AMOUNT_CENTS } from '../pricing/money';
import type { LockerSize } from '../pricing/locker-size';
import { bookingPriceCents, type Duration, type LocationPricing } from '../pricing/price-table';
import { DAY_OPTIONS, daytimeHourOptions, nightHourOptions } from '../schedule/durations';
import { HANDED_OVER_BOOKING_STATUSES, type BookingStatus } from './status';

/**
 * Extending a stay: more time on the same lockers, right after the current end. A new booking
 * starting when the stay started could have been this long (the same duration options: hours that
 * end by the day's last end, or whole days up to the longest stay sold), and it costs the
 * difference between the two prices by the location's table, with no second service fee (the
 * gateway's minimum charge still applies). The server alone decides, with this; the visitor's page
 * shows what it answers.
 */

/**
 * Why a stay cannot be extended: it is not paid and handed over (a later day's booking gets its
 * lockers on the day), it is over, it is already as long as a stay may be (the location's closing
 * for stays by the hour, the longest stay by the day), its lockers are taken right after it, or
 * every longer stay would cost more than can be paid online (MAX_AMOUNT_CENTS).
 */
export const EXTENSION_REFUSALS = [
  'not_in_progress',
  'ended',
  'location_closes',
  'locker_taken',
  'amount_too_high',
] as const;
export type ExtensionRefusal = (typeof EXTENSION_REFUSALS)[number];

/** Statuses of a stay that may be extended: paid, with its lockers and PIN. */
export const EXTENDABLE_STATUSES: readonly BookingStatus[] = HANDED_OVER_BOOKING_STATUSES;

export interface ExtensionOption {
  /** The whole stay's new length (from its start), as a new booking would name it. */
  duration: Duration;
  /** The new end of the stay. */
  endAt: Date;
  /** What the extension costs: price of the longer stay minus that of the current one. */
  priceCents: number;
  /** What is charged: the price, or the gateway's minimum charge when less. */
  totalCents: number;
}

export interface ExtensionInput {
  status: BookingStatus;
  /** The stay as it stands: its first booking's start, its last (paid) end, its whole length. */
  startAt: Date;
  endAt: Date;
  duration: Duration;
  /** Stays by the hour end by the daytime's or the night's last end, as the page that sold them. */
  night: boolean;
  pricing: LocationPricing;
  size: LockerSize;
  quantity: number;
  zone: string;
  now: Date;
}

export type ExtensionOffer =
  { allowed: true; options: ExtensionOption[] } | { allowed: false; refusal: ExtensionRefusal; options: [] };

const refused = (refusal: ExtensionRefusal): ExtensionOffer => ({ allowed: false, refusal, options: [] });

/** The longer stays a visitor may extend to, cheapest first; a refusal when there are none. */
export function extensionOffer(input: ExtensionInput): ExtensionOffer {
  if (!EXTENDABLE_STATUSES.includes(input.status)) return refused('not_in_progress');
  if (input.now.getTime() >= input.endAt.getTime()) return refused('ended');
  const price = (duration: Duration) =>
    bookingPriceCents({ pricing: input.pricing, size: input.size, duration, quantity: input.quantity });
  const current = price(input.duration);
  if (current === null) return refused('location_closes');
  const start = DateTime.fromJSDate(input.startAt, { zone: input.zone });
  const options: ExtensionOption[] = [];
  let tooDear = false;
  for (const duration of longerDurations(input.duration, start.toFormat('HH:mm'), input.night)) {
    const longer = price(duration);
    if (longer === null) continue;
    const endAt =
      duration.unit === 'hours'
        ? new Date(input.startAt.getTime() + duration.value * 3_600_000)
        : start.plus({ days: duration.value }).toJSDate();
    // Never less than nothing: a table where the longer stay is cheaper extends for the minimum.
    const priceCents = Math.max(0, longer - current);
    const totalCents = Math.max(MIN_AMOUNT_CENTS, priceCents);
    // Paid online as a booking is: an amount past the largest one carried is not offered.
    if (totalCents > MAX_AMOUNT_CENTS) {
      tooDear = true;
      continue;
    }
    options.push({ duration, endAt, priceCents, totalCents });
  }
  if (options.length > 0) return { allowed: true, options };
  return refused(tooDear ? 'amount_too_high' : 'location_closes');
}

/** The stay's lengths longer than `current` that a new booking from the same start could have. */
function longerDurations(current: Duration, startTime: string, night: boolean): Duration[] {
  if (current.unit === 'days') {
    return DAY_OPTIONS.filter((days) => days > current.value).map((value) => ({ value, unit: 'days' }));
  }
  const hours = night ? nightHourOptions(startTime) : daytimeHourOptions(startTime);
  return hours.filter((value) => value > current.value).map((value) => ({ value, unit: 'hours' }));
}
