import type { Duration } from '@deposito/protocol/pricing/price-table';
import { bookingWindow } from '@deposito/protocol/schedule/windows';

/**
 * The period a visitor's choices make in the location's zone: null until the day, the start and
 * the duration are chosen, or when they make none (a start that does not exist that day).
 */
export function chosenPeriod(
  date: string | null | undefined,
  time: string | null | undefined,
  duration: Duration | null,
  zone: string,
): { startTimeIso: string; endTimeIso: string } | null {
  if (!date || !time || !duration) return null;
  try {
    return bookingWindow({ date, time, duration, zone });
  } catch {
    return null;
  }
}
