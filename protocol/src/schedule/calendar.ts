import { isIsoDate, plusIsoDate, readWallClock, type WallClockReading } from './local-time';
import { minutesOfDay } from './time-of-day';

/** From this local time on, today can no longer be chosen in the calendar. */
export const CALENDAR_CUTOFF = '19:45';

/** How far ahead a booking may start. */
export const BOOKING_HORIZON_MONTHS = 6;

/**
 * The calendar's bounds as yyyy-MM-dd dates at the location: min is today, or tomorrow from 19:45
 * local time on; max is today plus 6 months (clamped to the month's end, 31 Aug → 28 Feb).
 */
export function calendarBounds(now: Date, zone: string): { min: string; max: string } {
  return calendarBoundsAt(readWallClock(now, zone));
}

/** {@link calendarBounds} with now already read on the location's wall clock. */
export function calendarBoundsAt(local: WallClockReading): { min: string; max: string } {
  const { date: today, minutes } = local;
  const pastCutoff = minutes >= minutesOfDay(CALENDAR_CUTOFF);
  return {
    min: pastCutoff ? plusIsoDate(today, { days: 1 }) : today,
    max: plusIsoDate(today, { months: BOOKING_HORIZON_MONTHS }),
  };
}

/** True when `date` (yyyy-MM-dd) is a real date within the calendar's bounds; false for malformed dates. */
export function isDateBookable(date: string, now: Date, zone: string): boolean {
  return isIsoDate(date) && isDateBookableAt(date, readWallClock(now, zone));
}

/** {@link isDateBookable} with now already read on the location's wall clock. */
export function isDateBookableAt(date: string, local: WallClockReading): boolean {
  if (!isIsoDate(date)) return false;
  const { min, max } = calendarBoundsAt(local);
  // yyyy-MM-dd strings order like the dates they name.
  return date >= min && date <= max;
}
