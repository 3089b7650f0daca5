import { DateTime } from 'luxon';
import { z } from 'zod';
import { PAID_BOOKING_STATUSES, type BookingStatus } from '../booking/status';
import { italianWeekdayName, takingsDayLabel } from './italian-calendar';
import {
  DEFAULT_TIMEZONE,
  zBookingStatus,
  zCents,
  zIsoDateTime,
  zLocationKey,
  zTimezone,
  zTransactionId,
} from '../schemas/primitives';
import { takingsMonthSchema } from './month';
import { formatsPerZone } from '../schedule/zone-formats';
import { totemTakingSchema } from './totem-proceed';

/**
 * Only these booking statuses are money actually taken online (spec §4, "Revenue logic": confirmed
 * and scheduled), and a booking paid after its hold lapsed and honoured (confirmed_late), which the
 * older product left out although the money was kept: every paid booking the visitor keeps.
 */
export const ONLINE_TAKINGS_STATUSES = PAID_BOOKING_STATUSES;

/**
 * Money taken online and kept: a paid booking the visitor keeps, or one an operator cancelled
 * without a refund (`paidKept`: it was paid, and the cancellation gave nothing back).
 */
export function countsAsOnlineTakings(booking: {
  status: BookingStatus;
  paidKept?: boolean;
  paidThenRefunded?: boolean;
}): boolean {
  return (
    (ONLINE_TAKINGS_STATUSES as readonly string[]).includes(booking.status) ||
    (booking.status === 'cancelled_by_operator' && booking.paidKept === true) ||
    ((booking.status === 'refund_due' || booking.status === 'refunded') && booking.paidThenRefunded === true)
  );
}

export const takingsLocationSchema = z.object({
  key: zLocationKey,
  name: z.string().max(120),
  zone: zTimezone.default(DEFAULT_TIMEZONE),
});

/** One booking row; a transaction booking several lockers arrives as several rows with the same id and price. */
export const takingsBookingSchema = z.object({
  transactionId: zTransactionId,
  locationKey: zLocationKey,
  status: zBookingStatus,
  createdAt: zIsoDateTime,
  /** The transaction's discounted price; a missing price ("n.d.") counts as nothing taken. */
  priceDiscountedCents: zCents.nullable(),
  /** Cancelled by an operator after it was paid, without a refund: the money was kept. */
  paidKept: z.boolean().optional(),
  /**
   * Paid, then cancelled with a refund (owed or made): the payment still counts on the day it was
   * taken, and a refund made subtracts on its own day (`refunds`), so a month already reported
   * never changes.
   */
  paidThenRefunded: z.boolean().optional(),
  /** Made by an operator as a test: no money came in, so it is shown apart, never counted. */
  isTest: z.boolean().optional(),
});

/** A payment given back: its amount (the booking's discounted price) subtracts on the day it was made. */
export const takingsRefundSchema = z.object({
  transactionId: zTransactionId,
  locationKey: zLocationKey,
  refundedAt: zIsoDateTime,
  amountCents: zCents,
});

/** Why a location's kiosk (totem) payments could not be read, e.g. the client's error message. */
export const totemMissingReasonSchema = z.string().min(1).max(500);

export const monthlyTakingsInputSchema = z.object({
  month: takingsMonthSchema,
  locations: z.array(takingsLocationSchema),
  bookings: z.array(takingsBookingSchema),
  refunds: z.array(takingsRefundSchema).default([]),
  totem: z.record(z.string(), z.array(totemTakingSchema)).default({}),
  /** Location key → why its kiosk payments of the month are missing from `totem`. */
  totemMissing: z.record(z.string(), totemMissingReasonSchema).default({}),
});

/** Everything but the booking rows, which `parseMonthlyTakingsInput` checks row by row. */
const inputWithoutBookingsSchema = monthlyTakingsInputSchema.omit({ bookings: true });

export type TakingsLocation = z.input<typeof takingsLocationSchema>;
export type TakingsBooking = z.infer<typeof takingsBookingSchema>;
export type TakingsRefund = z.infer<typeof takingsRefundSchema>;
export type MonthlyTakingsInput = z.input<typeof monthlyTakingsInputSchema>;

export interface TakingsAmounts {
  /** Online payments of the day less the refunds made that day (so it can be negative). */
  onlineCents: number;
  /** The refunds made that day, already taken off `onlineCents` (and the total). */
  refundCents: number;
  totemCents: number;
  totalCents: number;
}

export interface DayTakings extends TakingsAmounts {
  /** ISO date in the location's zone, `yyyy-MM-dd`. */
  date: string;
  /** The same day as the page and the data show it, `dd/MM/yyyy`. */
  label: string;
  /** Italian weekday name, e.g. `Lunedì`. */
  weekday: string;
}

/** Test bookings kept out of the takings: how many, and what they would have added online. */
export interface ExcludedTestBookings {
  count: number;
  cents: number;
}

export interface LocationTakings extends TakingsAmounts {
  key: string;
  name: string;
  zone: string;
  /** Days with takings, oldest first; use `sortTakingsDays` for the page's other orders. */
  days: DayTakings[];
  daysWithTakings: number;
  /** The latest day with takings ("Ultimo"), or null when the month has none. */
  latest: DayTakings | null;
  /** Operators' test bookings of the month that would otherwise count online: not in the amounts. */
  testBookings: ExcludedTestBookings;
  /**
   * Set when the kiosk payments of the month could not be read: the totem and total amounts are
   * then incomplete (they lack the kiosk), and must be shown as such.
   */
  totemMissing: { reason: string } | null;
}

export interface MonthlyTakingsReport {
  month: string;
  /** Every location asked for, in the order given, including those with no takings. */
  locations: LocationTakings[];
  totals: TakingsAmounts;
  /** Distinct calendar days on which at least one location took money. */
  daysWithTakings: number;
  /** Locations that took money in the month. */
  activeLocations: number;
  /** Every location's excluded test bookings together. */
  testBookings: ExcludedTestBookings;
  /** The locations whose kiosk could not be read, in the locations' order: the totals lack their totem. */
  totemMissing: Array<{ key: string; name: string; reason: string }>;
}

/** What the report shows beside the per-day amounts, per location key. */
export interface TakingsAsides {
  testBookings?: ReadonlyMap<string, ExcludedTestBookings>;
  /** Location key → why its kiosk payments are missing. */
  totemMissing?: Readonly<Record<string, string>>;
}

/** Per location, per ISO day: the online (net of refunds), refund and totem cents of that day. */
export type DailyAmountsByLocation = Map<
  string,
  Map<string, { onlineCents: number; totemCents: number; refundCents?: number; totalCents?: number }>
>;

const HOUR_MS = 3600_000;

/** Per zone, per UTC hour: the local date of the whole hour, or null when it is not one date. */
type LocalDayMemo = Map<string, Map<number, string | null>>;

/** Per zone, a formatter of an instant's local date and UTC offset in one string: `2026-07-03, GMT+02:00`. */
const dateAndOffsetFormats = formatsPerZone('en-CA', {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  timeZoneName: 'longOffset',
});

function dateAndOffset(zone: string, ms: number): string | null {
  const format = dateAndOffsetFormats(zone);
  // Null for a zone Intl does not know: luxon judges (and explains) each instant instead.
  return format ? format.format(ms) : null;
}

const LOCAL_DATE_PREFIX = /^\d{4}-\d{2}-\d{2}, /;

/**
 * The local date of every instant in the UTC hour `hour` (ms / 3600000), when the zone's offset is
 * steady through it and the hour lies within one local date; null otherwise. Memoised per zone and
 * hour: a month touches ~750 hours, and asking luxon (Intl) for each of 100,000 bookings made the
 * month take seconds (takings benchmark). One Intl call per end of the hour, not luxon's several.
 */
function localDayOfHour(zone: string, hour: number, memo: LocalDayMemo): string | null {
  let hours = memo.get(zone);
  if (!hours) memo.set(zone, (hours = new Map()));
  let day = hours.get(hour);
  if (day === undefined) {
    const first = dateAndOffset(zone, hour * HOUR_MS);
    const last = dateAndOffset(zone, hour * HOUR_MS + HOUR_MS - 1);
    day = first !== null && first === last && LOCAL_DATE_PREFIX.test(first) ? first.slice(0, 10) : null;
    hours.set(hour, day);
  }
  return day;
}

/** Per `YYYY-MM-DDTHH` of UTC instants (`…Z`): the epoch hour (NaN when it is no hour). */
const utcHours = new WeakMap<LocalDayMemo, Map<string, number>>();

/**
 * The epoch hour (ms / 3600000, floored) of an ISO instant. A UTC instant's hour is its first 13
 * characters, worked out once per distinct hour of the call: Date.parse of every row was a third
 * of the month at 1,000,000 bookings (takings benchmark). Other offsets are parsed whole.
 */
function epochHour(instant: string, memo: LocalDayMemo): number {
  if (
    instant.length >= 20 &&
    instant.charCodeAt(10) === 84 &&
    instant.charCodeAt(instant.length - 1) === 90
  ) {
    let hours = utcHours.get(memo);
    if (!hours) utcHours.set(memo, (hours = new Map()));
    const prefix = instant.slice(0, 13);
    let hour = hours.get(prefix);
    if (hour === undefined) {
      const ms = Date.parse(`${prefix}:00:00Z`);
      hours.set(prefix, (hour = Number.isNaN(ms) ? Number.NaN : ms / HOUR_MS));
    }
    if (!Number.isNaN(hour)) return hour;
  }
  const ms = Date.parse(instant);
  return Number.isNaN(ms) ? Number.NaN : Math.floor(ms / HOUR_MS);
}

function localDay(instant: string, zone: string, memo: LocalDayMemo): string {
  const hour = epochHour(instant, memo);
  const day = Number.isNaN(hour) ? null : localDayOfHour(zone, hour, memo);
  if (day !== null) return day;
  // An hour with a zone change or a date change inside it, or input luxon must judge (and explain).
  const local = DateTime.fromISO(instant, { setZone: true }).setZone(zone);
  if (!local.isValid) throw new RangeError(`Cannot place ${instant} in zone ${zone}: ${local.invalidReason}`);
  return local.toISODate()!;
}

const BOOKING_STATUS_NAMES: ReadonlySet<string> = new Set(zBookingStatus.options);
/** The very pattern `zIsoDateTime` checks (zod builds both from the same options). */
const ISO_INSTANT_WITH_OFFSET = z.regexes.datetime({ offset: true });
const TRANSACTION_ID = /^[A-Za-z0-9_-]{6,80}$/;
const MAX_CENTS = 10_000_000;

/**
 * True only for rows `takingsBookingSchema` accepts as they are: the same checks written out
 * for plain values, ten times cheaper than a zod object parse per row (a month can hold 100,000
 * rows). Location keys are judged by the schema, once per distinct key. A row this does not
 * accept is never trusted: the whole input then goes through the schema, so what is accepted
 * and how a bad row is reported stay zod's.
 */
function isCheckedBookingRow(row: unknown, validKey: (key: string) => boolean): row is TakingsBooking {
  if (typeof row !== 'object' || row === null) return false;
  const {
    transactionId,
    locationKey,
    status,
    createdAt,
    priceDiscountedCents: cents,
    paidKept,
    paidThenRefunded,
    isTest,
  } = row as Record<string, unknown>;
  return (
    (paidKept === undefined || typeof paidKept === 'boolean') &&
    (paidThenRefunded === undefined || typeof paidThenRefunded === 'boolean') &&
    (isTest === undefined || typeof isTest === 'boolean') &&
    typeof transactionId === 'string' &&
    TRANSACTION_ID.test(transactionId) &&
    typeof locationKey === 'string' &&
    validKey(locationKey) &&
    typeof status === 'string' &&
    BOOKING_STATUS_NAMES.has(status) &&
    typeof createdAt === 'string' &&
    ISO_INSTANT_WITH_OFFSET.test(createdAt) &&
    (cents === null || (Number.isInteger(cents) && (cents as number) >= 0 && (cents as number) <= MAX_CENTS))
  );
}

/** `monthlyTakingsInputSchema.parse`, with the booking rows checked cheaply when they are plainly valid. */
function parseMonthlyTakingsInput(input: MonthlyTakingsInput): z.output<typeof monthlyTakingsInputSchema> {
  const rest = inputWithoutBookingsSchema.safeParse(input);
  const rows: unknown = (input as { bookings?: unknown } | null)?.bookings;
  if (rest.success && Array.isArray(rows)) {
    const keyValidity = new Map<string, boolean>();
    const validKey = (key: string) => {
      let valid = keyValidity.get(key);
      if (valid === undefined) keyValidity.set(key, (valid = zLocationKey.safeParse(key).success));
      return valid;
    };
    if (rows.every((row) => isCheckedBookingRow(row, validKey))) {
      return { ...rest.data, bookings: rows as TakingsBooking[] };
    }
  }
  return monthlyTakingsInputSchema.parse(input);
}

function addTo(
  days: Map<string, { onlineCents: number; totemCents: number; refundCents?: number }>,
  date: string,
  channel: 'onlineCents' | 'totemCents' | 'refundCents',
  cents: number,
): void {
  const day = days.get(date) ?? { onlineCents: 0, totemCents: 0, refundCents: 0 };
  day[channel] = (day[channel] ?? 0) + cents;
  days.set(date, day);
}

/**
 * The month's takings per location and day: online bookings (confirmed or scheduled, once per
 * transaction, discounted price, by creation day in the location's zone) plus the kiosk payments
 * (by their day in the location's zone). Records outside the month, or for a location not asked
 * for, are ignored, so callers may pass a generous range. Days that took nothing are left out.
 * Operators' test bookings that would count are left out of the amounts and counted apart; a
 * location in `totemMissing` is reported with its kiosk missing, so its total reads as incomplete.
 */
export function computeMonthlyTakings(input: MonthlyTakingsInput): MonthlyTakingsReport {
  const { month, locations, bookings, refunds, totem, totemMissing } = parseMonthlyTakingsInput(input);
  const zoneOf = new Map(locations.map((location) => [location.key, location.zone]));
  const daily: DailyAmountsByLocation = new Map(locations.map((location) => [location.key, new Map()]));
  const testBookings = new Map<string, ExcludedTestBookings>();

  const localDays: LocalDayMemo = new Map();
  const counted = new Set<string>();
  for (const booking of bookings) {
    if (!countsAsOnlineTakings(booking)) continue;
    const zone = zoneOf.get(booking.locationKey);
    if (zone === undefined || counted.has(booking.transactionId)) continue;
    counted.add(booking.transactionId);
    const date = localDay(booking.createdAt, zone, localDays);
    if (booking.isTest === true) {
      if (!date.startsWith(`${month}-`)) continue;
      const tests = testBookings.get(booking.locationKey) ?? { count: 0, cents: 0 };
      tests.count += 1;
      tests.cents += booking.priceDiscountedCents ?? 0;
      testBookings.set(booking.locationKey, tests);
      continue;
    }
    addTo(daily.get(booking.locationKey)!, date, 'onlineCents', booking.priceDiscountedCents ?? 0);
  }

  const refunded = new Set<string>();
  for (const refund of refunds) {
    const zone = zoneOf.get(refund.locationKey);
    if (zone === undefined || refunded.has(refund.transactionId)) continue;
    refunded.add(refund.transactionId);
    const date = localDay(refund.refundedAt, zone, localDays);
    addTo(daily.get(refund.locationKey)!, date, 'onlineCents', -refund.amountCents);
    addTo(daily.get(refund.locationKey)!, date, 'refundCents', refund.amountCents);
  }

  for (const [locationKey, payments] of Object.entries(totem)) {
    const zone = zoneOf.get(locationKey);
    if (zone === undefined) continue;
    for (const payment of payments) {
      addTo(
        daily.get(locationKey)!,
        localDay(payment.date, zone, localDays),
        'totemCents',
        payment.amountCents,
      );
    }
  }

  return buildMonthlyTakingsReport(month, locations, daily, { testBookings, totemMissing });
}

function sumAmounts(rows: readonly TakingsAmounts[]): TakingsAmounts {
  return rows.reduce(
    (sum, row) => ({
      onlineCents: sum.onlineCents + row.onlineCents,
      refundCents: sum.refundCents + row.refundCents,
      totemCents: sum.totemCents + row.totemCents,
      totalCents: sum.totalCents + row.totalCents,
    }),
    { onlineCents: 0, refundCents: 0, totemCents: 0, totalCents: 0 },
  );
}

/**
 * Turns per-day amounts into the report. Shared by `computeMonthlyTakings` and by
 * `monthlyTakingsFromData` so both paths total, count and label the same way.
 * A day's total is online + totem unless the source gave one.
 */
export function buildMonthlyTakingsReport(
  month: string,
  locations: readonly { key: string; name: string; zone?: string }[],
  daily: DailyAmountsByLocation,
  asides: TakingsAsides = {},
): MonthlyTakingsReport {
  takingsMonthSchema.parse(month);
  const reportLocations = locations.map((location): LocationTakings => {
    const missingReason = Object.hasOwn(asides.totemMissing ?? {}, location.key)
      ? asides.totemMissing![location.key]
      : undefined;
    const days = [...(daily.get(location.key) ?? new Map())]
      .filter(([date]) => date.startsWith(`${month}-`))
      .map(([date, amounts]): DayTakings => ({
        date,
        label: takingsDayLabel(date),
        weekday: italianWeekdayName(date),
        onlineCents: amounts.onlineCents,
        refundCents: amounts.refundCents ?? 0,
        totemCents: amounts.totemCents,
        totalCents: amounts.totalCents ?? amounts.onlineCents + amounts.totemCents,
      }))
      // A day counts when money moved: taken, or given back.
      .filter((day) => day.totalCents > 0 || day.refundCents > 0)
      .sort((a, b) => a.date.localeCompare(b.date));
    return {
      key: location.key,
      name: location.name,
      zone: location.zone ?? DEFAULT_TIMEZONE,
      ...sumAmounts(days),
      days,
      daysWithTakings: days.length,
      latest: days.at(-1) ?? null,
      testBookings: { ...(asides.testBookings?.get(location.key) ?? { count: 0, cents: 0 }) },
      totemMissing: missingReason === undefined ? null : { reason: missingReason },
    };
  });
  return {
    month,
    locations: reportLocations,
    totals: sumAmounts(reportLocations),
    daysWithTakings: new Set(reportLocations.flatMap((location) => location.days.map((day) => day.date)))
      .size,
    activeLocations: reportLocations.filter((location) => location.daysWithTakings > 0).length,
    testBookings: reportLocations.reduce(
      (sum, location) => ({
        count: sum.count + location.testBookings.count,
        cents: sum.cents + location.testBookings.cents,
      }),
      { count: 0, cents: 0 },
    ),
    totemMissing: reportLocations.flatMap((location) =>
      location.totemMissing
        ? [{ key: location.key, name: location.name, reason: location.totemMissing.reason }]
        : [],
    ),
  };
}
