import { isIsoDate, zonedNow } from './local-time';
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
  const local = zonedNow(now, zone);
  const today = local.startOf('day');
  const pastCutoff = local.hour * 60 + local.minute >= minutesOfDay(CALENDAR_CUTOFF);
  return {
    min: (pastCutoff ? today.plus({ days: 1 }) : today).toFormat('yyyy-MM-dd'),
    max: today.plus({ months: BOOKING_HORIZON_MONTHS }).toFormat('yyyy-MM-dd'),
  };
}

/** True when `date` (yyyy-MM-dd) is a real date within the calendar's bounds; false for malformed dates. */
export function isDateBookable(date: string, now: Date, zone: string): boolean {
  if (!isIsoDate(date)) return false;
  const { min, max } = calendarBounds(now, zone);
  // yyyy-MM-dd strings order like the dates they name.
  return date >= min && date <= max;
}
