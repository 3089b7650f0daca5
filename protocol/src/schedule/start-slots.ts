import { isDateBookable } from './calendar';
import { assertKnownZone, isIsoDate, readWallClock, type WallClockReading } from './local-time';
import { minutesOfDay, timeOfDay } from './time-of-day';

export const SLOT_MINUTES = 15;
export const FIRST_SLOT = '06:00';
/** Last daytime start. */
export const DAYTIME_LAST_SLOT = '20:00';
/** Last night-wizard start. */
export const NIGHT_LAST_SLOT = '19:45';
/** From this local time on, the night wizard offers no start today. */
export const NIGHT_SAME_DAY_CUTOFF = '19:00';

/**
 * Daytime start times (HH:mm, every 15 minutes, 06:00–20:00 inclusive) for `date` at the location.
 * Today they begin at the next 15-minute mark strictly after now (10:00:00 → 10:15, 10:07 → 10:15),
 * never before 06:00, and there are none from 20:00 on. Past dates have none. Combine with
 * {@link isDateBookable} for the calendar's horizon.
 */
export function daytimeStartSlots(date: string, now: Date, zone: string): string[] {
  return startSlots(date, now, zone, minutesOfDay(DAYTIME_LAST_SLOT), minutesOfDay(DAYTIME_LAST_SLOT));
}

/**
 * Night-wizard start times (HH:mm, every 15 minutes, 06:00–19:45) for `date`. Today they begin at
 * the next 15-minute mark strictly after now, never before 06:00, and there are none from 19:00 on.
 */
export function nightStartSlots(date: string, now: Date, zone: string): string[] {
  return startSlots(date, now, zone, minutesOfDay(NIGHT_LAST_SLOT), minutesOfDay(NIGHT_SAME_DAY_CUTOFF));
}

/** True when `time` is a daytime start offered for `date` and the date is in the calendar's bounds. */
export function isDaytimeStartAllowed(date: string, time: string, now: Date, zone: string): boolean {
  return isDateBookable(date, now, zone) && daytimeStartSlots(date, now, zone).includes(time);
}

/** True when `time` is a night start offered for `date` and the date is in the calendar's bounds. */
export function isNightStartAllowed(date: string, time: string, now: Date, zone: string): boolean {
  return isDateBookable(date, now, zone) && nightStartSlots(date, now, zone).includes(time);
}

/**
 * Whether a start `minutes` past local midnight of `date` is one of {@link daytimeStartSlots}, with
 * now already read on the location's wall clock (`local`): the same rule, without listing the slots
 * (the server asks this of every hold).
 */
export function isDaytimeStartSlotAt(date: string, minutes: number, local: WallClockReading): boolean {
  const range = slotRange(date, local, minutesOfDay(DAYTIME_LAST_SLOT), minutesOfDay(DAYTIME_LAST_SLOT));
  return range !== null && isInRange(minutes, range);
}

/** Whether a start `minutes` past local midnight of `date` is one of {@link nightStartSlots} (see above). */
export function isNightStartSlotAt(date: string, minutes: number, local: WallClockReading): boolean {
  const range = slotRange(date, local, minutesOfDay(NIGHT_LAST_SLOT), minutesOfDay(NIGHT_SAME_DAY_CUTOFF));
  return range !== null && isInRange(minutes, range);
}

function isInRange(minutes: number, { first, last }: { first: number; last: number }): boolean {
  // `first` is on the grid (06:00 or a 15-minute mark), so every slot is too.
  return minutes % SLOT_MINUTES === 0 && minutes >= first && minutes <= last;
}

function startSlots(
  date: string,
  now: Date,
  zone: string,
  lastSlot: number,
  sameDayCutoff: number,
): string[] {
  if (!isIsoDate(date)) throw new RangeError(`Not a calendar date (yyyy-MM-dd): ${String(date)}`);
  assertKnownZone(zone);
  const range = slotRange(date, readWallClock(now, zone), lastSlot, sameDayCutoff);
  const slots: string[] = [];
  if (!range) return slots;
  for (let minutes = range.first; minutes <= range.last; minutes += SLOT_MINUTES)
    slots.push(timeOfDay(minutes));
  return slots;
}

/** The first and last start of `date` (minutes past local midnight) as seen at `local`; null when it has none. */
function slotRange(
  date: string,
  local: WallClockReading,
  lastSlot: number,
  sameDayCutoff: number,
): { first: number; last: number } | null {
  // yyyy-MM-dd strings order like the local days they name.
  if (date < local.date) return null;
  let first = minutesOfDay(FIRST_SLOT);
  if (date === local.date) {
    const nowMinutes = local.minutes;
    if (nowMinutes >= sameDayCutoff) return null;
    // The mark strictly after now: seconds within the current minute never make it "now".
    const nextMark = Math.floor(nowMinutes / SLOT_MINUTES) * SLOT_MINUTES + SLOT_MINUTES;
    first = Math.max(first, nextMark);
  }
  return { first, last: lastSlot };
}
