import { describe, expect, it } from 'vitest';
import type { BookingRow } from '@deposito/protocol';
import { formatEuro, formatInZone, lockerLabel, lockerTone, statusIcon } from './format';
import { intOrZero, parseLockerList, pricingToRows, rowsToPricing } from './location-form';
import { groupByTransaction } from './pages/booking-groups';
import { newDiscountFormSchema } from './forms/discount-form';
import { issueText } from './error-text';
import { readableLogLine } from './pages/LogPages';

describe('admin form rules (admin spec §5)', () => {
  it('reads comma-separated locker lists, dropping what is not a number', () => {
    expect(parseLockerList('1, 2, x, 3,,4a, 10 ')).toEqual([1, 2, 3, 10]);
    expect(parseLockerList('')).toEqual([]);
    expect(intOrZero('11000')).toBe(11000);
    expect(intOrZero('abc')).toBe(0);
  });

  it('keeps only price rows with a duration and a numeric price', () => {
    const rows = pricingToRows({
      standard: { hours: { '4': 6, '3': 5 }, days: { '1': 12 } },
      large: { hours: { '3': 7 }, days: {} },
    });
    expect(rows.standard.hours.map((r) => r.duration)).toEqual(['3', '4']);
    rows.standard.hours.push(
      { duration: '', price: '9' },
      { duration: '5', price: 'abc' },
      { duration: '6', price: '8,5' },
    );
    expect(rowsToPricing(rows).standard.hours).toEqual({ '3': 5, '4': 6, '6': 8.5 });
  });

  it('builds the discount payload: code trimmed, percent or euro, nulls for empty dates', () => {
    const base = {
      code: '  ESTATE ',
      description: '',
      kind: 'percent' as const,
      value: '10',
      validFrom: '',
      validTo: '',
      usableOnce: false,
      minDays: '',
    };
    const firstProblem = (form: typeof base) => {
      const result = newDiscountFormSchema.safeParse(form);
      return result.success ? null : issueText(result.error.issues[0]!);
    };
    expect(firstProblem({ ...base, code: ' ' })).toBe('Codice e valore sono obbligatori');
    expect(firstProblem({ ...base, value: 'x' })).toBe('Codice e valore sono obbligatori');
    expect(newDiscountFormSchema.safeParse(base)).toEqual({
      success: true,
      data: {
        code: 'ESTATE',
        description: '',
        discountPercent: 10,
        validFrom: null,
        validTo: null,
        usableOnce: false,
        minDays: null,
      },
    });
    expect(
      newDiscountFormSchema.safeParse({
        ...base,
        kind: 'amount',
        value: '2,5',
        minDays: '3',
        validTo: '2026-12-31',
      }),
    ).toMatchObject({
      data: { discountEuro: 2.5, minDays: 3, validTo: '2026-12-31' },
    });
  });
});

describe('admin display rules', () => {
  it("shows times in the location's zone as dd/MM/yyyy HH:mm, or 'Data non valida'", () => {
    expect(formatInZone('2026-03-29T00:30:00Z', 'Europe/Rome')).toBe('29/03/2026 01:30');
    expect(formatInZone('2026-03-29T01:30:00Z', 'Europe/Rome')).toBe('29/03/2026 03:30');
    expect(formatInZone('2026-03-29T01:30:00Z', 'Europe/London')).toBe('29/03/2026 02:30');
    expect(formatInZone('not a date', 'Europe/Rome')).toBe('Data non valida');
    expect(formatInZone(null, 'Europe/Rome')).toBe('Data non valida');
    expect(formatEuro(null)).toBe('n.d.');
    expect(formatEuro(12.5)).toBe('€ 12,50');
  });

  it('colours lockers and bookings as the spec says', () => {
    expect(
      ['available', 'occupied', 'inhibited', 'blocked', 'maintenance', 'unknown'].map(lockerTone),
    ).toEqual(['free', 'busy', 'inhibited', 'inhibited', 'inhibited', 'unknown']);
    expect(lockerLabel('occupied', true)).toBe('Occupato (online)');
    expect(statusIcon('expired')).toEqual({ icon: 'cross', tone: 'red' });
    expect(statusIcon('scheduled')).toEqual({ icon: 'clock', tone: 'yellow' });
    expect(statusIcon('cancelled').tone).toBe('grey');
  });

  it('groups booking rows by transaction, in order', () => {
    const row = (id: string, locker: number) => ({ TRANSACTION_ID: id, locker_id: locker }) as BookingRow;
    const groups = groupByTransaction([row('BOOKING-b', 1), row('BOOKING-a', 2), row('BOOKING-b', 3)]);
    expect(groups.map((g) => [g.transactionId, g.rows.map((r) => r.locker_id)])).toEqual([
      ['BOOKING-b', [1, 3]],
      ['BOOKING-a', [2]],
    ]);
  });

  it('reads pino lines as short process-log lines', () => {
    const line = JSON.stringify({
      level: 30,
      time: Date.parse('2026-03-27T08:00:00Z'),
      msg: 'request completed',
      req: { method: 'GET', url: '/api/admin/users', headers: {} },
      res: { statusCode: 200 },
      responseTime: 4,
    });
    expect(readableLogLine(line)).toMatch(
      /^27\/03 09:00:00 request completed GET \/api\/admin\/users → 200 4 ms/,
    );
    expect(readableLogLine('plain text')).toBe('plain text');
  });
});
