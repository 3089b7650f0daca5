import { describe, expect, it } from 'vitest';
import {
  italianMonthName,
  italianMonthTitle,
  italianWeekdayName,
  ITALIAN_WEEKDAYS,
  takingsDayLabel,
} from './italian-calendar';
import { monthBoundsUtc, monthOf, takingsMonthSchema } from './month';
import { monthlyTakingsFromData } from './takings-data';
import { DEFAULT_TAKINGS_SORT_ORDER, sortTakingsDays, TAKINGS_SORT_LABELS } from './takings-sort';

const days = monthlyTakingsFromData({
  month: '2026-07',
  locations: [{ key: 'roma', name: 'Roma' }],
  data: { roma: { '01/07/2026': 30, '02/07/2026': 10, '03/07/2026': 30, '04/07/2026': 20 } },
}).locations[0].days;

describe('sortTakingsDays', () => {
  it('sorts newest first by default', () => {
    expect(DEFAULT_TAKINGS_SORT_ORDER).toBe('date-desc');
    expect(sortTakingsDays(days).map((day) => day.label)).toEqual([
      '04/07/2026',
      '03/07/2026',
      '02/07/2026',
      '01/07/2026',
    ]);
  });

  it('sorts oldest first, highest and lowest takings (ties newest first) without touching the input', () => {
    const before = days.map((day) => day.date);
    expect(sortTakingsDays(days, 'date-asc').map((day) => day.date.slice(8))).toEqual([
      '01',
      '02',
      '03',
      '04',
    ]);
    expect(sortTakingsDays(days, 'amount-desc').map((day) => day.date.slice(8))).toEqual([
      '03',
      '01',
      '04',
      '02',
    ]);
    expect(sortTakingsDays(days, 'amount-asc').map((day) => day.date.slice(8))).toEqual([
      '02',
      '04',
      '03',
      '01',
    ]);
    expect(days.map((day) => day.date)).toEqual(before);
    expect(Object.keys(TAKINGS_SORT_LABELS)).toHaveLength(4);
  });
});

describe('Italian calendar names', () => {
  it('names weekdays and months in Italian', () => {
    expect(italianWeekdayName('2026-07-13')).toBe('Lunedì');
    expect(italianWeekdayName('2026-07-19')).toBe('Domenica');
    expect(ITALIAN_WEEKDAYS).toHaveLength(7);
    expect(italianMonthName('2026-01')).toBe('Gennaio');
    expect(italianMonthTitle('2026-12')).toBe('DICEMBRE 2026');
    expect(takingsDayLabel('2026-03-09')).toBe('09/03/2026');
    expect(() => italianWeekdayName('13/07/2026')).toThrow(RangeError);
  });
});

describe('months', () => {
  it.each([
    ['2026-07', 'Europe/Rome', '2026-06-30T22:00:00Z', '2026-07-31T22:00:00Z'],
    // Winter time at the start, summer time at the end.
    ['2026-03', 'Europe/London', '2026-03-01T00:00:00Z', '2026-03-31T23:00:00Z'],
  ])('bounds %s in UTC as lived in %s, DST included', (month, zone, fromUtc, toUtc) => {
    expect(monthBoundsUtc(month, zone)).toEqual({ fromUtc, toUtc });
  });

  it('tells the month of an instant in the zone, and refuses a month that is not one', () => {
    expect(monthOf(new Date('2026-06-30T22:30:00Z'), 'Europe/Rome')).toBe('2026-07');
    expect(monthOf(new Date('2026-06-30T22:30:00Z'), 'Europe/London')).toBe('2026-06');
    expect(takingsMonthSchema.safeParse('2026-13').success).toBe(false);
  });
});
