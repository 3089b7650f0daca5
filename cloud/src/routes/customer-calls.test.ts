import {
  availabilityByDateSchema,
  bookingRoutes,
  discountValidationSchema,
  frontendOverridesSchema,
  inhibitMultiResponseSchema,
  localDateTime,
  lockerStateResponseSchema,
  nightAvailabilityCheckResponseSchema,
  nightAvailabilityWindow,
  okResponseSchema,
  publicLocationSchema,
  scheduledBookingResponseSchema,
  SEED_LOCATIONS,
} from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { buildCustomerDetails } from '../../test/builders';
import { startTestApp, useTestApp } from '../../test/test-app';

// Every customer call of spec §7 (payments aside) answers for every seed location, in the shape
// protocol's response schema describes.

describe('customer calls for every seed location', () => {
  const { test, api } = useTestApp(() => startTestApp());

  const ok = async <T>(
    answer: Promise<{ status: number; body: unknown }>,
    schema: { parse(v: unknown): T },
    status = 200,
  ) => {
    const { status: got, body } = await answer;
    expect(got, JSON.stringify(body)).toBe(status);
    return schema.parse(body);
  };

  it.each(SEED_LOCATIONS.map((l) => [l.key, l.timezone, l.lockerStructure, l.maxOnline] as const))(
    '%s (%s)',
    async (key, zone, structure, maxOnline) => {
      const location = await ok(api.get(`/api/locations/${key}`), publicLocationSchema);
      expect(location.timezone).toBe(zone);

      const lockers = await ok(api.get(`/api/lockers/state?location=${key}`), lockerStateResponseSchema);
      expect(lockers).toHaveLength(structure.standard.length + structure.large.length);
      expect(lockers.every((l) => l.status === 'available')).toBe(true);

      await ok(api.get(`/api/admin/frontend-overrides?location=${key}`), frontendOverridesSchema);

      const today = await ok(
        api.get(`/api/bookings/availability?location=${key}&startDate=2026-03-27&endDate=2026-03-27`),
        availabilityByDateSchema,
      );
      expect(Object.keys(today)).toEqual(['2026-03-27']);
      const future = await ok(
        api.get(`/api/bookings/future?location=${key}&startDate=2026-03-28&endDate=2026-04-03`),
        availabilityByDateSchema,
      );
      expect(future['2026-03-30']).toEqual({
        standard: Math.min(structure.standard.length, maxOnline.standard),
        large: Math.min(structure.large.length, maxOnline.large),
      });

      const offer = await ok(
        api.post(`/api/bookings/immediate?location=${key}`),
        bookingRoutes.immediate.response,
      );
      expect(offer).toMatchObject({ locker: { size: 'large' }, duration: 3 });
      expect(offer.price).toBe(location.hourlyPrices.large['3']);

      const start = localDateTime('2026-03-28', '10:00', zone);
      const window = {
        startTimeIso: start.toUTC().toISO()!,
        endTimeIso: start.plus({ hours: 3 }).toUTC().toISO()!,
      };
      const held = await ok(
        api.post('/api/lockers/inhibit-multi', {
          locationKey: key,
          dimensione: 'standard',
          quantita: 2,
          ...window,
        }),
        inhibitMultiResponseSchema,
      );
      const id = held.transactionId!;
      await ok(
        api.post('/api/bookings/save', {
          transactionId: id,
          location: key,
          ...window,
          locker: { size: 'standard', duration: { value: 3, unit: 'h' } },
          reservedLockers: held.reservedLockers,
          quantita: 2,
          note: 'lang:es',
        }),
        bookingRoutes.save.response,
        201,
      );
      await ok(
        api.patch(`/api/bookings/${id}`, buildCustomerDetails({ codice_sconto: 'FIVEOFF' })),
        okResponseSchema,
      );
      const read = await ok(api.get(`/api/bookings/${id}`), bookingRoutes.readBack.response);
      expect(read.price_discounted).toBe(Math.max(0, location.hourlyPrices.standard['3'] * 2 - 5));

      const laterStart = localDateTime('2026-04-15', '09:00', zone);
      await ok(
        api.post('/api/bookings/scheduled', {
          location_key: key,
          startTimeIso: laterStart.toUTC().toISO(),
          endTimeIso: laterStart.plus({ days: 2 }).toUTC().toISO(),
          tipo_locker: 'large',
          quantita: 1,
          prezzo_originale: location.dailyPrices.large['2'],
        }),
        scheduledBookingResponseSchema,
        201,
      );

      const validation = await ok(
        api.post('/api/discounts/validate-discount', {
          code: 'LONGSTAY',
          duration: { value: 3, unit: 'g' },
          location: key,
        }),
        discountValidationSchema,
      );
      expect(validation).toMatchObject({ valid: true, type: 'percent', value: 15 });

      const night = nightAvailabilityWindow('2026-03-28', zone);
      const check = await ok(
        api.post('/api/night-availability/check', {
          locationKey: key,
          tipoLocker: 'standard',
          quantita: 1,
          ...night,
        }),
        nightAvailabilityCheckResponseSchema,
      );
      expect(check).toEqual({
        disponibili: Math.min(structure.standard.length, maxOnline.standard) - 2,
        disponibile: true,
      });
      const range = await ok(
        api.post('/api/night-availability/check-range', {
          locationKey: key,
          startTime: night.startTimeIso,
          endTime: localDateTime('2026-03-30', '06:00', zone).toUTC().toISO(),
        }),
        availabilityByDateSchema,
      );
      expect(Object.keys(range)).toEqual(['2026-03-28', '2026-03-29', '2026-03-30']);

      await ok(api.post(`/api/bookings/${id}/cancel`), okResponseSchema);
      expect((await test.store.bookings.get(id))?.status).toBe('cancelled');
    },
  );
});
