import {
  bookingRoutes,
  errorBodySchema,
  inhibitMultiResponseSchema,
  okResponseSchema,
  scheduledBookingResponseSchema,
} from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { buildCustomerDetails, TODAY_NOON } from '../../../test/builders';
import { startTestApp, useTestApp } from '../../../test/test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// Clock: Friday 27 March 2026, 09:00 in Rome. Oca prices: standard 3 h = 5 €, large 3 h = 7 €,
// standard 1 day = 12 €; 4 large lockers, at most 3 sold online at once.

describe.each(STORE_DIALECTS)('booking calls on %s', (dialect) => {
  const { test, api } = useTestApp(() => startTestApp({ dialect }));

  const hold = (body: Record<string, unknown>) =>
    api.post<{ success: boolean; transactionId: string; reservedLockers: number[]; expiresAt: string }>(
      '/api/lockers/inhibit-multi',
      { locationKey: 'oca', dimensione: 'standard', quantita: 1, ...TODAY_NOON, ...body },
    );

  const savedRecord = (transactionId: string, overrides: Record<string, unknown> = {}) => ({
    transactionId,
    location: 'oca',
    ...TODAY_NOON,
    locker: { lockerId: null, size: 'standard', duration: { value: 3, unit: 'ore' } },
    reservedLockers: [],
    quantita: 1,
    note: 'lang:en',
    ...overrides,
  });

  it('holds lockers, saves the booking, takes the customer details and reads it back without the PIN', async () => {
    const held = await hold({ quantita: 2 });
    expect(held.status).toBe(200);
    const heldBody = inhibitMultiResponseSchema.parse(held.body);
    expect(heldBody.success).toBe(true);
    expect(heldBody.reservedLockers).toHaveLength(2);
    expect(heldBody.transactionId).toMatch(/^BOOKING-[A-Za-z0-9_-]{22,}$/);
    // Nobody has put a name to it yet: 5 minutes (ANONYMOUS_HOLD_MINUTES), not the 15 of a named hold.
    expect(heldBody.expiresAt).toBe('2026-03-27T08:05:00.000Z');
    const id = heldBody.transactionId!;

    const saved = await api.post(
      '/api/bookings/save',
      savedRecord(id, { quantita: 2, pin: '111111', price: 0.01 }),
    );
    expect(saved.status).toBe(201);
    expect(bookingRoutes.save.response.parse(saved.body)).toMatchObject({
      transactionId: id,
      status: 'pending',
    });

    const patched = await api.patch(`/api/bookings/${id}`, buildCustomerDetails({ note: 'lang:en' }));
    expect(patched.status).toBe(200);
    okResponseSchema.parse(patched.body);

    const read = await api.get(`/api/bookings/${id}`);
    expect(read.status).toBe(200);
    const booking = bookingRoutes.readBack.response.parse(read.body);
    expect(booking).toMatchObject({
      transactionId: id,
      nome: 'Giulia',
      lockerType: 'standard',
      quantita: 2,
      status: 'pending',
      pin: null,
      price_discounted: 10,
      note: 'lang:en',
    });
    expect(booking.reservedLockers).toEqual(heldBody.reservedLockers);

    // The server drew its own PIN (never the browser's) and priced 2 × 5 € + 0.50 € fee.
    const stored = await test.store.bookings.get(id);
    expect(stored?.pin).toMatch(/^\d{6}$/);
    expect(stored?.pin).not.toBe('111111');
    expect(stored).toMatchObject({ priceOriginalCents: 1000, totalCents: 1050 });
    // The details gave it the whole BOOKING_EXPIRATION_MINUTES (15) from when it was made.
    expect(stored?.expiresAt?.toISOString()).toBe('2026-03-27T08:15:00.000Z');
  });

  it('shows the PIN and lockers only once paid, and neither for a scheduled booking', async () => {
    const { body } = await hold({});
    const id = body.transactionId;
    await test.cloud.context.services.bookings.changeStatus(id, {
      from: ['pending'],
      to: 'confirmed',
      actor: 'provider',
      reason: 'paid',
    });
    const paid = bookingRoutes.readBack.response.parse((await api.get(`/api/bookings/${id}`)).body);
    expect(paid.pin).toBe((await test.store.bookings.get(id))?.pin);
    expect(paid.reservedLockers).toHaveLength(1);

    const later = await hold({
      startTimeIso: '2026-04-02T08:00:00.000Z',
      endTimeIso: '2026-04-02T11:00:00.000Z',
    });
    await test.cloud.context.services.bookings.changeStatus(later.body.transactionId, {
      from: ['pending'],
      to: 'scheduled',
      actor: 'provider',
      reason: 'paid',
    });
    const scheduled = bookingRoutes.readBack.response.parse(
      (await api.get(`/api/bookings/${later.body.transactionId}`)).body,
    );
    expect(scheduled).toMatchObject({ status: 'scheduled', pin: null, reservedLockers: [] });
  });

  it('moves a hold to the window the save names, keeping its id', async () => {
    const { body } = await hold({});
    const saved = await api.post(
      '/api/bookings/save',
      savedRecord(body.transactionId, {
        startTimeIso: '2026-03-28T07:00:00.000Z',
        endTimeIso: '2026-03-29T06:00:00.000Z',
        locker: { size: 'large', duration: { value: 1, unit: 'g' } },
      }),
    );
    expect(saved.status).toBe(201);
    const stored = await test.store.bookings.get(body.transactionId);
    expect(stored).toMatchObject({
      size: 'large',
      duration: { value: 1, unit: 'days' },
      priceOriginalCents: 1600,
    });
    expect(stored?.endAt.toISOString()).toBe('2026-03-29T06:00:00.000Z');
  });

  it('issues a fresh id when the browser names a hold we do not have', async () => {
    const saved = await api.post<{ transactionId: string }>(
      '/api/bookings/save',
      savedRecord('BOOKING-1711526400000'),
    );
    expect(saved.status).toBe(201);
    expect(saved.body.transactionId).not.toBe('BOOKING-1711526400000');
    expect(saved.body.transactionId).toMatch(/^BOOKING-[A-Za-z0-9_-]{22}$/);
  });

  it('rejects a save whose duration does not match its window', async () => {
    const saved = await api.post(
      '/api/bookings/save',
      savedRecord('BOOKING-1711526400000', {
        locker: { size: 'standard', duration: { value: 4, unit: 'ore' } },
      }),
    );
    expect(saved.status).toBe(400);
    expect(errorBodySchema.parse(saved.body).error.code).toBe('booking/invalid_period');
  });

  it('refuses durations with no price and starts in the past', async () => {
    const twoHours = await hold({ endTimeIso: '2026-03-27T13:00:00.000Z' });
    expect(twoHours.status).toBe(400);
    const past = await hold({
      startTimeIso: '2026-03-26T11:00:00.000Z',
      endTimeIso: '2026-03-26T14:00:00.000Z',
    });
    expect(past.status).toBe(400);
    expect(errorBodySchema.parse(past.body).error.code).toBe('booking/invalid_period');
  });

  it('answers a future-day booking, checking the prices the browser sent', async () => {
    const window = { startTimeIso: '2026-04-10T08:00:00.000Z', endTimeIso: '2026-04-10T11:00:00.000Z' };
    const body = { location_key: 'oca', tipo_locker: 'large', quantita: 1, ...window };
    const tampered = await api.post('/api/bookings/scheduled', {
      ...body,
      prezzo_originale: 0.5,
      prezzo_scontato: 0.5,
    });
    expect(tampered.status).toBe(400);
    expect(errorBodySchema.parse(tampered.body).error.code).toBe('booking/price_mismatch');

    const ok = await api.post('/api/bookings/scheduled', {
      ...body,
      prezzo_originale: 7,
      prezzo_scontato: 7.5,
      pin: '123456',
    });
    expect(ok.status).toBe(201);
    const answer = scheduledBookingResponseSchema.parse(ok.body);
    expect(answer.lockerId).toBeNull();
    // Capacity is consumed at once.
    const stored = await test.store.bookings.get(answer.transactionId);
    expect(stored?.lockers.filter((l) => l.active)).toHaveLength(1);
    expect(stored?.pin).not.toBe('123456');
  });

  it('applies a discount from the customer details, server-side', async () => {
    const { body } = await hold({});
    const patched = await api.patch(
      `/api/bookings/${body.transactionId}`,
      buildCustomerDetails({ codice_sconto: 'WELCOME10' }),
    );
    expect(patched.status).toBe(200);
    expect(await test.store.bookings.get(body.transactionId)).toMatchObject({
      discountCode: 'WELCOME10',
      priceOriginalCents: 500,
      priceDiscountedCents: 450,
      totalCents: 500,
    });
    const expired = await api.patch(
      `/api/bookings/${body.transactionId}`,
      buildCustomerDetails({ codice_sconto: 'SUMMER24' }),
    );
    expect(expired.status).toBe(400);
    expect(errorBodySchema.parse(expired.body).error.code).toBe('discount/expired');
    const tooShort = await api.patch(
      `/api/bookings/${body.transactionId}`,
      buildCustomerDetails({ codice_sconto: 'LONGSTAY' }),
    );
    expect(errorBodySchema.parse(tooShort.body).error.code).toBe('discount/min_days');
  });

  it('lets only one of many simultaneous bookings use a single-use code', async () => {
    const holds = await Promise.all(
      Array.from({ length: 6 }, () =>
        hold({ startTimeIso: '2026-04-03T08:00:00.000Z', endTimeIso: '2026-04-03T11:00:00.000Z' }),
      ),
    );
    const ids = holds.map((h) => h.body.transactionId);
    const answers = await Promise.all(
      ids.map((id) => api.patch(`/api/bookings/${id}`, buildCustomerDetails({ codice_sconto: 'ONCE20' }))),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    const refused = answers.filter((a) => a.status !== 200);
    expect(refused.every((a) => errorBodySchema.parse(a.body).error.code === 'discount/already_used')).toBe(
      true,
    );
    // The winner cancels: the code is free again.
    const winner = ids[answers.findIndex((a) => a.status === 200)];
    expect((await api.post(`/api/bookings/${winner}/cancel`)).status).toBe(200);
    const loser = ids.find((id) => id !== winner)!;
    expect(
      (await api.patch(`/api/bookings/${loser}`, buildCustomerDetails({ codice_sconto: 'ONCE20' }))).status,
    ).toBe(200);
  });

  it('cancels a pending booking and frees its lockers; unknown ids are BOOKING_NOT_FOUND', async () => {
    const window = { startTimeIso: '2026-04-04T08:00:00.000Z', endTimeIso: '2026-04-04T11:00:00.000Z' };
    const countLarge = async () =>
      (
        (
          await api.post('/api/night-availability/check', {
            locationKey: 'oca',
            tipoLocker: 'large',
            quantita: 1,
            ...window,
          })
        ).body as { disponibili: number }
      ).disponibili;
    const before = await countLarge();
    const { body } = await hold({ dimensione: 'large', ...window });
    expect(await countLarge()).toBe(before - 1);
    const cancelled = await api.post(`/api/bookings/${body.transactionId}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await countLarge()).toBe(before);
    expect((await api.post(`/api/bookings/${body.transactionId}/cancel`)).status).toBe(200);
    const unknown = await api.get('/api/bookings/BOOKING-AAAAAAAAAAAAAAAAAAAAAA');
    expect(unknown.status).toBe(404);
    expect(errorBodySchema.parse(unknown.body).error.code).toBe('BOOKING_NOT_FOUND');
  });

  it('answers BOOKING_EXPIRED for details sent after the hold lapsed', async () => {
    const { body } = await hold({
      startTimeIso: '2026-04-05T08:00:00.000Z',
      endTimeIso: '2026-04-05T11:00:00.000Z',
    });
    test.clock.advanceMinutes(16);
    try {
      const late = await api.patch(`/api/bookings/${body.transactionId}`, buildCustomerDetails());
      expect(late.status).toBe(409);
      expect(errorBodySchema.parse(late.body).error.code).toBe('BOOKING_EXPIRED');
    } finally {
      test.clock.set('2026-03-27T08:00:00.000Z');
    }
  });

  it('refuses every hold when no locker is left, saying how many are', async () => {
    const window = { startTimeIso: '2026-04-06T08:00:00.000Z', endTimeIso: '2026-04-06T11:00:00.000Z' };
    // Oca sells at most 3 large lockers online at once.
    expect((await hold({ dimensione: 'large', quantita: 3, ...window })).status).toBe(200);
    const full = await hold({ dimensione: 'large', quantita: 1, ...window });
    expect(full.status).toBe(409);
    expect(errorBodySchema.parse(full.body).error).toMatchObject({
      code: 'booking/locker_unavailable',
      details: { available: 0 },
    });
  });

  it('refuses holds during maintenance', async () => {
    await test.cloud.context.services.settings.update({ MAINTENANCE_MODE: true });
    try {
      const refused = await hold({});
      expect(refused.status).toBe(503);
      expect(errorBodySchema.parse(refused.body).error.code).toBe('booking/maintenance');
    } finally {
      await test.cloud.context.services.settings.update({ MAINTENANCE_MODE: false });
    }
  });
});
