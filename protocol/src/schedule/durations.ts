import { minutesOfDay } from './time-of-day';

export const MIN_BOOKING_HOURS = 3;
export const MAX_BOOKING_HOURS = 6;
/** Daytime hour options are bounded by 22 minus the start hour. */
export const DAYTIME_END_HOUR = 22;
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
 * Daytime hour options for a start time (HH:mm, local): 3 up to min(22 − start hour, 6), empty when
 * fewer than 3. Only the hour counts, as the spec words it: 18:00 and 18:45 both allow up to 4 hours.
 */
export function daytimeHourOptions(startTime: string): number[] {
  const startHour = Math.floor(minutesOfDay(startTime) / 60);
  return hourRange(Math.min(DAYTIME_END_HOUR - startHour, MAX_BOOKING_HOURS));
}

/**
 * Night hour options for a start time (HH:mm, local): 3 up to the smaller of 6 and the whole hours
 * from the chosen start until 22:45 that day (19:45 → 3, 19:00 → 3, 17:00 → 5, 16:45 → 6), empty when
 * fewer than 3. Wall-clock arithmetic is exact here: daylight-saving changes happen at night.
 */
export function nightHourOptions(startTime: string): number[] {
  const minutesLeft = minutesOfDay(NIGHT_LAST_END) - minutesOfDay(startTime);
  return hourRange(Math.min(Math.floor(minutesLeft / 60), MAX_BOOKING_HOURS));
}

function hourRange(max: number): number[] {
  const hours: number[] = [];
  for (let value = MIN_BOOKING_HOURS; value <= max; value += 1) hours.push(value);
  return hours;
}
