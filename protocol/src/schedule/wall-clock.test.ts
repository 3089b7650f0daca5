import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { calendarBounds } from './calendar';
import { isIsoDate, plusIsoDate, readWallClock } from './local-time';
import { daytimeStartSlots, nightStartSlots } from './start-slots';
import { seededRandom } from '../seeded-random';

// The calendar's bounds and the start slots read the wall clock through Intl instead of luxon
// DateTimes (a few per hold on the server). These compare them with the luxon reading they replaced,
// on daylight-saving days, in zones whose changes fall at midnight or move by 30 minutes.

const ZONES = [
  'Europe/Rome',
  'Europe/London',
  'America/Santiago',
  'America/Havana',
  'Australia/Lord_Howe',
  'Asia/Kolkata',
  'Pacific/Chatham',
  'UTC',
];

/** Instants around each of the zone's changes of 2026, and random ones. */
function instants(zone: string): Date[] {
  return [...aroundChanges(zone), ...randomInstants(150)];
}

/** Every 61 minutes and 13 seconds, from 36 hours before to 36 hours after each change of 2026. */
function aroundChanges(zone: string): Date[] {
  const found: Date[] = [];
  let previous = DateTime.fromISO('2026-01-01T00:00:00Z').setZone(zone).offset;
  for (let t = Date.parse('2026-01-01T00:00:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 3_600_000) {
    const offset = DateTime.fromMillis(t, { zone }).offset;
    if (offset !== previous) {
      for (let u = t - 36 * 3_600_000; u < t + 36 * 3_600_000; u += 61 * 60_000 + 13_000)
        found.push(new Date(u));
    }
    previous = offset;
  }
  return found;
}

/** `count` instants in the 800 days from 1 June 2025, the same on every run. */
function randomInstants(count: number): Date[] {
  const random = seededRandom(42);
  const from = Date.parse('2025-06-01T00:00:00Z');
  return Array.from({ length: count }, () => new Date(from + Math.floor(random() * 800 * 86_400_000)));
}

function luxonCalendarBounds(now: Date, zone: string) {
  const local = DateTime.fromJSDate(now, { zone });
  const today = local.startOf('day');
  const pastCutoff = local.hour * 60 + local.minute >= 19 * 60 + 45;
  return {
    min: (pastCutoff ? today.plus({ days: 1 }) : today).toFormat('yyyy-MM-dd'),
    max: today.plus({ months: 6 }).toFormat('yyyy-MM-dd'),
  };
}

function luxonStartSlots(date: string, now: Date, zone: string, lastSlot: number, cutoff: number): string[] {
  const day = DateTime.fromISO(date, { zone });
  const local = DateTime.fromJSDate(now, { zone });
  if (day < local.startOf('day')) return [];
  let first = 6 * 60;
  if (day.hasSame(local, 'day')) {
    const nowMinutes = local.hour * 60 + local.minute;
    if (nowMinutes >= cutoff) return [];
    first = Math.max(first, Math.floor(nowMinutes / 15) * 15 + 15);
  }
  const slots: string[] = [];
  for (let m = first; m <= lastSlot; m += 15) {
    slots.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return slots;
}

describe('the wall clock read through Intl', () => {
  it.each(ZONES)('reads dates, times, bounds and slots as luxon does in %s', (zone) => {
    for (const now of instants(zone)) {
      const local = DateTime.fromJSDate(now, { zone });
      expect(readWallClock(now, zone)).toEqual({
        date: local.toFormat('yyyy-MM-dd'),
        minutes: local.hour * 60 + local.minute,
        second: local.second,
      });
      expect(calendarBounds(now, zone)).toEqual(luxonCalendarBounds(now, zone));
      for (const days of [-1, 0, 1]) {
        const date = local.plus({ days }).toFormat('yyyy-MM-dd');
        expect(daytimeStartSlots(date, now, zone)).toEqual(
          luxonStartSlots(date, now, zone, 20 * 60, 20 * 60),
        );
        expect(nightStartSlots(date, now, zone)).toEqual(
          luxonStartSlots(date, now, zone, 19 * 60 + 45, 19 * 60),
        );
      }
    }
  });

  it('reads every second of a change minute as luxon does, in any order (one format a minute per zone)', () => {
    const luxonReading = (now: Date, zone: string) => {
      const local = DateTime.fromJSDate(now, { zone });
      return {
        date: local.toFormat('yyyy-MM-dd'),
        minutes: local.hour * 60 + local.minute,
        second: local.second,
      };
    };
    const random = seededRandom(7);
    const secondsAround = (iso: string) => {
      const at = Date.parse(iso);
      const seconds = Array.from({ length: 180 }, (_, i) => new Date(at - 60_000 + i * 1000 + 250));
      // Shuffled, so a later second of a minute is often read before an earlier one.
      return seconds.sort(() => random() - 0.5);
    };
    const changes = [
      // Rome's spring and autumn changes, Lord Howe's half hour, Chatham's 45-minute offset.
      ['Europe/Rome', '2026-03-29T01:00:00Z'],
      ['Europe/Rome', '2026-10-25T01:00:00Z'],
      ['Australia/Lord_Howe', '2026-04-04T15:00:00Z'],
      ['Pacific/Chatham', '2026-04-04T14:00:00Z'],
      // Offsets with seconds, before 1972: Liberia's -0:44:30 ended mid-minute (UTC 00:44:30).
      ['Africa/Monrovia', '1972-01-07T00:44:30Z'],
      ['Europe/Amsterdam', '1937-07-01T00:00:00Z'],
    ] as const;
    for (const [zone, iso] of changes) {
      for (const now of secondsAround(iso)) expect(readWallClock(now, zone)).toEqual(luxonReading(now, zone));
    }
  });

  it('refuses what zonedNow refuses', () => {
    expect(() => readWallClock(new Date(Number.NaN), 'Europe/Rome')).toThrow(RangeError);
    expect(() => readWallClock(new Date(), 'Mars/Olympus')).toThrow(RangeError);
    expect(() => daytimeStartSlots('2026-01-01', new Date(), 'Mars/Olympus')).toThrow(RangeError);
    expect(readWallClock(new Date('2026-07-01T10:00:00Z'), 'UTC+2')).toEqual({
      date: '2026-07-01',
      minutes: 12 * 60,
      second: 0,
    });
  });
});

describe('calendar dates without luxon', () => {
  it('validates and moves dates as luxon does, month ends and leap years included', () => {
    for (const year of [1900, 2000, 2023, 2024, 2025, 2026, 2027, 2028, 2100]) {
      for (let month = 1; month <= 12; month += 1) {
        for (let day = 0; day <= 32; day += 1) {
          const date = `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
          const parsed = DateTime.fromISO(date, { zone: 'utc' });
          expect(isIsoDate(date)).toBe(parsed.isValid);
          if (!parsed.isValid) continue;
          for (const change of [{ days: 1 }, { months: 6 }, { months: 1 }, { months: 12 }, { days: 31 }]) {
            expect(plusIsoDate(date, change)).toBe(parsed.plus(change).toFormat('yyyy-MM-dd'));
          }
        }
      }
    }
    for (const bad of [
      '2026-13-01',
      '2026-00-10',
      '2026-1-01',
      '26-01-01',
      '2026-02-29',
      '2024-02-30',
      20260101,
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
  });
});
