import { minutesOfDay } from './time-of-day';
import { formatsPerZone } from './zone-formats';

// Daily windows: the block windows and the fast-track hours. Customer pages check them as soon as
// they load, so this file reads the wall clock with Intl, the API luxon itself reads zones with,
// and keeps the date library off that first download.

/** A daily span of local time, HH:mm to HH:mm; `to` before `from` wraps past midnight. */
export type DailyWindow = { from: string; to: string };

export const FAST_TRACK_HOURS = 3;
export const DEFAULT_FAST_TRACK_HOURS: DailyWindow = { from: '06:00', to: '21:00' };

/**
 * True when local time at the location is inside any block window (bookings are refused and the
 * maintenance screen shows). `from` is inclusive, `to` exclusive; 22:00–02:00 wraps midnight; a
 * window with `from` equal to `to` is empty. Throws RangeError for a malformed time.
 */
export function isInBlockWindow(now: Date, zone: string, windows: readonly DailyWindow[]): boolean {
  const minutes = localMinutes(now, zone);
  return windows.some((window) => dailyWindowContains(window, minutes));
}

/**
 * True when local time is inside the fast-track hours (06:00 to 21:00 unless the admin set others):
 * 06:00 is inside, 21:00 is outside. Outside, the book button leads to the night wizard.
 */
export function isInFastTrackWindow(now: Date, zone: string, hours: Partial<DailyWindow> = {}): boolean {
  const window = {
    from: hours.from ?? DEFAULT_FAST_TRACK_HOURS.from,
    to: hours.to ?? DEFAULT_FAST_TRACK_HOURS.to,
  };
  return dailyWindowContains(window, localMinutes(now, zone));
}

/** Minutes since midnight on the location's wall clock. Throws RangeError for an invalid date or unknown zone. */
function localMinutes(now: Date, zone: string): number {
  if (!(now instanceof Date) || Number.isNaN(now.getTime())) {
    throw new RangeError(`Not a valid instant: ${String(now)}`);
  }
  let minutes = 0;
  for (const part of wallClock(zone).formatToParts(now)) {
    if (part.type === 'hour') minutes += (Number(part.value) % 24) * 60;
    if (part.type === 'minute') minutes += Number(part.value);
  }
  return minutes;
}

const wallClocks = formatsPerZone('en-GB', { hourCycle: 'h23', hour: 'numeric', minute: 'numeric' });

function wallClock(zone: string): Intl.DateTimeFormat {
  const format = wallClocks(zone);
  if (!format) throw new RangeError(`Unknown time zone: ${zone}`);
  return format;
}

function dailyWindowContains(window: DailyWindow, minutes: number): boolean {
  const from = minutesOfDay(window.from);
  const to = minutesOfDay(window.to);
  if (from <= to) return minutes >= from && minutes < to;
  return minutes >= from || minutes < to;
}
