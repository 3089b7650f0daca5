import { beforeAll, describe, expect, it } from 'vitest';
import type { DomainEvent } from '../domain-events';
import { buildCustomerDetails } from '../../test/builders';
import { startTestApp, useTestApp } from '../../test/test-app';
import { STORE_DIALECTS } from '../../test/test-store';

const WINDOW = { startTimeIso: '2026-03-27T11:00:00.000Z', endTimeIso: '2026-03-27T14:00:00.000Z' };

describe.each(STORE_DIALECTS)('expirePendingBookings on %s', (dialect) => {
  const { test, api } = useTestApp(() => startTestApp({ dialect }));
  const expiredEvents: string[] = [];

  beforeAll(async () => {
    test.cloud.context.events.on(
      'booking.expired',
      (event: Extract<DomainEvent, { type: 'booking.expired' }>) => {
        expiredEvents.push(event.transactionId);
      },
    );
  });

  const freeLarge = async () =>
    (
      (
        await api.post('/api/night-availability/check', {
          locationKey: 'vicolo',
          tipoLocker: 'large',
          ...WINDOW,
        })
      ).body as {
        disponibili: number;
      }
    ).disponibili;

  it('marks lapsed holds expired, frees their lockers and tells subscribers', async () => {
    const before = await freeLarge();
    const held = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'vicolo',
      dimensione: 'large',
      quantita: 3,
      ...WINDOW,
    });
    expect(held.status).toBe(200);
    expect(await freeLarge()).toBe(before - 3);
    test.clock.advanceMinutes(2);
    const named = await api.patch(`/api/bookings/${held.body.transactionId}`, buildCustomerDetails());
    expect(named.status).toBe(200);

    // Still inside BOOKING_EXPIRATION_MINUTES (15) from the hold: nothing to expire.
    test.clock.advanceMinutes(12);
    expect(await test.cloud.expirePendingBookings()).toEqual([]);

    test.clock.advanceMinutes(2);
    expect(await test.cloud.expirePendingBookings()).toEqual([held.body.transactionId]);
    expect(expiredEvents).toEqual([held.body.transactionId]);
    expect((await test.store.bookings.get(held.body.transactionId))?.status).toBe('expired');
    expect(await freeLarge()).toBe(before);
    expect((await api.get(`/api/bookings/${held.body.transactionId}`)).body).toMatchObject({
      status: 'expired',
      pin: null,
    });
  });

  it('lets a hold nobody has put a name to lapse after 5 minutes, so anonymous holds cannot keep a site off sale', async () => {
    const held = await api.post<{ transactionId: string; expiresAt: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'vicolo',
      dimensione: 'large',
      quantita: 2,
      ...WINDOW,
    });
    expect(held.status).toBe(200);
    expect(new Date(held.body.expiresAt).getTime() - test.clock.now().getTime()).toBe(5 * 60_000);
    test.clock.advanceMinutes(4);
    expect(await test.cloud.expirePendingBookings()).toEqual([]);
    test.clock.advanceMinutes(1);
    expect(await test.cloud.expirePendingBookings()).toEqual([held.body.transactionId]);
    // Too late to put a name to it: the lockers are back on sale.
    const late = await api.patch(`/api/bookings/${held.body.transactionId}`, buildCustomerDetails());
    expect(late).toMatchObject({ status: 409, body: { error: { code: 'BOOKING_EXPIRED' } } });
  });

  it('follows the BOOKING_EXPIRATION_MINUTES setting', async () => {
    await test.cloud.context.services.settings.update({ BOOKING_EXPIRATION_MINUTES: 5 });
    const held = await api.post<{ transactionId: string; expiresAt: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'vicolo',
      dimensione: 'standard',
      quantita: 1,
      ...WINDOW,
    });
    expect(new Date(held.body.expiresAt).getTime() - test.clock.now().getTime()).toBe(5 * 60_000);
    test.clock.advanceMinutes(5);
    expect(await test.cloud.expirePendingBookings()).toContain(held.body.transactionId);
  });

  it('never expires a paid booking', async () => {
    const held = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'vicolo',
      dimensione: 'standard',
      quantita: 1,
      startTimeIso: '2026-04-01T08:00:00.000Z',
      endTimeIso: '2026-04-01T11:00:00.000Z',
    });
    await test.cloud.context.services.bookings.changeStatus(held.body.transactionId, {
      from: ['pending'],
      to: 'confirmed',
      actor: 'provider',
      reason: 'paid',
    });
    test.clock.advanceMinutes(60);
    expect(await test.cloud.expirePendingBookings()).not.toContain(held.body.transactionId);
    expect((await test.store.bookings.get(held.body.transactionId))?.status).toBe('confirmed');
  });
});
