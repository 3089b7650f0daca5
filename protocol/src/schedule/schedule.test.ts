import { describe, expect, it } from 'vitest';
import {
  BOOKING_HORIZON_MONTHS,
  CALENDAR_CUTOFF,
  DAY_OPTIONS,
  FAST_TRACK_HOURS,
  bookingWindow,
  calendarBounds,
  dayOptions,
  daytimeHourOptions,
  daytimeStartSlots,
  fastTrackWindow,
  windowFromNow,
  formatLocal,
  isDateBookable,
  isDateBookableAt,
  isDaytimeStartAllowed,
  isDaytimeStartSlotAt,
  isInBlockWindow,
  isInFastTrackWindow,
  isIsoDate,
  isNightStartAllowed,
  isNightStartSlotAt,
  plusIsoDate,
  readWallClock,
  timeOfDay,
  isTimeOfDay,
  nightAvailabilityWindow,
  nightHourOptions,
  nightStartSlots,
  todayInZone,
  zonedNow,
} from './index';
import { LOCATION_TIMEZONES } from '../schemas/limits';
import type { Duration } from '../pricing/index';

const ROME = 'Europe/Rome';
const LONDON = 'Europe/London';
const at = (iso: string) => new Date(iso);

/** Every quarter hour from `from` to `to` inclusive, HH:mm. */
function quarters(from: string, to: string): string[] {
  const toMinutes = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));
  const out: string[] = [];
  for (let m = toMinutes(from); m <= toMinutes(to); m += 15) {
    out.push(`${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`);
  }
  return out;
}

describe('local dates and times', () => {
  it('recognises real calendar dates only', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2028-02-29')).toBe(true);
    for (const bad of [
      '2026-02-29',
      '2026-02-30',
      '2026-13-01',
      '2026-00-10',
      '2026-6-10',
      '2026-06-10T10:00',
      '',
      20260610,
    ]) {
      expect(isIsoDate(bad)).toBe(false);
    }
  });

  it('recognises HH:mm times of day', () => {
    expect(isTimeOfDay('00:00')).toBe(true);
    expect(isTimeOfDay('23:59')).toBe(true);
    for (const bad of ['24:00', '9:00', '09:60', '09:00:00', '', null]) expect(isTimeOfDay(bad)).toBe(false);
  });

  it("takes today from the location's zone, not UTC", () => {
    expect(todayInZone(at('2026-06-10T22:30:00Z'), ROME)).toBe('2026-06-11');
    expect(todayInZone(at('2026-06-10T22:30:00Z'), LONDON)).toBe('2026-06-10');
    expect(todayInZone(at('2026-06-10T23:30:00Z'), LONDON)).toBe('2026-06-11');
  });

  it('refuses invalid instants and zones', () => {
    expect(() => todayInZone(at('not a date'), ROME)).toThrow(RangeError);
    expect(() => todayInZone(at('2026-06-10T10:00:00Z'), 'Mars/Olympus')).toThrow(RangeError);
  });

  it('formats instants on the local wall clock', () => {
    expect(formatLocal('2026-06-10T08:00:00.000Z', ROME, 'dd/MM/yyyy HH:mm')).toBe('10/06/2026 10:00');
    expect(formatLocal('2026-06-10T08:00:00.000Z', LONDON, 'dd/MM/yyyy HH:mm')).toBe('10/06/2026 09:00');
    expect(formatLocal('2026-01-15T23:30:00Z', ROME, 'dd/MM/yyyy HH:mm')).toBe('16/01/2026 00:30');
    expect(formatLocal('2026-06-10T10:00:00+02:00', LONDON, 'HH:mm')).toBe('09:00');
    expect(formatLocal('2026-03-29T00:59:00Z', ROME, 'HH:mm')).toBe('01:59');
    expect(formatLocal('2026-03-29T01:00:00Z', ROME, 'HH:mm')).toBe('03:00');
    expect(formatLocal('nope', ROME, 'HH:mm')).toBeNull();
    expect(formatLocal('2026-06-10T08:00:00Z', 'Mars/Olympus', 'HH:mm')).toBeNull();
  });
});

describe('calendarBounds', () => {
  it('uses the 19:45 cutoff and a 6-month horizon', () => {
    expect(CALENDAR_CUTOFF).toBe('19:45');
    expect(BOOKING_HORIZON_MONTHS).toBe(6);
  });

  it.each([
    ['2026-06-10T17:44:59.999Z', '2026-06-10', '2026-12-10'],
    // From the cutoff the first day is tomorrow; the horizon stays 6 months from today.
    ['2026-06-10T17:45:00Z', '2026-06-11', '2026-12-10'],
    ['2026-06-10T21:59:00Z', '2026-06-11', '2026-12-10'],
    // At local midnight the horizon moves to the next day too.
    ['2026-06-10T22:30:00Z', '2026-06-11', '2026-12-11'],
  ])('at %s in Rome, offers %s to %s', (instant, min, max) => {
    expect(calendarBounds(at(instant), ROME)).toEqual({ min, max });
  });

  it.each([
    // The cutoff in winter time.
    ['2026-01-15T18:44:00Z', ROME, '2026-01-15'],
    ['2026-01-15T18:45:00Z', ROME, '2026-01-16'],
    // In London time for campo: the same instant is before the cutoff in London and after it in Rome.
    ['2026-06-10T18:44:00Z', LONDON, '2026-06-10'],
    ['2026-06-10T18:45:00Z', LONDON, '2026-06-11'],
    ['2026-06-10T18:30:00Z', LONDON, '2026-06-10'],
    ['2026-06-10T18:30:00Z', ROME, '2026-06-11'],
    // On daylight-saving change days.
    ['2026-03-29T17:44:00Z', ROME, '2026-03-29'],
    ['2026-03-29T17:45:00Z', ROME, '2026-03-30'],
    ['2026-10-25T18:44:00Z', ROME, '2026-10-25'],
    ['2026-10-25T18:45:00Z', ROME, '2026-10-26'],
    ['2026-03-29T18:44:00Z', LONDON, '2026-03-29'],
    ['2026-03-29T18:45:00Z', LONDON, '2026-03-30'],
    ['2026-10-25T19:44:00Z', LONDON, '2026-10-25'],
    ['2026-10-25T19:45:00Z', LONDON, '2026-10-26'],
  ])('at %s in %s, offers days from %s', (instant, zone, min) => {
    expect(calendarBounds(at(instant), zone).min).toBe(min);
  });

  it('clamps the horizon to the end of a shorter month', () => {
    expect(calendarBounds(at('2026-08-31T08:00:00Z'), ROME).max).toBe('2027-02-28');
    expect(calendarBounds(at('2027-08-31T08:00:00Z'), ROME).max).toBe('2028-02-29');
  });
});

describe('isDateBookable', () => {
  const morning = at('2026-06-10T08:00:00Z');

  it('accepts today through today + 6 months', () => {
    expect(isDateBookable('2026-06-10', morning, ROME)).toBe(true);
    expect(isDateBookable('2026-09-01', morning, ROME)).toBe(true);
    expect(isDateBookable('2026-12-10', morning, ROME)).toBe(true);
    expect(isDateBookable('2026-06-09', morning, ROME)).toBe(false);
    expect(isDateBookable('2026-12-11', morning, ROME)).toBe(false);
  });

  it('refuses today from 19:45', () => {
    expect(isDateBookable('2026-06-10', at('2026-06-10T17:44:00Z'), ROME)).toBe(true);
    expect(isDateBookable('2026-06-10', at('2026-06-10T17:45:00Z'), ROME)).toBe(false);
    expect(isDateBookable('2026-06-11', at('2026-06-10T17:45:00Z'), ROME)).toBe(true);
  });

  it('refuses malformed and impossible dates', () => {
    for (const bad of ['2026-02-30', '2026-06-31', '2026-6-10', '10/06/2026', '', '2026-06-10T00:00:00Z']) {
      expect(isDateBookable(bad, morning, ROME)).toBe(false);
    }
  });
});

describe('daytimeStartSlots', () => {
  const ALL = quarters('06:00', '20:00');

  it('offers every quarter hour from 06:00 to 20:00 on a later date', () => {
    expect(ALL).toHaveLength(57);
    expect(daytimeStartSlots('2026-06-11', at('2026-06-10T08:00:00Z'), ROME)).toEqual(ALL);
  });

  it('offers nothing on a past date', () => {
    expect(daytimeStartSlots('2026-06-09', at('2026-06-10T08:00:00Z'), ROME)).toEqual([]);
  });

  it('starts today at the next quarter hour strictly after now', () => {
    const slotsAt = (iso: string) => daytimeStartSlots('2026-06-10', at(iso), ROME);
    expect(slotsAt('2026-06-10T07:59:59Z')[0]).toBe('10:00'); // 09:59:59
    expect(slotsAt('2026-06-10T08:00:00Z')[0]).toBe('10:15'); // 10:00 exactly
    expect(slotsAt('2026-06-10T08:00:30Z')[0]).toBe('10:15');
    expect(slotsAt('2026-06-10T08:07:00Z')[0]).toBe('10:15');
    expect(slotsAt('2026-06-10T08:14:59Z')[0]).toBe('10:15');
    expect(slotsAt('2026-06-10T08:15:00Z')[0]).toBe('10:30');
    expect(slotsAt('2026-06-10T08:00:00Z')).toEqual(quarters('10:15', '20:00'));
  });

  it('never starts before 06:00', () => {
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T02:00:00Z'), ROME)).toEqual(ALL); // 04:00
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T03:59:00Z'), ROME)).toEqual(ALL); // 05:59
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T04:00:00Z'), ROME)[0]).toBe('06:15'); // 06:00
  });

  it('ends at 20:00 and offers nothing from 20:00', () => {
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T17:44:00Z'), ROME)).toEqual(['19:45', '20:00']);
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T17:45:00Z'), ROME)).toEqual(['20:00']);
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T17:59:59Z'), ROME)).toEqual(['20:00']);
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T18:00:00Z'), ROME)).toEqual([]);
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T21:30:00Z'), ROME)).toEqual([]);
  });

  it("judges today in the location's zone", () => {
    // 22:30 UTC is already the 11th in Rome: the 10th is past, the 11th is a full day.
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T22:30:00Z'), ROME)).toEqual([]);
    expect(daytimeStartSlots('2026-06-11', at('2026-06-10T22:30:00Z'), ROME)).toEqual(ALL);
    // 18:30 UTC is 19:30 in London, 20:30 in Rome.
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T18:30:00Z'), LONDON)).toEqual(['19:45', '20:00']);
    expect(daytimeStartSlots('2026-06-10', at('2026-06-10T18:30:00Z'), ROME)).toEqual([]);
  });

  it('uses the right offset on daylight-saving change days', () => {
    expect(daytimeStartSlots('2026-03-29', at('2026-03-29T05:00:00Z'), ROME)[0]).toBe('07:15'); // 07:00 CEST
    expect(daytimeStartSlots('2026-03-29', at('2026-03-29T05:00:00Z'), LONDON)[0]).toBe('06:15'); // 06:00 BST
    expect(daytimeStartSlots('2026-10-25', at('2026-10-25T05:00:00Z'), ROME)[0]).toBe('06:15'); // 06:00 CET
    expect(daytimeStartSlots('2026-10-25', at('2026-10-25T05:00:00Z'), LONDON)).toEqual(ALL); // 05:00 GMT
  });

  it('refuses malformed dates', () => {
    expect(() => daytimeStartSlots('2026-02-30', at('2026-06-10T08:00:00Z'), ROME)).toThrow(RangeError);
    expect(() => daytimeStartSlots('tomorrow', at('2026-06-10T08:00:00Z'), ROME)).toThrow(RangeError);
  });
});

describe('nightStartSlots', () => {
  const ALL = quarters('06:00', '19:45');

  it('offers every quarter hour from 06:00 to 19:45 on a later date', () => {
    expect(ALL).toHaveLength(56);
    expect(nightStartSlots('2026-06-11', at('2026-06-10T08:00:00Z'), ROME)).toEqual(ALL);
    expect(nightStartSlots('2026-06-09', at('2026-06-10T08:00:00Z'), ROME)).toEqual([]);
  });

  it('starts today at the next quarter hour, not before 06:00', () => {
    expect(nightStartSlots('2026-06-10', at('2026-06-10T08:00:00Z'), ROME)).toEqual(
      quarters('10:15', '19:45'),
    );
    expect(nightStartSlots('2026-06-10', at('2026-06-10T03:00:00Z'), ROME)).toEqual(ALL);
  });

  it('offers nothing today from 19:00', () => {
    expect(nightStartSlots('2026-06-10', at('2026-06-10T16:59:59Z'), ROME)).toEqual(
      quarters('19:00', '19:45'),
    );
    expect(nightStartSlots('2026-06-10', at('2026-06-10T17:00:00Z'), ROME)).toEqual([]);
    expect(nightStartSlots('2026-06-10', at('2026-06-10T17:44:00Z'), ROME)).toEqual([]);
  });

  it('uses London time for campo and the right offset on change days', () => {
    expect(nightStartSlots('2026-06-10', at('2026-06-10T17:30:00Z'), LONDON)).toEqual(
      quarters('18:45', '19:45'),
    );
    expect(nightStartSlots('2026-06-10', at('2026-06-10T17:30:00Z'), ROME)).toEqual([]);
    expect(nightStartSlots('2026-03-29', at('2026-03-29T16:59:00Z'), ROME)).toEqual(
      quarters('19:00', '19:45'),
    ); // 18:59 CEST
    expect(nightStartSlots('2026-03-29', at('2026-03-29T17:00:00Z'), ROME)).toEqual([]); // 19:00 CEST
    expect(nightStartSlots('2026-10-25', at('2026-10-25T18:00:00Z'), ROME)).toEqual([]); // 19:00 CET
    expect(nightStartSlots('2026-10-25', at('2026-10-25T17:59:00Z'), ROME)).toEqual(
      quarters('19:00', '19:45'),
    );
  });
});

describe('isDaytimeStartSlotAt, isNightStartSlotAt and isDateBookableAt', () => {
  it('answer as the listed slots and the calendar do, around the clock on days around DST changes', () => {
    const everyFiveMinutes = Array.from({ length: (24 * 60) / 5 }, (_, i) => i * 5);
    let compared = 0;
    for (const zone of [ROME, LONDON, 'America/New_York', 'Asia/Kolkata']) {
      for (const day of ['2026-03-29', '2026-06-10', '2026-10-25']) {
        // Instants every 31 minutes (some with seconds) from the day before to the day after.
        const from = Date.parse(`${day}T00:00:00Z`) - 24 * 3600_000;
        for (let ms = from; ms < from + 72 * 3600_000; ms += 31 * 60_000) {
          const now = new Date(ms + (ms % 3) * 20_000);
          const local = readWallClock(now, zone);
          for (const days of [-1, 0, 1]) {
            const date = plusIsoDate(local.date, { days });
            expect(isDateBookableAt(date, local)).toBe(isDateBookable(date, now, zone));
            const daytime = daytimeStartSlots(date, now, zone);
            const night = nightStartSlots(date, now, zone);
            expect(
              everyFiveMinutes.filter((m) => isDaytimeStartSlotAt(date, m, local)).map(timeOfDay),
            ).toEqual(everyFiveMinutes.map(timeOfDay).filter((time) => daytime.includes(time)));
            expect(everyFiveMinutes.filter((m) => isNightStartSlotAt(date, m, local)).map(timeOfDay)).toEqual(
              everyFiveMinutes.map(timeOfDay).filter((time) => night.includes(time)),
            );
            compared += 1;
          }
        }
      }
    }
    expect(compared).toBeGreaterThan(1_500);
  });
});

describe('start allowed (server-side check)', () => {
  const now = at('2026-06-10T08:00:00Z'); // 10:00 in Rome

  it('needs a bookable date and an offered slot', () => {
    expect(isDaytimeStartAllowed('2026-06-10', '10:15', now, ROME)).toBe(true);
    expect(isDaytimeStartAllowed('2026-06-10', '10:00', now, ROME)).toBe(false);
    expect(isDaytimeStartAllowed('2026-06-10', '10:20', now, ROME)).toBe(false);
    expect(isDaytimeStartAllowed('2026-06-11', '20:00', now, ROME)).toBe(true);
    expect(isDaytimeStartAllowed('2026-06-11', '20:15', now, ROME)).toBe(false);
    expect(isDaytimeStartAllowed('2026-12-11', '10:00', now, ROME)).toBe(false);
    expect(isNightStartAllowed('2026-06-11', '19:45', now, ROME)).toBe(true);
    expect(isNightStartAllowed('2026-06-11', '20:00', now, ROME)).toBe(false);
  });

  it('follows the calendar cutoff: after 19:45 today is closed even though 20:00 is still a slot', () => {
    const late = at('2026-06-10T17:50:00Z'); // 19:50
    expect(daytimeStartSlots('2026-06-10', late, ROME)).toEqual(['20:00']);
    expect(isDaytimeStartAllowed('2026-06-10', '20:00', late, ROME)).toBe(false);
  });

  it('is false rather than throwing for malformed input', () => {
    expect(isDaytimeStartAllowed('2026-02-30', '10:15', now, ROME)).toBe(false);
    expect(isNightStartAllowed('2026-06-11', '7pm', now, ROME)).toBe(false);
  });
});

describe('hour options', () => {
  it('daytime: 3 up to min(6, whole hours from the start until 22:00)', () => {
    expect(daytimeHourOptions('06:00')).toEqual([3, 4, 5, 6]);
    expect(daytimeHourOptions('16:00')).toEqual([3, 4, 5, 6]);
    // 16:45 + 6 hours would end at 22:45, after the daytime's 22:00.
    expect(daytimeHourOptions('16:45')).toEqual([3, 4, 5]);
    expect(daytimeHourOptions('17:00')).toEqual([3, 4, 5]);
    expect(daytimeHourOptions('18:00')).toEqual([3, 4]);
    expect(daytimeHourOptions('18:45')).toEqual([3]);
    expect(daytimeHourOptions('19:00')).toEqual([3]);
    expect(daytimeHourOptions('19:15')).toEqual([]);
    expect(daytimeHourOptions('19:45')).toEqual([]);
    expect(daytimeHourOptions('20:00')).toEqual([]);
  });

  it('night: 3 up to min(6, whole hours from the start until 22:45)', () => {
    expect(nightHourOptions('06:00')).toEqual([3, 4, 5, 6]);
    expect(nightHourOptions('16:45')).toEqual([3, 4, 5, 6]);
    expect(nightHourOptions('17:00')).toEqual([3, 4, 5]);
    expect(nightHourOptions('18:45')).toEqual([3, 4]);
    expect(nightHourOptions('18:46')).toEqual([3]);
    expect(nightHourOptions('19:00')).toEqual([3]);
    expect(nightHourOptions('19:45')).toEqual([3]);
    expect(nightHourOptions('19:46')).toEqual([]);
    expect(nightHourOptions('20:00')).toEqual([]);
  });

  it('refuses malformed start times', () => {
    for (const bad of ['24:00', '9:00', '10:60', 'noon', '']) {
      expect(() => daytimeHourOptions(bad)).toThrow(RangeError);
      expect(() => nightHourOptions(bad)).toThrow(RangeError);
    }
  });

  it('day options are 1 to 15', () => {
    expect(DAY_OPTIONS).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]);
    const copy = dayOptions();
    copy.push(16);
    expect(dayOptions()).toHaveLength(15);
  });
});

describe('bookingWindow', () => {
  const hours = (value: number): Duration => ({ value, unit: 'hours' });
  const days = (value: number): Duration => ({ value, unit: 'days' });

  it('adds hours in summer and winter', () => {
    expect(bookingWindow({ date: '2026-06-10', time: '10:00', duration: hours(3), zone: ROME })).toEqual({
      startTimeIso: '2026-06-10T08:00:00.000Z',
      endTimeIso: '2026-06-10T11:00:00.000Z',
    });
    expect(bookingWindow({ date: '2026-01-15', time: '19:45', duration: hours(3), zone: ROME })).toEqual({
      startTimeIso: '2026-01-15T18:45:00.000Z',
      endTimeIso: '2026-01-15T21:45:00.000Z',
    });
  });

  it.each([
    // Spring: 23 real hours in Rome, ending at 10:00 CEST.
    ['2026-03-28', ROME, '2026-03-28T09:00:00.000Z', '2026-03-29T08:00:00.000Z'],
    ['2026-03-28', LONDON, '2026-03-28T10:00:00.000Z', '2026-03-29T09:00:00.000Z'],
    // Autumn: 25 real hours in Rome, ending at 10:00 CET.
    ['2026-10-24', ROME, '2026-10-24T08:00:00.000Z', '2026-10-25T09:00:00.000Z'],
    ['2026-10-24', LONDON, '2026-10-24T09:00:00.000Z', '2026-10-25T10:00:00.000Z'],
  ])(
    'adds a calendar day from 10:00 on %s in %s, keeping the wall-clock time across the change',
    (date, zone, startTimeIso, endTimeIso) => {
      expect(bookingWindow({ date, time: '10:00', duration: days(1), zone })).toEqual({
        startTimeIso,
        endTimeIso,
      });
    },
  );

  it('adds several calendar days across the spring and the autumn change', () => {
    expect(
      bookingWindow({ date: '2026-03-27', time: '10:00', duration: days(3), zone: ROME }).endTimeIso,
    ).toBe('2026-03-30T08:00:00.000Z');
    expect(
      bookingWindow({ date: '2026-10-20', time: '10:00', duration: days(15), zone: ROME }).endTimeIso,
    ).toBe('2026-11-04T09:00:00.000Z');
  });

  it('counts hours as elapsed time on a change day', () => {
    expect(bookingWindow({ date: '2026-03-29', time: '06:00', duration: hours(3), zone: ROME })).toEqual({
      startTimeIso: '2026-03-29T04:00:00.000Z',
      endTimeIso: '2026-03-29T07:00:00.000Z',
    });
    // 00:30 CET + 3 h crosses the skipped hour: 04:30 CEST.
    const overnight = bookingWindow({ date: '2026-03-29', time: '00:30', duration: hours(3), zone: ROME });
    expect(overnight).toEqual({
      startTimeIso: '2026-03-28T23:30:00.000Z',
      endTimeIso: '2026-03-29T02:30:00.000Z',
    });
    expect(formatLocal(overnight.endTimeIso, ROME, 'HH:mm')).toBe('04:30');
  });

  it('refuses a time skipped by the spring change', () => {
    expect(() =>
      bookingWindow({ date: '2026-03-29', time: '02:30', duration: hours(3), zone: ROME }),
    ).toThrow(/does not exist/);
    expect(() =>
      bookingWindow({ date: '2026-03-29', time: '01:30', duration: hours(3), zone: LONDON }),
    ).toThrow(/does not exist/);
  });

  it('refuses invalid input', () => {
    const ok = { date: '2026-06-10', time: '10:00', duration: hours(3), zone: ROME };
    expect(() => bookingWindow({ ...ok, date: '2026-02-30' })).toThrow(RangeError);
    expect(() => bookingWindow({ ...ok, time: '25:00' })).toThrow(RangeError);
    expect(() => bookingWindow({ ...ok, zone: 'Mars/Olympus' })).toThrow(RangeError);
    for (const duration of [
      hours(0),
      hours(-3),
      hours(Number.NaN),
      hours(2.5),
      { value: 1, unit: 'weeks' },
    ]) {
      expect(() => bookingWindow({ ...ok, duration: duration as Duration })).toThrow(RangeError);
    }
  });
});

describe('nightAvailabilityWindow', () => {
  it.each([
    ['2026-06-10', ROME, '2026-06-10T04:00:00.000Z', '2026-06-10T20:00:00.000Z'],
    ['2026-01-15', ROME, '2026-01-15T05:00:00.000Z', '2026-01-15T21:00:00.000Z'],
    ['2026-06-10', LONDON, '2026-06-10T05:00:00.000Z', '2026-06-10T21:00:00.000Z'],
  ])('is 06:00 to 22:00 local, in UTC: %s in %s', (date, zone, startTimeIso, endTimeIso) => {
    expect(nightAvailabilityWindow(date, zone)).toEqual({ startTimeIso, endTimeIso });
  });

  it.each([
    ['2026-03-29', ROME, '2026-03-29T04:00:00.000Z', '2026-03-29T20:00:00.000Z'],
    ['2026-10-25', ROME, '2026-10-25T05:00:00.000Z', '2026-10-25T21:00:00.000Z'],
    ['2026-03-29', LONDON, '2026-03-29T05:00:00.000Z', '2026-03-29T21:00:00.000Z'],
    ['2026-10-25', LONDON, '2026-10-25T06:00:00.000Z', '2026-10-25T22:00:00.000Z'],
  ])('uses the day-of offset on change days: %s in %s', (date, zone, startTimeIso, endTimeIso) => {
    expect(nightAvailabilityWindow(date, zone)).toEqual({ startTimeIso, endTimeIso });
  });

  it('refuses impossible dates', () => {
    expect(() => nightAvailabilityWindow('2026-02-30', ROME)).toThrow(RangeError);
  });
});

describe('fastTrackWindow', () => {
  it('starts now and lasts 3 hours', () => {
    expect(FAST_TRACK_HOURS).toBe(3);
    expect(fastTrackWindow(at('2026-06-10T08:07:12.345Z'), ROME)).toEqual({
      startTimeIso: '2026-06-10T08:07:12.345Z',
      endTimeIso: '2026-06-10T11:07:12.345Z',
    });
  });

  it('lasts 3 real hours across a change', () => {
    expect(fastTrackWindow(at('2026-10-25T00:30:00Z'), ROME)).toEqual({
      startTimeIso: '2026-10-25T00:30:00.000Z',
      endTimeIso: '2026-10-25T03:30:00.000Z',
    });
  });

  it('refuses an unknown zone or an invalid instant', () => {
    expect(() => fastTrackWindow(at('2026-06-10T08:00:00Z'), 'Nowhere/City')).toThrow(RangeError);
    expect(() => fastTrackWindow(at('garbage'), ROME)).toThrow(RangeError);
  });
});

describe('windowFromNow', () => {
  it('adds hours as elapsed time and days as calendar days in the zone', () => {
    expect(windowFromNow(at('2026-10-24T08:00:00Z'), ROME, { value: 4, unit: 'hours' })).toEqual({
      startTimeIso: '2026-10-24T08:00:00.000Z',
      endTimeIso: '2026-10-24T12:00:00.000Z',
    });
    // 10:00 in Rome on the day before the October change ends at 10:00 local: 25 real hours.
    expect(windowFromNow(at('2026-10-24T08:00:00Z'), ROME, { value: 1, unit: 'days' })).toEqual({
      startTimeIso: '2026-10-24T08:00:00.000Z',
      endTimeIso: '2026-10-25T09:00:00.000Z',
    });
  });

  it('refuses a duration that is not a positive whole number', () => {
    expect(() => windowFromNow(at('2026-06-10T08:00:00Z'), ROME, { value: 0, unit: 'hours' })).toThrow(
      RangeError,
    );
    expect(() => windowFromNow(at('2026-06-10T08:00:00Z'), ROME, { value: 1.5, unit: 'days' })).toThrow(
      RangeError,
    );
  });
});

describe('isInBlockWindow', () => {
  const lunch = [{ from: '12:00', to: '14:00' }];
  const overnight = [{ from: '22:00', to: '02:00' }];

  it('is false with no windows', () => {
    expect(isInBlockWindow(at('2026-06-10T10:00:00Z'), ROME, [])).toBe(false);
  });

  it('includes from and excludes to', () => {
    expect(isInBlockWindow(at('2026-06-10T09:59:59Z'), ROME, lunch)).toBe(false); // 11:59
    expect(isInBlockWindow(at('2026-06-10T10:00:00Z'), ROME, lunch)).toBe(true); // 12:00
    expect(isInBlockWindow(at('2026-06-10T11:59:59Z'), ROME, lunch)).toBe(true); // 13:59
    expect(isInBlockWindow(at('2026-06-10T12:00:00Z'), ROME, lunch)).toBe(false); // 14:00
  });

  it('wraps past midnight', () => {
    expect(isInBlockWindow(at('2026-06-10T19:59:00Z'), ROME, overnight)).toBe(false); // 21:59
    expect(isInBlockWindow(at('2026-06-10T20:00:00Z'), ROME, overnight)).toBe(true); // 22:00
    expect(isInBlockWindow(at('2026-06-10T21:59:00Z'), ROME, overnight)).toBe(true); // 23:59
    expect(isInBlockWindow(at('2026-06-10T22:00:00Z'), ROME, overnight)).toBe(true); // 00:00
    expect(isInBlockWindow(at('2026-06-10T23:59:00Z'), ROME, overnight)).toBe(true); // 01:59
    expect(isInBlockWindow(at('2026-06-11T00:00:00Z'), ROME, overnight)).toBe(false); // 02:00
    expect(isInBlockWindow(at('2026-06-10T10:00:00Z'), ROME, overnight)).toBe(false); // 12:00
  });

  it('treats a window from a time to the same time as empty', () => {
    expect(isInBlockWindow(at('2026-06-10T10:00:00Z'), ROME, [{ from: '12:00', to: '12:00' }])).toBe(false);
  });

  it('blocks when any window matches', () => {
    expect(isInBlockWindow(at('2026-06-10T21:00:00Z'), ROME, [...lunch, ...overnight])).toBe(true);
  });

  it("reads the location's wall clock", () => {
    // 11:30 UTC: 12:30 in London, 13:30 in Rome.
    const window = [{ from: '12:00', to: '13:00' }];
    expect(isInBlockWindow(at('2026-06-10T11:30:00Z'), LONDON, window)).toBe(true);
    expect(isInBlockWindow(at('2026-06-10T11:30:00Z'), ROME, window)).toBe(false);
  });

  it('uses the new offset right after the spring change', () => {
    const now = at('2026-03-29T01:30:00Z'); // 03:30 CEST in Rome
    expect(isInBlockWindow(now, ROME, [{ from: '02:00', to: '03:00' }])).toBe(false);
    expect(isInBlockWindow(now, ROME, [{ from: '03:00', to: '04:00' }])).toBe(true);
    expect(isInBlockWindow(now, LONDON, [{ from: '02:00', to: '03:00' }])).toBe(true); // 02:30 BST
  });

  it('refuses malformed windows', () => {
    expect(() => isInBlockWindow(at('2026-06-10T10:00:00Z'), ROME, [{ from: '12', to: '14:00' }])).toThrow(
      RangeError,
    );
  });
});

describe('daily windows read the same wall clock as luxon', () => {
  it('agrees with zonedNow in every location zone through the DST changes', () => {
    // The windows read local time with Intl, the rest of the schedule with luxon; they must never differ.
    // The spring and autumn changes of Europe and of New York.
    const days = ['2026-03-08', '2026-03-29', '2026-10-25', '2026-11-01'];
    const disagreements: string[] = [];
    for (const zone of LOCATION_TIMEZONES) {
      for (const day of days) {
        for (let minute = 0; minute < 48 * 60; minute += 37) {
          const now = new Date(Date.parse(`${day}T00:00:00Z`) + minute * 60_000);
          const local = zonedNow(now, zone);
          const from = local.toFormat('HH:mm');
          const to = local.plus({ minutes: 1 }).toFormat('HH:mm');
          const inside = isInBlockWindow(now, zone, [{ from, to }]);
          const outside = !isInBlockWindow(now, zone, [{ from: to, to: from }]);
          if (!inside || !outside) disagreements.push(`${zone} ${now.toISOString()} (${from})`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('refuses an unknown zone or an invalid instant', () => {
    expect(() => isInBlockWindow(at('2026-06-10T10:00:00Z'), 'Mars/Olympus', [])).toThrow(RangeError);
    expect(() => isInFastTrackWindow(new Date(Number.NaN), ROME)).toThrow(RangeError);
  });
});

describe('isInFastTrackWindow', () => {
  it('defaults to 06:00 (inside) to 21:00 (outside)', () => {
    expect(isInFastTrackWindow(at('2026-06-10T03:59:00Z'), ROME)).toBe(false); // 05:59
    expect(isInFastTrackWindow(at('2026-06-10T04:00:00Z'), ROME)).toBe(true); // 06:00
    expect(isInFastTrackWindow(at('2026-06-10T18:59:59Z'), ROME)).toBe(true); // 20:59
    expect(isInFastTrackWindow(at('2026-06-10T19:00:00Z'), ROME)).toBe(false); // 21:00
  });

  it('takes admin hours, each bound defaulting separately', () => {
    const now = at('2026-06-10T19:30:00Z'); // 21:30 in Rome
    expect(isInFastTrackWindow(now, ROME, { from: '08:00', to: '22:00' })).toBe(true);
    expect(isInFastTrackWindow(now, ROME, { to: '23:00' })).toBe(true);
    expect(isInFastTrackWindow(now, ROME, { from: '05:00' })).toBe(false);
    expect(isInFastTrackWindow(at('2026-06-10T04:30:00Z'), ROME, { from: '07:00' })).toBe(false); // 06:30
  });

  it('uses London time for campo', () => {
    const now = at('2026-06-10T19:30:00Z'); // 20:30 in London, 21:30 in Rome
    expect(isInFastTrackWindow(now, LONDON)).toBe(true);
    expect(isInFastTrackWindow(now, ROME)).toBe(false);
    expect(isInFastTrackWindow(at('2026-10-25T05:59:00Z'), LONDON)).toBe(false); // 05:59 GMT
    expect(isInFastTrackWindow(at('2026-10-25T06:00:00Z'), LONDON)).toBe(true);
  });
});
