import { DateTime } from 'luxon';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toTotemRevenueRecord, type BookingStatus } from '@deposito/protocol';
import { buildBooking, newTransactionId, seedLocation } from '../../test/builders';
import { createTestDatabase, STORE_DIALECTS, type TestDatabase } from '../../test/test-store';
import { ManualClock } from '../clock';
import type { Store } from '../store/store';
import { PromotecClient, PromotecTakings } from '../takings/promotec-client';
import { PromotecSimulator, simulatedProceeds } from '../takings/promotec-simulator';
import { TakingsService } from './takings.service';

// Three locations in two zones, each with its own simulated kiosk system over real HTTP.
const SITES = [
  { key: 'roma', name: 'Roma Termini', zone: 'Europe/Rome' },
  { key: 'campo', name: 'Campo London', zone: 'Europe/London' },
  { key: 'firenze', name: 'Firenze SMN', zone: 'Europe/Rome' },
] as const;
type SiteKey = (typeof SITES)[number]['key'];

/** 5 August 2026: July is over everywhere. */
const AFTER_JULY = '2026-08-05T10:00:00Z';

/** Totem cents per local day, as the simulator takes them. */
function totemByDay(key: SiteKey, zone: string, month: string, until?: Date): Map<string, number> {
  const days = new Map<string, number>();
  for (const payment of simulatedProceeds(key, zone, month, until)) {
    const day = DateTime.fromISO(payment.date, { setZone: true }).setZone(zone).toISODate()!;
    days.set(day, (days.get(day) ?? 0) + payment.amountCents);
  }
  return days;
}

describe.each(STORE_DIALECTS)('TakingsService on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let clock: ManualClock;
  const kiosks = new Map<SiteKey, PromotecSimulator>();

  async function book(
    locationKey: SiteKey,
    createdAt: string,
    priceDiscountedCents: number,
    status: BookingStatus = 'confirmed',
    quantity = 1,
  ): Promise<string> {
    const at = new Date(createdAt);
    const transactionId = newTransactionId();
    const result = await store.bookings.reserveLockers({
      booking: buildBooking({
        transactionId,
        locationKey,
        status,
        quantity,
        startAt: at,
        endAt: new Date(at.getTime() + 3_600_000),
        priceOriginalCents: priceDiscountedCents + 300,
        priceDiscountedCents,
        totalCents: priceDiscountedCents + 50,
        expiresAt: status === 'pending' ? new Date(at.getTime() + 15 * 60_000) : null,
      }),
      maxOnline: 100,
      now: at,
    });
    if (!result.ok) throw new Error(`booking not stored: ${result.reason}`);
    return transactionId;
  }

  /** The service over the kiosks, asking each for at most `kioskTimeoutMs`. */
  function service(runningMonthTtlMs?: number, kioskTimeoutMs = 2_000): TakingsService {
    return new TakingsService({
      store,
      clock,
      runningMonthTtlMs,
      promotec: new PromotecTakings({
        client: new PromotecClient({ timeoutMs: kioskTimeoutMs }),
        errorLog: store.errorLog,
        now: () => clock.now(),
      }),
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await database.open();
    clock = new ManualClock(AFTER_JULY);
    for (const site of SITES) {
      const kiosk = await PromotecSimulator.start({
        locationKey: site.key,
        zone: site.zone,
        now: () => clock.now(),
      });
      kiosks.set(site.key, kiosk);
      await seedLocation(store, {
        location: {
          key: site.key,
          name: site.name,
          zone: site.zone,
          controller: { ...kiosk.address, key: site.key, mastercode: '1234', endpoint: '/' },
        },
        standard: 6,
        large: 2,
      });
    }

    // Roma: counted once per transaction, discounted price, paid bookings kept only.
    await book('roma', '2026-07-10T08:00:00Z', 1500);
    await book('roma', '2026-07-10T12:00:00Z', 2000, 'scheduled', 2);
    for (const status of ['pending', 'expired', 'cancelled', 'refund_due', 'failed_after_payment'] as const) {
      await book('roma', '2026-07-10T13:00:00Z', 9_000, status);
    }
    // 23:30 UTC on 14 July is 01:30 on 15 July in Rome.
    await book('roma', '2026-07-14T23:30:00Z', 1000);
    // 23:30 UTC on 30 June is already 1 July in Rome; 22:30 UTC on 31 July already August.
    await book('roma', '2026-06-30T23:30:00Z', 700);
    await book('roma', '2026-07-31T22:30:00Z', 8_800);
    // London: 22:30 UTC on 31 July is still 31 July there, 23:30 UTC on 30 June is 1 July.
    await book('campo', '2026-07-31T22:30:00Z', 450);
    await book('campo', '2026-06-30T23:30:00Z', 600);
    // Firenze: a different month only.
    await book('firenze', '2026-06-15T10:00:00Z', 1200);
  });

  afterAll(async () => {
    await Promise.all([...kiosks.values()].map((kiosk) => kiosk.close()));
    await store?.close();
    await database?.dispose();
  });

  beforeEach(() => {
    clock.set(AFTER_JULY);
    for (const kiosk of kiosks.values()) {
      kiosk.failWith(null);
      kiosk.requestedMonths.length = 0;
    }
  });

  it('sums online takings by creation day in each zone and adds every kiosk', async () => {
    const report = await service().monthlyTakings({ month: '2026-07', location: 'all' });
    const online = (key: SiteKey) =>
      report.locations
        .find((location) => location.key === key)!
        .days.filter((day) => day.onlineCents > 0)
        .map((day) => [day.date, day.onlineCents]);

    expect(report.locations.map((location) => location.key)).toEqual(['campo', 'firenze', 'roma']);
    expect(online('roma')).toEqual([
      ['2026-07-01', 700],
      ['2026-07-10', 3500],
      ['2026-07-15', 1000],
    ]);
    expect(online('campo')).toEqual([
      ['2026-07-01', 600],
      ['2026-07-31', 450],
    ]);
    expect(online('firenze')).toEqual([]);

    for (const site of SITES) {
      const expected = totemByDay(site.key, site.zone, '2026-07');
      const location = report.locations.find((l) => l.key === site.key)!;
      expect(
        location.days.filter((day) => day.totemCents > 0).map((day) => [day.date, day.totemCents]),
      ).toEqual([...expected].sort(([a], [b]) => a.localeCompare(b)));
      const fifteenth = location.days.find((day) => day.date === '2026-07-15');
      if (site.key === 'roma') {
        expect(fifteenth).toMatchObject({
          weekday: 'Mercoledì',
          label: '15/07/2026',
          onlineCents: 1000,
          refundCents: 0,
          totemCents: expected.get('2026-07-15') ?? 0,
          totalCents: 1000 + (expected.get('2026-07-15') ?? 0),
        });
      }
    }
    const totemCents = SITES.reduce(
      (sum, site) =>
        sum + [...totemByDay(site.key, site.zone, '2026-07').values()].reduce((a, b) => a + b, 0),
      0,
    );
    expect(report.totals).toEqual({
      onlineCents: 5200 + 1050,
      refundCents: 0,
      totemCents,
      totalCents: 6250 + totemCents,
    });
    expect(report.activeLocations).toBe(3);
  });

  it('gives one location its own report', async () => {
    const report = await service().monthlyTakings({ month: '2026-07', location: 'campo' });
    expect(report.locations.map((location) => location.key)).toEqual(['campo']);
    expect(report.totals.onlineCents).toBe(1050);
    expect(kiosks.get('campo')!.requestedMonths).toEqual(['2026-07']);
    expect(kiosks.get('roma')!.requestedMonths).toEqual([]);
    await expect(service().monthlyTakings({ month: '2026-07', location: 'nowhere' })).rejects.toMatchObject({
      code: 'location/not_found',
    });
  });

  it('keeps a finished month until a forced reload', async () => {
    const takings = service();
    const first = await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    expect(kiosks.get('roma')!.requestedMonths).toEqual(['2026-07']);

    clock.set('2026-12-01T00:00:00Z');
    await book('roma', '2026-07-20T09:00:00Z', 4_000);
    const second = await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    expect(second).toEqual(first);
    for (const kiosk of kiosks.values()) expect(kiosk.requestedMonths).toEqual(['2026-07']);

    const reloaded = await takings.monthlyTakings({ month: '2026-07', location: 'all', reload: true });
    for (const kiosk of kiosks.values()) expect(kiosk.requestedMonths).toEqual(['2026-07', '2026-07']);
    expect(reloaded.totals.onlineCents).toBe(first.totals.onlineCents + 4_000);
    // The reloaded figures are the ones kept from now on.
    expect(await takings.monthlyTakings({ month: '2026-07', location: 'all' })).toEqual(reloaded);
    expect(kiosks.get('roma')!.requestedMonths).toHaveLength(2);
  });

  it('keeps the running month only briefly, and answers concurrent callers with one read', async () => {
    clock.set('2026-08-20T10:00:00Z');
    const takings = service(60_000);
    const [a, b] = await Promise.all([
      takings.monthlyTakings({ month: '2026-08', location: 'roma' }),
      takings.monthlyTakings({ month: '2026-08', location: 'roma' }),
    ]);
    expect(b).toBe(a);
    const roma = kiosks.get('roma')!;
    expect(roma.requestedMonths).toEqual(['2026-08']);
    // Payments so far only: the kiosk has not taken the rest of the month yet.
    expect(a.totals.totemCents).toBe(
      [...totemByDay('roma', 'Europe/Rome', '2026-08', clock.now()).values()].reduce((x, y) => x + y, 0),
    );

    clock.advanceMinutes(0.5);
    await takings.monthlyTakings({ month: '2026-08', location: 'roma' });
    expect(roma.requestedMonths).toHaveLength(1);

    clock.advanceMinutes(0.6);
    const later = await takings.monthlyTakings({ month: '2026-08', location: 'roma' });
    expect(roma.requestedMonths).toEqual(['2026-08', '2026-08']);
    expect(later.totals.totemCents).toBeGreaterThanOrEqual(a.totals.totemCents);
  });

  it('treats a month as running until it is over in the latest zone', async () => {
    // 22:30 UTC on 31 July: August in Rome, still July in London.
    clock.set('2026-07-31T22:30:00Z');
    const takings = service(60_000);
    await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    clock.set('2026-08-02T00:00:00Z');
    await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    expect(kiosks.get('campo')!.requestedMonths).toEqual(['2026-07', '2026-07']);
    clock.set('2026-09-01T00:00:00Z');
    await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    expect(kiosks.get('campo')!.requestedMonths).toHaveLength(2);
  });

  it('shows the online figures of a location whose kiosk fails, logs it, and tries again soon', async () => {
    kiosks.get('campo')!.failWith('http-500');
    const takings = service(60_000);
    const report = await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    const campo = report.locations.find((location) => location.key === 'campo')!;
    expect(campo).toMatchObject({
      onlineCents: 1050,
      refundCents: 0,
      totemCents: 0,
      totalCents: 1050,
      daysWithTakings: 2,
    });
    expect(report.locations.find((location) => location.key === 'roma')!.totemCents).toBeGreaterThan(0);
    // Said, not silent: campo's total lacks its kiosk, and why.
    const reason = `127.0.0.1:${kiosks.get('campo')!.port} ha risposto HTTP 500`;
    expect(campo.totemMissing).toEqual({ reason });
    expect(report.totemMissing).toEqual([{ key: 'campo', name: 'Campo London', reason }]);
    expect(report.locations.find((location) => location.key === 'roma')!.totemMissing).toBeNull();

    const logged = (await store.errorLog.recent(5)).find(
      (entry) => entry.locationKey === 'campo' && entry.at.getTime() === clock.now().getTime(),
    );
    expect(logged).toMatchObject({
      type: 'promotec',
      lockerId: null,
      message: `Impossibile contattare il sistema Promotec: 127.0.0.1:${kiosks.get('campo')!.port} ha risposto HTTP 500`,
    });

    // An incomplete past month is not kept until a reload: once the kiosk is back, it shows.
    kiosks.get('campo')!.failWith(null);
    await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    expect(kiosks.get('campo')!.requestedMonths).toHaveLength(1);
    clock.advanceMinutes(2);
    const repaired = await takings.monthlyTakings({ month: '2026-07', location: 'all' });
    expect(repaired.locations.find((location) => location.key === 'campo')!.totemCents).toBeGreaterThan(0);
    expect(repaired.totemMissing).toEqual([]);
  });

  it("answers a location's kiosk payments as records in euros, and [] with a log entry on failure", async () => {
    const takings = service();
    const records = await takings.totemProceeds('campo', '2026-07');
    const expected = simulatedProceeds('campo', 'Europe/London', '2026-07');
    expect(records).toEqual(expected.map(toTotemRevenueRecord));
    const [first] = expected;
    expect(records[0]).toMatchObject({
      amount: first.amountCents / 100,
      discount: first.discountCents / 100,
    });

    clock.set('2026-08-06T08:00:00Z');
    kiosks.get('firenze')!.failWith('malformed-xml');
    expect(await takings.totemProceeds('firenze', '2026-07')).toEqual([]);
    const [latest] = await store.errorLog.recent(1);
    expect(latest).toMatchObject({ locationKey: 'firenze', type: 'promotec', at: clock.now() });
    expect(latest.message).toMatch(/^Impossibile contattare il sistema Promotec: risposta non valida da /);
    await expect(takings.totemProceeds('nowhere', '2026-07')).rejects.toMatchObject({
      code: 'location/not_found',
    });
  });

  it('tests every connection in turn with its name and address', async () => {
    kiosks.get('firenze')!.failWith('http-500');
    const results = await service().testConnections();
    expect(results).toEqual([
      { key: 'campo', name: 'Campo London', ...kiosks.get('campo')!.address, success: true },
      {
        key: 'firenze',
        name: 'Firenze SMN',
        ...kiosks.get('firenze')!.address,
        success: false,
        error: `127.0.0.1:${kiosks.get('firenze')!.port} ha risposto HTTP 500`,
      },
      { key: 'roma', name: 'Roma Termini', ...kiosks.get('roma')!.address, success: true },
    ]);
    expect(await service().testConnections('roma')).toHaveLength(1);
  });

  it('reports a kiosk that does not answer in time as missing, with the reason', async () => {
    kiosks.get('firenze')!.failWith('hang');
    const takings = service(undefined, 300);
    const report = await takings.monthlyTakings({ month: '2026-07', location: 'firenze' });
    const reason = `nessuna risposta da 127.0.0.1:${kiosks.get('firenze')!.port} entro 300 ms`;
    expect(report.locations[0]).toMatchObject({ totemCents: 0, totemMissing: { reason } });
    expect(report.totemMissing).toEqual([{ key: 'firenze', name: 'Firenze SMN', reason }]);
  });

  it('reports a location with no kiosk address as missing its totem, not as a month without one', async () => {
    const firenze = (await store.locations.get('firenze'))!;
    await store.locations.save(
      { ...firenze, controller: { ...firenze.controller, recipient: null } },
      clock.now(),
    );
    try {
      const report = await service().monthlyTakings({ month: '2026-07', location: 'all' });
      expect(report.totemMissing).toEqual([
        { key: 'firenze', name: 'Firenze SMN', reason: 'indirizzo del sistema Promotec non configurato' },
      ]);
      expect(kiosks.get('firenze')!.requestedMonths).toEqual([]);
    } finally {
      await store.locations.save(firenze, clock.now());
    }
  });

  it("keeps operators' test bookings out of the online takings and counts them apart", async () => {
    const takings = service();
    const before = await takings.monthlyTakings({ month: '2026-07', location: 'all', reload: true });
    const roma = (report: typeof before) => report.locations.find((location) => location.key === 'roma')!;
    expect(roma(before).testBookings).toEqual({ count: 0, cents: 0 });

    // 23:30 UTC on 30 June is 1 July in Rome: a July test booking; 22:30 UTC on 31 July is August.
    const tests: Array<[string, number, BookingStatus]> = [
      ['2026-06-30T23:30:00Z', 2_500, 'confirmed'],
      ['2026-07-12T10:00:00Z', 4_000, 'scheduled'],
      ['2026-07-31T22:30:00Z', 9_900, 'confirmed'],
      // Not paid: it would not have counted, so it is not shown apart either.
      ['2026-07-12T11:00:00Z', 7_700, 'pending'],
    ];
    for (const [createdAt, cents, status] of tests) {
      const transactionId = await book('roma', createdAt, cents, status);
      expect(await store.bookingAdmin.markTest(transactionId)).toBe(true);
    }
    expect(await store.bookingAdmin.markTest('TX-NOT-THERE')).toBe(false);

    const after = await takings.monthlyTakings({ month: '2026-07', location: 'all', reload: true });
    expect(after.totals).toEqual(before.totals);
    expect(roma(after).days).toEqual(roma(before).days);
    expect(roma(after).testBookings).toEqual({ count: 2, cents: 6_500 });
    expect(after.testBookings).toEqual({ count: 2, cents: 6_500 });
    const august = await takings.monthlyTakings({ month: '2026-08', location: 'roma', reload: true });
    expect(august.testBookings).toEqual({ count: 1, cents: 9_900 });
  });
});
