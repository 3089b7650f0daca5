import { type Duration, isWholeDuration } from '../pricing/price-table';
import { FAST_TRACK_HOURS } from './daily-windows';
import { localDateTime, utcIso, zonedNow } from './local-time';

/** Start and end of a booking or query window, UTC ISO instants. */
export type UtcWindow = { startTimeIso: string; endTimeIso: string };

export const NIGHT_AVAILABILITY_FROM = '06:00';
export const NIGHT_AVAILABILITY_TO = '22:00';

/**
 * The booking's start and end as UTC ISO instants. Hours are elapsed time; days are calendar days
 * in the zone, so a booking from 10:00 ends at 10:00 even across a daylight-saving change.
 * Throws RangeError for a malformed date or time, a time skipped by DST, or a duration that is not
 * a positive whole number of hours or days.
 */
export function bookingWindow(input: {
  date: string;
  time: string;
  duration: Duration;
  zone: string;
}): UtcWindow {
  if (!isWholeDuration(input.duration)) {
    throw new RangeError(`Not a duration: ${JSON.stringify(input.duration)}`);
  }
  const start = localDateTime(input.date, input.time, input.zone);
  const end =
    input.duration.unit === 'hours'
      ? start.plus({ hours: input.duration.value })
      : start.plus({ days: input.duration.value });
  return { startTimeIso: utcIso(start), endTimeIso: utcIso(end) };
}

/** The night wizard's single-date availability query: 06:00 to 22:00 of `date` in the zone. */
export function nightAvailabilityWindow(date: string, zone: string): UtcWindow {
  return {
    startTimeIso: utcIso(localDateTime(date, NIGHT_AVAILABILITY_FROM, zone)),
    endTimeIso: utcIso(localDateTime(date, NIGHT_AVAILABILITY_TO, zone)),
  };
}

/**
 * A booking that starts now: hours are elapsed time, days calendar days in the zone (as in
 * `bookingWindow`). Throws RangeError for a duration that is not a positive whole number.
 */
export function windowFromNow(now: Date, zone: string, duration: Duration): UtcWindow {
  if (!isWholeDuration(duration)) throw new RangeError(`Not a duration: ${JSON.stringify(duration)}`);
  const start = zonedNow(now, zone);
  const end =
    duration.unit === 'hours' ? start.plus({ hours: duration.value }) : start.plus({ days: duration.value });
  return { startTimeIso: utcIso(start), endTimeIso: utcIso(end) };
}

/** A fast-track booking starts now and lasts 3 hours. */
export function fastTrackWindow(now: Date, zone: string): UtcWindow {
  return windowFromNow(now, zone, { value: FAST_TRACK_HOURS, unit: 'hours' });
}
