import { describe, expect, it } from 'vitest';
import { computeMonthlyTakings } from './monthly-takings';
import { toTotemRevenueRecord } from './totem-proceed';
import {
  monthlyTakingsFromData,
  normaliseTakingsData,
  takingsCaveatsFromReport,
  takingsDataFromReport,
  takingsDataSchema,
} from './takings-data';

/** A month's report over a Rome and a London location, with one Rome booking paid online. */
const LOCATIONS = [
  { key: 'roma', name: 'Roma', zone: 'Europe/Rome' as const },
  { key: 'campo', name: 'Campo', zone: 'Europe/London' as const },
];
const ROMA_BOOKING = {
  transactionId: 'TX-000001',
  locationKey: 'roma',
  status: 'confirmed' as const,
  createdAt: '2026-07-03T10:00:00Z',
  priceDiscountedCents: 1999,
};

describe('takings data (the spec shape)', () => {
  it('normalises plain numbers and splits to integer cents, total defaulting to online + totem', () => {
    expect(
      normaliseTakingsData({
        roma: {
          '01/07/2026': 12.5,
          '02/07/2026': { online: 10.1, totem: 0.2 },
          '03/07/2026': { online: 1, totem: 2, total: 3.5 },
        },
      }),
    ).toEqual({
      roma: {
        '2026-07-01': { onlineCents: 1250, refundCents: 0, totemCents: 0, totalCents: 1250 },
        '2026-07-02': { onlineCents: 1010, refundCents: 0, totemCents: 20, totalCents: 1030 },
        '2026-07-03': { onlineCents: 100, refundCents: 0, totemCents: 200, totalCents: 350 },
      },
    });
  });

  it('rejects days that are not real dd/MM/yyyy dates and negative or sub-cent amounts', () => {
    expect(takingsDataSchema.safeParse({ roma: { '2026-07-01': 1 } }).success).toBe(false);
    expect(takingsDataSchema.safeParse({ roma: { '31/06/2026': 1 } }).success).toBe(false);
    expect(takingsDataSchema.safeParse({ roma: { '01/07/2026': -1 } }).success).toBe(false);
    expect(takingsDataSchema.safeParse({ roma: { '01/07/2026': 1.234 } }).success).toBe(false);
    expect(takingsDataSchema.safeParse({ Roma: { '01/07/2026': 1 } }).success).toBe(false);
  });

  it('turns a computed report into the data shape and back to the same report', () => {
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations: LOCATIONS,
      bookings: [ROMA_BOOKING],
      totem: { campo: [{ date: '2026-07-04T10:00:00+01:00', amountCents: 101 }] },
    });
    const data = takingsDataFromReport(report);
    expect(data).toEqual({
      roma: { '03/07/2026': { online: 19.99, totem: 0, total: 19.99 } },
      campo: { '04/07/2026': { online: 0, totem: 1.01, total: 1.01 } },
    });
    expect(takingsDataSchema.parse(data)).toEqual(data);
    expect(monthlyTakingsFromData({ month: '2026-07', locations: LOCATIONS, data })).toEqual(report);
  });

  it('carries the missing kiosks and the test bookings beside the data and back into the same report', () => {
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations: LOCATIONS,
      bookings: [
        ROMA_BOOKING,
        {
          transactionId: 'TX-000002',
          locationKey: 'roma',
          status: 'confirmed',
          createdAt: '2026-07-03T11:00:00Z',
          priceDiscountedCents: 4050,
          isTest: true,
        },
      ],
      totem: {},
      totemMissing: { campo: '10.0.0.2:11000 ha risposto HTTP 500' },
    });
    const caveats = takingsCaveatsFromReport(report);
    expect(caveats).toEqual({
      totemMissing: [{ location: 'campo', reason: '10.0.0.2:11000 ha risposto HTTP 500' }],
      testBookings: { roma: { count: 1, amount: 40.5 } },
    });
    const data = takingsDataFromReport(report);
    expect(monthlyTakingsFromData({ month: '2026-07', locations: LOCATIONS, data, caveats })).toEqual(report);
    // An older answer without them: nothing missing, nothing kept out.
    const plain = monthlyTakingsFromData({ month: '2026-07', locations: LOCATIONS, data });
    expect(plain.totemMissing).toEqual([]);
    expect(plain.testBookings).toEqual({ count: 0, cents: 0 });
    // A location named only there is still shown, by its key.
    const unlisted = monthlyTakingsFromData({
      month: '2026-07',
      locations: [],
      data: {},
      caveats: { totemMissing: [{ location: 'oca', reason: 'x' }] },
    });
    expect(unlisted.totemMissing).toEqual([{ key: 'oca', name: 'oca', reason: 'x' }]);
  });

  it('builds a report from data, keeping only the month and naming unlisted locations by key', () => {
    const report = monthlyTakingsFromData({
      month: '2026-07',
      locations: [{ key: 'roma', name: 'Roma' }],
      data: {
        roma: { '30/06/2026': 99, '15/07/2026': { online: 5, totem: 5 } },
        oca: { '16/07/2026': 7 },
      },
    });
    expect(report.locations.map((location) => [location.key, location.name, location.totalCents])).toEqual([
      ['roma', 'Roma', 1000],
      ['oca', 'oca', 700],
    ]);
    expect(report.totals).toEqual({ onlineCents: 1200, refundCents: 0, totemCents: 500, totalCents: 1700 });
    expect(report.daysWithTakings).toBe(2);
  });
});

describe('toTotemRevenueRecord', () => {
  it('gives a kiosk payment in the spec record shape, euros', () => {
    expect(
      toTotemRevenueRecord({
        type: 'supplement',
        date: '2026-07-03T10:00:00+02:00',
        amountCents: 1250,
        lockerId: 4,
        billNo: 'R-000123',
        discountCents: 50,
      }),
    ).toEqual({
      date: '2026-07-03T10:00:00+02:00',
      amount: 12.5,
      locker: 4,
      billNo: 'R-000123',
      discount: 0.5,
    });
  });
});
