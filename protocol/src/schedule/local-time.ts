import { DateTime } from 'luxon';
import { minutesOfDay } from './time-of-day';
import { formatsPerZone } from './zone-formats';

// Wall-clock helpers. Every rule reasons in the location's IANA zone, never the machine's.

const ISO_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** `now` seen on the location's wall clock. Throws RangeError for an invalid date or unknown zone. */
export function zonedNow(now: Date, zone: string): DateTime {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new RangeError(`Not a valid instant: ${String(now)}`);
  }
  const local = DateTime.fromJSDate(now, { zone });
  if (!local.isValid) throw new RangeError(`Unknown time zone: ${zone}`);
  return local;
}

/** An instant on the location's wall clock: its date (yyyy-MM-dd), minutes since midnight and seconds. */
export interface WallClockReading {
  date: string;
  minutes: number;
  second: number;
}

/**
 * Each zone's wall-clock date and minute for the last few UTC minutes read there. Within one UTC
 * minute they cannot change (every offset since 1972 is whole minutes, so zone changes fall on
 * minute boundaries) and the local second is the UTC one. A hold reads now and now less the offer's
 * grace (the same two minutes for every hold of a minute) besides its own start.
 */
const MINUTE_READINGS = new Map<string, Map<number, { date: string; minutes: number }>>();
const MINUTES_KEPT_PER_ZONE = 4;
/** From here on offsets are whole minutes in every zone (Liberia's -0:44:30 ended in 1972). */
const WHOLE_MINUTE_OFFSETS_SINCE_MS = Date.UTC(1980, 0, 1);

/**
 * `now` on the location's wall clock, as {@link zonedNow} reads it, without building a luxon DateTime
 * (each one asks Intl for the zone's offset several times; the server reads a few per hold), and
 * formatting a minute of a zone once while it is among the last few read. A zone Intl does not know by that name (luxon's `UTC+1`,
 * `local`) is read through luxon. Throws RangeError like zonedNow.
 */
export function readWallClock(now: Date, zone: string): WallClockReading {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new RangeError(`Not a valid instant: ${String(now)}`);
  }
  const ms = now.getTime();
  const utcMinute = Math.floor(ms / 60_000);
  const utcSecond = Math.floor((ms - utcMinute * 60_000) / 1000);
  const kept = MINUTE_READINGS.get(zone);
  const known = kept?.get(utcMinute);
  if (known) return { date: known.date, minutes: known.minutes, second: utcSecond };
  const reading = formatWallClock(now, zone);
  if (ms >= WHOLE_MINUTE_OFFSETS_SINCE_MS && reading.second === utcSecond) {
    const minutes = kept ?? new Map<number, { date: string; minutes: number }>();
    // The oldest kept minute makes room (a Map iterates in insertion order).
    if (minutes.size >= MINUTES_KEPT_PER_ZONE) minutes.delete(minutes.keys().next().value!);
    minutes.set(utcMinute, { date: reading.date, minutes: reading.minutes });
    MINUTE_READINGS.set(zone, minutes);
  }
  return reading;
}

function formatWallClock(now: Date, zone: string): WallClockReading {
  const format = wallClockFormat(zone);
  if (!format) {
    const local = zonedNow(now, zone);
    return { date: isoDate(local), minutes: local.hour * 60 + local.minute, second: local.second };
  }
  let year = '';
  let month = '';
  let day = '';
  let hour = 0;
  let minute = 0;
  let second = 0;
  for (const part of format.formatToParts(now)) {
    if (part.type === 'year') year = part.value;
    else if (part.type === 'month') month = part.value;
    else if (part.type === 'day') day = part.value;
    else if (part.type === 'hour') hour = Number(part.value) % 24;
    else if (part.type === 'minute') minute = Number(part.value);
    else if (part.type === 'second') second = Number(part.value);
  }
  if (year.length !== 4) {
    // Outside years 1000–9999 yyyy-MM-dd is luxon's business.
    const local = zonedNow(now, zone);
    return { date: isoDate(local), minutes: local.hour * 60 + local.minute, second: local.second };
  }
  return { date: `${year}-${month}-${day}`, minutes: hour * 60 + minute, second };
}

/** Throws RangeError, as {@link startOfLocalDate} does, for a zone neither Intl nor luxon knows. */
export function assertKnownZone(zone: string): void {
  if (wallClockFormat(zone)) return;
  if (!DateTime.fromMillis(0, { zone }).isValid) throw new RangeError(`Unknown time zone: ${zone}`);
}

/** An instant's local date and time of day, second by second; null for a zone Intl refuses. */
const wallClockFormat = formatsPerZone('en-US', {
  calendar: 'iso8601',
  numberingSystem: 'latn',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Today's date (yyyy-MM-dd) at the location. */
export function todayInZone(now: Date, zone: string): string {
  return isoDate(zonedNow(now, zone));
}

/** True for a real calendar date written yyyy-MM-dd ('2026-02-30' is not). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string' || !ISO_DATE_PATTERN.test(value)) return false;
  const month = Number(value.slice(5, 7));
  const day = Number(value.slice(8, 10));
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(Number(value.slice(0, 4)), month);
}

/** Days in a month of the proleptic Gregorian calendar (luxon's). */
export function daysInMonth(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/**
 * The calendar date `months` months and `days` days after a yyyy-MM-dd date, as luxon's `plus` names
 * it (months first, the day clamped to the month's end: 31 Aug + 6 months → 28 Feb). Dates only, no
 * zone: a local date moves the same way in every zone.
 */
export function plusIsoDate(
  date: string,
  { months = 0, days = 0 }: { months?: number; days?: number },
): string {
  let year = Number(date.slice(0, 4));
  let month = Number(date.slice(5, 7)) + months;
  year += Math.floor((month - 1) / 12);
  month = ((((month - 1) % 12) + 12) % 12) + 1;
  let day = Math.min(Number(date.slice(8, 10)), daysInMonth(year, month)) + days;
  while (day > daysInMonth(year, month)) {
    day -= daysInMonth(year, month);
    month += 1;
    if (month > 12) {
      month = 1;
      year += 1;
    }
  }
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** The start of `date` in `zone`. Throws RangeError for a malformed or impossible date or an unknown zone. */
export function startOfLocalDate(date: string, zone: string): DateTime {
  if (!isIsoDate(date)) throw new RangeError(`Not a calendar date (yyyy-MM-dd): ${String(date)}`);
  const local = DateTime.fromISO(date, { zone });
  if (!local.isValid) throw new RangeError(`Unknown time zone: ${zone}`);
  return local;
}

/**
 * The wall-clock time `time` on `date` in `zone`. Throws RangeError when that time does not exist
 * there (skipped by a daylight-saving change) rather than silently moving it.
 */
export function localDateTime(date: string, time: string, zone: string): DateTime {
  const minutes = minutesOfDay(time);
  const local = startOfLocalDate(date, zone).set({ hour: Math.floor(minutes / 60), minute: minutes % 60 });
  if (local.toFormat('HH:mm') !== time || isoDate(local) !== date) {
    throw new RangeError(`${date} ${time} does not exist in ${zone}`);
  }
  return local;
}

/** UTC ISO string (2026-03-29T04:00:00.000Z) of a luxon instant, the form stored and sent on the wire. */
export function utcIso(instant: DateTime): string {
  return instant.toJSDate().toISOString();
}

/**
 * Formats a UTC ISO instant on the location's wall clock with a luxon format, e.g.
 * `formatLocal(iso, 'Europe/Rome', 'dd/MM/yyyy HH:mm')`. Null when the instant or zone is invalid,
 * so the display can show its own "invalid date" text.
 */
export function formatLocal(iso: string, zone: string, format: string): string | null {
  if (typeof iso !== 'string') return null;
  const local = DateTime.fromISO(iso, { setZone: true }).setZone(zone);
  return local.isValid ? local.toFormat(format) : null;
}

function isoDate(local: DateTime): string {
  return local.toFormat('yyyy-MM-dd');
}
