import { minutesOfDay } from './time-of-day';

export const MIN_BOOKING_HOURS = 3;
export const MAX_BOOKING_HOURS = 6;
/** The daytime's last hour: per-day availability counts up to it. */
export const DAYTIME_END_HOUR = 22;
/** Daytime hour stays end by this local time (customer spec §9). */
export const DAYTIME_LAST_END = '22:00';
/** Night hour options must end by this local time. */
export const NIGHT_LAST_END = '22:45';

/** Day options, 1 to 15 calendar days. */
export const DAY_OPTIONS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15] as const;
export const MAX_BOOKING_DAYS = DAY_OPTIONS[DAY_OPTIONS.length - 1];

/** A fresh, mutable copy of {@link DAY_OPTIONS}. */
export function dayOptions(): number[] {
  return [...DAY_OPTIONS];
}

/**
 * Daytime hour options for a start time (HH:mm, local): 3 up to the smaller of 6 and the whole hours
 * from the start until 22:00 that day (16:00 → 6, 16:45 → 5, 19:00 → 3), empty when fewer than 3, so
 * a daytime stay by the hour never ends after 22:00 (customer spec §9). Wall-clock arithmetic is
 * exact here: daylight-saving changes happen at night.
 */
export function daytimeHourOptions(startTime: string): number[] {
  return hoursUntil(startTime, DAYTIME_LAST_END);
}

/**
 * Night hour options for a start time (HH:mm, local): 3 up to the smaller of 6 and the whole hours
 * from the chosen start until 22:45 that day (19:45 → 3, 19:00 → 3, 17:00 → 5, 16:45 → 6), empty when
 * fewer than 3. Wall-clock arithmetic is exact here: daylight-saving changes happen at night.
 */
export function nightHourOptions(startTime: string): number[] {
  return hoursUntil(startTime, NIGHT_LAST_END);
}

function hoursUntil(startTime: string, lastEnd: string): number[] {
  const minutesLeft = minutesOfDay(lastEnd) - minutesOfDay(startTime);
  return hourRange(Math.min(Math.floor(minutesLeft / 60), MAX_BOOKING_HOURS));
}

function hourRange(max: number): number[] {
  const hours: number[] = [];
  for (let value = MIN_BOOKING_HOURS; value <= max; value += 1) hours.push(value);
  return hours;
}
