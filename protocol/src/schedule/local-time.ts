import { DateTime } from 'luxon';
import { minutesOfDay } from './time-of-day';

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

/** Today's date (yyyy-MM-dd) at the location. */
export function todayInZone(now: Date, zone: string): string {
  return isoDate(zonedNow(now, zone));
}

/** True for a real calendar date written yyyy-MM-dd ('2026-02-30' is not). */
export function isIsoDate(value: unknown): value is string {
  return (
    typeof value === 'string' &&
    ISO_DATE_PATTERN.test(value) &&
    DateTime.fromISO(value, { zone: 'utc' }).isValid
  );
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
