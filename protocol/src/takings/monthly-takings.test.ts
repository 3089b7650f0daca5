import fc from 'fast-check';
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { BOOKING_STATUSES } from '../booking/status';
import {
  computeMonthlyTakings,
  countsAsOnlineTakings,
  takingsBookingSchema,
  type MonthlyTakingsInput,
  type TakingsBooking,
} from './monthly-takings';

const roma = { key: 'roma', name: 'Roma Termini', zone: 'Europe/Rome' as const };
const campo = { key: 'campo', name: 'Campo London', zone: 'Europe/London' as const };

let sequence = 0;
function booking(overrides: Partial<TakingsBooking> & Pick<TakingsBooking, 'createdAt'>): TakingsBooking {
  sequence += 1;
  return {
    transactionId: `TX-${sequence.toString().padStart(4, '0')}`,
    locationKey: 'roma',
    status: 'confirmed',
    priceDiscountedCents: 1000,
    ...overrides,
  };
}

/** A month's report for these locations and rows, with no kiosk payments. */
function onlineOnlyTakings(
  month: string,
  locations: MonthlyTakingsInput['locations'],
  bookings: MonthlyTakingsInput['bookings'],
) {
  return computeMonthlyTakings({ month, locations, bookings, totem: {} });
}

function dayOf(report: ReturnType<typeof computeMonthlyTakings>, key: string, date: string) {
  return report.locations.find((location) => location.key === key)?.days.find((day) => day.date === date);
}

describe('computeMonthlyTakings', () => {
  it('places a booking on its creation day in the location zone, not in UTC', () => {
    const report = onlineOnlyTakings(
      '2026-07',
      [roma, campo],
      [
        // 23:30 UTC on 30 June is 01:30 on 1 July in Rome and 00:30 on 1 July in London.
        booking({ createdAt: '2026-06-30T23:30:00Z', priceDiscountedCents: 1250 }),
        booking({ createdAt: '2026-06-30T23:30:00Z', locationKey: 'campo', priceDiscountedCents: 700 }),
        // 22:30 UTC on 30 June is 00:30 on 1 July in Rome but still 30 June (23:30) in London.
        booking({ createdAt: '2026-06-30T22:30:00Z', priceDiscountedCents: 300 }),
        booking({ createdAt: '2026-06-30T22:30:00Z', locationKey: 'campo', priceDiscountedCents: 9999 }),
        // 22:30 UTC on 31 July is 1 August in Rome (out of July) but 31 July in London.
        booking({ createdAt: '2026-07-31T22:30:00Z', priceDiscountedCents: 8888 }),
        booking({ createdAt: '2026-07-31T22:30:00Z', locationKey: 'campo', priceDiscountedCents: 450 }),
      ],
    );

    expect(dayOf(report, 'roma', '2026-07-01')).toMatchObject({
      onlineCents: 1550,
      refundCents: 0,
      totemCents: 0,
      totalCents: 1550,
    });
    expect(report.locations[0].days.map((day) => day.date)).toEqual(['2026-07-01']);
    expect(report.locations[1].days.map((day) => [day.date, day.onlineCents])).toEqual([
      ['2026-07-01', 700],
      ['2026-07-31', 450],
    ]);
    expect(report.totals).toEqual({ onlineCents: 2700, refundCents: 0, totemCents: 0, totalCents: 2700 });
  });

  it("subtracts a refund on the day it was made, in the location's zone, and leaves the payment's day as it was", () => {
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations: [roma, campo],
      bookings: [
        // Paid on 30 June, refunded in July: June's takings keep it, July loses it.
        booking({
          transactionId: 'TX-JUNE',
          createdAt: '2026-06-30T10:00:00Z',
          status: 'refunded',
          paidThenRefunded: true,
        }),
        // Paid and refunded in July: counted on the 2nd, given back on the 5th.
        booking({
          transactionId: 'TX-JULY',
          createdAt: '2026-07-02T10:00:00Z',
          status: 'refunded',
          paidThenRefunded: true,
          priceDiscountedCents: 700,
        }),
        // Owed a refund not made yet: the money is still held.
        booking({
          transactionId: 'TX-OWED',
          createdAt: '2026-07-02T11:00:00Z',
          status: 'refund_due',
          paidThenRefunded: true,
          priceDiscountedCents: 300,
        }),
        // A refunded booking without the flag (never paid) counts nothing.
        booking({ createdAt: '2026-07-02T12:00:00Z', status: 'refunded', priceDiscountedCents: 9999 }),
      ],
      refunds: [
        // 22:30 UTC on 4 July is 00:30 on 5 July in Rome.
        {
          transactionId: 'TX-JUNE',
          locationKey: 'roma',
          refundedAt: '2026-07-04T22:30:00Z',
          amountCents: 1000,
        },
        {
          transactionId: 'TX-JULY',
          locationKey: 'roma',
          refundedAt: '2026-07-05T08:00:00Z',
          amountCents: 700,
        },
        // The same refund twice counts once; a location not asked for is ignored.
        {
          transactionId: 'TX-JULY',
          locationKey: 'roma',
          refundedAt: '2026-07-05T08:00:00Z',
          amountCents: 700,
        },
        {
          transactionId: 'TX-ELSEWHERE',
          locationKey: 'nowhere',
          refundedAt: '2026-07-05T08:00:00Z',
          amountCents: 5,
        },
      ],
      totem: {},
    });
    expect(dayOf(report, 'roma', '2026-07-02')).toMatchObject({
      onlineCents: 1000,
      refundCents: 0,
      totalCents: 1000,
    });
    expect(dayOf(report, 'roma', '2026-07-05')).toMatchObject({
      onlineCents: -1700,
      refundCents: 1700,
      totalCents: -1700,
    });
    expect(report.totals).toEqual({ onlineCents: -700, refundCents: 1700, totemCents: 0, totalCents: -700 });
    expect(report.daysWithTakings).toBe(2);
  });

  it('counts one transaction once however many locker rows it has, using the discounted price', () => {
    const rows = [1, 2, 3].map(() =>
      booking({
        transactionId: 'TX-MULTI-LOCKER',
        createdAt: '2026-07-10T09:00:00Z',
        priceDiscountedCents: 2400,
      }),
    );
    const report = onlineOnlyTakings('2026-07', [roma], rows);
    expect(report.locations[0].onlineCents).toBe(2400);
    expect(report.locations[0].days).toHaveLength(1);
  });

  it('counts only paid bookings the visitor keeps (confirmed, scheduled, confirmed late) as online takings', () => {
    // Every status but refunded, in the admin order (booking.test.ts pins it).
    const statuses = BOOKING_STATUSES.filter((status) => status !== 'refunded');
    const report = onlineOnlyTakings(
      '2026-07',
      [roma],
      statuses.map((status, i) =>
        booking({ status, createdAt: '2026-07-05T10:00:00Z', priceDiscountedCents: 100 * (i + 1) }),
      ),
    );
    // scheduled is the 2nd (200), confirmed the 3rd (300), confirmed_late the 6th (600).
    expect(report.locations[0].onlineCents).toBe(1100);
  });

  it('counts a paid booking an operator cancelled without a refund: the money was kept', () => {
    const report = onlineOnlyTakings(
      '2026-07',
      [roma],
      [
        {
          transactionId: 'TX-KEPT-1',
          status: 'cancelled_by_operator' as const,
          paidKept: true,
          priceDiscountedCents: 700,
        },
        { transactionId: 'TX-HOLD-1', status: 'cancelled_by_operator' as const, priceDiscountedCents: 900 },
        { transactionId: 'TX-BACK-1', status: 'refund_due' as const, priceDiscountedCents: 1100 },
      ].map((row) => booking({ ...row, createdAt: '2026-07-05T10:00:00Z' })),
    );
    expect(report.locations[0].onlineCents).toBe(700);
  });

  it("keeps operators' test bookings out of the amounts and counts those that would have counted apart", () => {
    const report = onlineOnlyTakings(
      '2026-07',
      [roma, campo],
      [
        booking({ createdAt: '2026-07-05T10:00:00Z', priceDiscountedCents: 1500 }),
        booking({ createdAt: '2026-07-05T11:00:00Z', priceDiscountedCents: 4000, isTest: true }),
        booking({
          createdAt: '2026-07-06T11:00:00Z',
          status: 'scheduled',
          priceDiscountedCents: 500,
          isTest: true,
        }),
        // Several lockers of one test transaction: once.
        booking({ transactionId: 'TX-TEST-2', createdAt: '2026-07-07T10:00:00Z', isTest: true }),
        booking({ transactionId: 'TX-TEST-2', createdAt: '2026-07-07T10:00:00Z', isTest: true }),
        // Would not have counted: neither in the amounts nor apart.
        booking({
          createdAt: '2026-07-05T12:00:00Z',
          status: 'pending',
          priceDiscountedCents: 700,
          isTest: true,
        }),
        booking({
          createdAt: '2026-07-05T12:00:00Z',
          status: 'refund_due',
          priceDiscountedCents: 700,
          isTest: true,
        }),
        // 22:30 UTC on 31 July: August in Rome, still July in London.
        booking({ createdAt: '2026-07-31T22:30:00Z', priceDiscountedCents: 333, isTest: true }),
        booking({
          createdAt: '2026-07-31T22:30:00Z',
          locationKey: 'campo',
          priceDiscountedCents: 222,
          isTest: true,
        }),
      ],
    );
    const [romaTakings, campoTakings] = report.locations;
    expect(romaTakings).toMatchObject({ onlineCents: 1500, totalCents: 1500, daysWithTakings: 1 });
    expect(romaTakings.testBookings).toEqual({ count: 3, cents: 5500 });
    expect(campoTakings).toMatchObject({ onlineCents: 0, daysWithTakings: 0 });
    expect(campoTakings.testBookings).toEqual({ count: 1, cents: 222 });
    expect(report.totals).toEqual({ onlineCents: 1500, refundCents: 0, totemCents: 0, totalCents: 1500 });
    expect(report.testBookings).toEqual({ count: 4, cents: 5722 });
    expect(report.activeLocations).toBe(1);
  });

  it('marks the locations whose kiosk could not be read, with the reason, in the locations order', () => {
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations: [roma, campo],
      bookings: [booking({ createdAt: '2026-07-05T10:00:00Z' })],
      totem: { roma: [{ date: '2026-07-05T10:00:00Z', amountCents: 300 }] },
      totemMissing: { campo: 'nessuna risposta da 10.0.0.2:11000 entro 30000 ms', nowhere: 'ignored' },
    });
    expect(report.locations.map((location) => location.totemMissing)).toEqual([
      null,
      { reason: 'nessuna risposta da 10.0.0.2:11000 entro 30000 ms' },
    ]);
    expect(report.totemMissing).toEqual([
      { key: 'campo', name: 'Campo London', reason: 'nessuna risposta da 10.0.0.2:11000 entro 30000 ms' },
    ]);
    expect(report.testBookings).toEqual({ count: 0, cents: 0 });
    expect(() =>
      computeMonthlyTakings({
        month: '2026-07',
        locations: [roma],
        bookings: [],
        totemMissing: { roma: '' },
      }),
    ).toThrow();
  });

  it('does not let an excluded row hide a counted row of the same transaction', () => {
    const report = onlineOnlyTakings(
      '2026-07',
      [roma],
      [
        booking({ transactionId: 'TX-MIXED-1', status: 'expired', createdAt: '2026-07-05T10:00:00Z' }),
        booking({ transactionId: 'TX-MIXED-1', status: 'confirmed', createdAt: '2026-07-05T10:00:00Z' }),
      ],
    );
    expect(report.locations[0].onlineCents).toBe(1000);
  });

  it('adds totem payments by their day in the location zone, including days with no online booking', () => {
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations: [roma, campo],
      bookings: [booking({ createdAt: '2026-07-02T08:00:00Z', priceDiscountedCents: 1500 })],
      totem: {
        roma: [
          { date: '2026-07-02T09:00:00+02:00', amountCents: 500 },
          { date: '2026-07-02T21:59:00Z', amountCents: 250 }, // 23:59 in Rome, same day
          { date: '2026-07-02T22:01:00Z', amountCents: 750 }, // 00:01 on 3 July in Rome
          { date: '2026-06-30T23:59:00+02:00', amountCents: 12345 }, // June: ignored
        ],
        campo: [
          { date: '2026-07-01T00:15:00+01:00', amountCents: 600 },
          { date: '2026-06-30T23:45:00+01:00', amountCents: 9999 }, // June in London
        ],
        unknown: [{ date: '2026-07-01T10:00:00Z', amountCents: 100 }],
      },
    });

    expect(dayOf(report, 'roma', '2026-07-02')).toEqual({
      date: '2026-07-02',
      label: '02/07/2026',
      weekday: 'Giovedì',
      onlineCents: 1500,
      refundCents: 0,
      totemCents: 750,
      totalCents: 2250,
    });
    expect(dayOf(report, 'roma', '2026-07-03')).toMatchObject({
      onlineCents: 0,
      refundCents: 0,
      totemCents: 750,
      totalCents: 750,
    });
    expect(dayOf(report, 'campo', '2026-07-01')).toMatchObject({
      onlineCents: 0,
      refundCents: 0,
      totemCents: 600,
      totalCents: 600,
    });
    expect(report.totals).toEqual({ onlineCents: 1500, refundCents: 0, totemCents: 2100, totalCents: 3600 });
  });

  it('keeps the day right across the spring and autumn DST changes in Rome and London', () => {
    const march = onlineOnlyTakings(
      '2026-03',
      [roma, campo],
      [
        booking({ createdAt: '2026-03-28T23:00:00Z', priceDiscountedCents: 100 }), // 29/03 00:00 (UTC+1)
        booking({ createdAt: '2026-03-29T21:59:00Z', priceDiscountedCents: 200 }), // 29/03 23:59 (UTC+2)
        booking({ createdAt: '2026-03-29T22:00:00Z', priceDiscountedCents: 400 }), // 30/03 00:00 (UTC+2)
        booking({ createdAt: '2026-03-29T23:30:00Z', locationKey: 'campo', priceDiscountedCents: 800 }), // 30/03 00:30 BST
        booking({ createdAt: '2026-03-29T00:30:00Z', locationKey: 'campo', priceDiscountedCents: 1600 }), // 29/03 00:30 GMT
      ],
    );
    expect(march.locations[0].days.map((day) => [day.date, day.onlineCents])).toEqual([
      ['2026-03-29', 300],
      ['2026-03-30', 400],
    ]);
    expect(march.locations[1].days.map((day) => [day.date, day.onlineCents])).toEqual([
      ['2026-03-29', 1600],
      ['2026-03-30', 800],
    ]);

    const october = computeMonthlyTakings({
      month: '2026-10',
      locations: [roma, campo],
      bookings: [
        booking({ createdAt: '2026-10-24T22:30:00Z', priceDiscountedCents: 100 }), // 25/10 00:30 (UTC+2)
        booking({ createdAt: '2026-10-25T22:30:00Z', priceDiscountedCents: 200 }), // 25/10 23:30 (UTC+1)
        booking({ createdAt: '2026-10-25T23:00:00Z', priceDiscountedCents: 400 }), // 26/10 00:00 (UTC+1)
        booking({ createdAt: '2026-10-25T23:30:00Z', locationKey: 'campo', priceDiscountedCents: 800 }), // 25/10 23:30 GMT
        booking({ createdAt: '2026-10-31T23:30:00Z', locationKey: 'campo', priceDiscountedCents: 1600 }), // 31/10 23:30 GMT
      ],
      totem: { roma: [{ date: '2026-10-25T02:30:00+01:00', amountCents: 50 }] }, // the repeated hour
    });
    expect(october.locations[0].days.map((day) => [day.date, day.onlineCents, day.totemCents])).toEqual([
      ['2026-10-25', 300, 50],
      ['2026-10-26', 400, 0],
    ]);
    expect(october.locations[1].days.map((day) => [day.date, day.onlineCents])).toEqual([
      ['2026-10-25', 800],
      ['2026-10-31', 1600],
    ]);
  });

  it('gives per-location days, latest day, grand totals, distinct days and active locations', () => {
    const florence = { key: 'firenze', name: 'Firenze SMN' };
    const report = computeMonthlyTakings({
      month: '2026-07',
      locations: [roma, campo, florence],
      bookings: [
        booking({ createdAt: '2026-07-03T10:00:00Z', priceDiscountedCents: 1000 }),
        booking({ createdAt: '2026-07-20T10:00:00Z', priceDiscountedCents: 2000 }),
        booking({ createdAt: '2026-07-03T10:00:00Z', locationKey: 'campo', priceDiscountedCents: 500 }),
        booking({ createdAt: '2026-07-04T10:00:00Z', priceDiscountedCents: null }), // "n.d." takes nothing
      ],
      totem: { roma: [{ date: '2026-07-25T12:00:00+02:00', amountCents: 300 }] },
    });

    const [rome, london, firenze] = report.locations;
    expect(rome).toMatchObject({
      key: 'roma',
      name: 'Roma Termini',
      zone: 'Europe/Rome',
      onlineCents: 3000,
      refundCents: 0,
      totemCents: 300,
      totalCents: 3300,
      daysWithTakings: 3,
    });
    expect(rome.latest).toMatchObject({ date: '2026-07-25', label: '25/07/2026', weekday: 'Sabato' });
    expect(london).toMatchObject({ daysWithTakings: 1, totalCents: 500 });
    // A location without a zone is in Europe/Rome (spec default) and still listed with nothing taken.
    expect(firenze).toMatchObject({
      zone: 'Europe/Rome',
      days: [],
      daysWithTakings: 0,
      latest: null,
      totalCents: 0,
    });
    expect(report.totals).toEqual({ onlineCents: 3500, refundCents: 0, totemCents: 300, totalCents: 3800 });
    expect(report.daysWithTakings).toBe(3); // 03/07 counted once though both locations took money
    expect(report.activeLocations).toBe(2);
    expect(report.month).toBe('2026-07');
  });

  it('rejects instants without an offset and months that are not yyyy-MM', () => {
    expect(() =>
      computeMonthlyTakings({
        month: '2026-07',
        locations: [roma],
        bookings: [booking({ createdAt: '2026-07-03 10:00:00' })],
      }),
    ).toThrow();
    expect(() => computeMonthlyTakings({ month: '2026-7', locations: [roma], bookings: [] })).toThrow();
  });

  it('accepts exactly the rows the booking schema accepts', () => {
    const valid = [
      booking({ createdAt: '2026-07-03T10:00:00Z' }),
      booking({ createdAt: '2026-07-03T10:00:00.123+02:00', priceDiscountedCents: null }),
      booking({ createdAt: '2026-07-03T10:00:00-05:30', transactionId: 'a_b-C9', status: 'scheduled' }),
      booking({ createdAt: '2026-07-03T10:00:00Z', locationKey: 'elsewhere', priceDiscountedCents: 0 }),
      booking({ createdAt: '2026-07-03T10:00:00Z', isTest: true, paidKept: false }),
    ];
    const invalid: unknown[] = [
      null,
      'row',
      { ...valid[0], transactionId: 'TX-01' },
      { ...valid[0], transactionId: 'T'.repeat(81) },
      { ...valid[0], transactionId: 'TX 0001' },
      { ...valid[0], locationKey: 'Roma' },
      { ...valid[0], locationKey: 'all' },
      { ...valid[0], status: 'paid' },
      { ...valid[0], createdAt: '2026-02-30T10:00:00Z' },
      { ...valid[0], createdAt: '2026-07-03T24:00:00Z' },
      { ...valid[0], createdAt: '2026-07-03T10:00:00+24:00' },
      { ...valid[0], createdAt: '2026-07-03T10:00Z' },
      { ...valid[0], priceDiscountedCents: -1 },
      { ...valid[0], priceDiscountedCents: 10.5 },
      { ...valid[0], priceDiscountedCents: 10_000_001 },
      { ...valid[0], priceDiscountedCents: Number.NaN },
      { ...valid[0], priceDiscountedCents: '1000' },
      { ...valid[0], priceDiscountedCents: undefined },
      { ...valid[0], isTest: 'yes' },
      { ...valid[0], isTest: 1 },
      { ...valid[0], paidKept: 'true' },
    ];
    const month = (bookings: unknown[]) => () =>
      computeMonthlyTakings({ month: '2026-07', locations: [roma], bookings: bookings as TakingsBooking[] });
    expect(month(valid)).not.toThrow();
    for (const row of invalid) {
      // The schema is the judge; each row must fail there and in the computation alike.
      expect(takingsBookingSchema.safeParse(row).success).toBe(false);
      expect(month([...valid, row])).toThrow();
    }
  });

  it('agrees with a plain reading of the rules on random months: first row of a transaction, its local day', () => {
    // Few ids, so a transaction comes back in other rows, at other locations and in other statuses;
    // instants around the month's edges, in UTC and with offsets, in both zones.
    const id = fc
      .tuple(
        fc.constantFrom('TX-', 'AB_', 'zz-9'),
        fc.integer({ min: 0, max: 20 }),
        fc.constantFrom('', '00', '-x'),
      )
      .map(([head, n, tail]) => `${head}${String(n).padStart(3, '0')}${tail}`);
    const instant = fc
      .tuple(
        fc.integer({ min: Date.UTC(2026, 5, 30, 18), max: Date.UTC(2026, 7, 1, 4) }),
        fc.constantFrom('Z', '+02:00', '-05:30'),
      )
      .map(([ms, offset]) => {
        const local = DateTime.fromMillis(ms, { zone: offset === 'Z' ? 'utc' : `UTC${offset}` });
        return local
          .toISO({ suppressMilliseconds: ms % 2 === 0, includeOffset: true })!
          .replace(/\+00:00$/, 'Z');
      });
    const row = fc.record({
      transactionId: id,
      locationKey: fc.constantFrom('roma', 'campo', 'elsewhere'),
      status: fc.constantFrom(...BOOKING_STATUSES),
      createdAt: instant,
      priceDiscountedCents: fc.option(fc.integer({ min: 0, max: 5000 })),
      paidKept: fc.boolean(),
      paidThenRefunded: fc.boolean(),
      isTest: fc.boolean(),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 150, size: 'max' }), (rows) => {
        const report = onlineOnlyTakings('2026-07', [roma, campo], rows);
        // The reference: every row in order, a set of the transactions counted, luxon for the day.
        const zones = new Map([roma, campo].map((location) => [location.key, location.zone]));
        const days = new Map<string, number>();
        const tests = new Map<string, { count: number; cents: number }>();
        const counted = new Set<string>();
        for (const booking of rows) {
          const zone = zones.get(booking.locationKey);
          if (!countsAsOnlineTakings(booking) || !zone || counted.has(booking.transactionId)) continue;
          counted.add(booking.transactionId);
          const date = DateTime.fromISO(booking.createdAt, { setZone: true }).setZone(zone).toISODate()!;
          if (!date.startsWith('2026-07-')) continue;
          const cents = booking.priceDiscountedCents ?? 0;
          if (booking.isTest) {
            const test = tests.get(booking.locationKey) ?? { count: 0, cents: 0 };
            tests.set(booking.locationKey, { count: test.count + 1, cents: test.cents + cents });
          } else {
            const key = `${booking.locationKey} ${date}`;
            days.set(key, (days.get(key) ?? 0) + cents);
          }
        }
        const reported = report.locations.flatMap((location) =>
          location.days.map((day) => [`${location.key} ${day.date}`, day.onlineCents] as const),
        );
        expect(new Map(reported)).toEqual(new Map([...days].filter(([, cents]) => cents > 0)));
        for (const location of report.locations)
          expect(location.testBookings).toEqual(tests.get(location.key) ?? { count: 0, cents: 0 });
      }),
      { numRuns: 300 },
    );
  });
});
