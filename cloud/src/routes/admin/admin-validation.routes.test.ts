import { errorBodySchema, systemSettingsSchema } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/admin-test-app';
import { NEW_LOCATION_BODY as newLocation, TODAY_NOON } from '../../../test/builders';

// Operator input that would harm every site is refused by the server with its own code, whatever
// sent it (issue 17): block windows that overlap or are empty, an inverted fast-track window,
// prices of zero, a location key that names one of our pages. Nothing is saved.
// Clock: Friday 27 March 2026, 09:00 in Rome.

describe('admin input validation over HTTP', () => {
  const app = useAdminTestApp();

  const errorOf = (answer: { status: number; body: unknown }) => ({
    status: answer.status,
    code: errorBodySchema.parse(answer.body).error.code,
  });
  const saveSettings = (body: unknown) =>
    app.call('POST', '/api/admin/settings/system', { token: app.token, body });
  const settings = async () =>
    systemSettingsSchema.parse(
      (await app.call('GET', '/api/admin/settings/system', { token: app.token })).body,
    );

  describe('Parametri di sistema', () => {
    it('refuses overlapping block windows, also across midnight, and saves nothing', async () => {
      const before = await settings();
      for (const windows of [
        [
          { from: '02:00', to: '04:00' },
          { from: '03:30', to: '05:00' },
        ],
        [
          { from: '23:00', to: '02:00' },
          { from: '01:00', to: '01:30' },
        ],
      ]) {
        expect(errorOf(await saveSettings({ BLOCK_WINDOWS: windows }))).toEqual({
          status: 400,
          code: 'settings/block_windows_overlap',
        });
      }
      expect((await settings()).BLOCK_WINDOWS).toEqual(before.BLOCK_WINDOWS);
    });

    it('refuses a block window of no length', async () => {
      expect(errorOf(await saveSettings({ BLOCK_WINDOWS: [{ from: '03:00', to: '03:00' }] }))).toEqual({
        status: 400,
        code: 'settings/block_window_empty',
      });
    });

    it('accepts windows that only touch, and one past midnight', async () => {
      const windows = [
        { from: '23:00', to: '01:00' },
        { from: '01:00', to: '02:00' },
      ];
      expect((await saveSettings({ BLOCK_WINDOWS: windows })).status).toBe(200);
      expect((await settings()).BLOCK_WINDOWS).toEqual(windows);
    });

    it('refuses an inverted fast-track window, sent whole or one bound against the stored other', async () => {
      expect(errorOf(await saveSettings({ FASTTRACK_FROM: '21:00', FASTTRACK_TO: '06:00' }))).toEqual({
        status: 400,
        code: 'settings/fast_track_inverted',
      });
      expect(errorOf(await saveSettings({ FASTTRACK_FROM: '09:00', FASTTRACK_TO: '09:00' }))).toEqual({
        status: 400,
        code: 'settings/fast_track_inverted',
      });
      const stored = await settings();
      expect(errorOf(await saveSettings({ FASTTRACK_FROM: '22:00' }))).toEqual({
        status: 400,
        code: 'settings/fast_track_inverted',
      });
      expect((await settings()).FASTTRACK_FROM).toBe(stored.FASTTRACK_FROM);
      expect((await saveSettings({ FASTTRACK_FROM: '07:00' })).status).toBe(200);
    });
  });

  describe('prices and locations', () => {
    it('refuses a price of zero in Impostazioni Sedi and in a new location', async () => {
      const repriced = await app.call('POST', '/api/locations/update-prices', {
        token: app.token,
        body: [
          {
            key: 'oca',
            pricing: { ...newLocation.pricing, standard: { hours: { '3': 0 }, days: { '1': 12 } } },
          },
        ],
      });
      expect(errorOf(repriced)).toEqual({ status: 400, code: 'location/price_not_positive' });
      const created = await app.call('POST', '/api/admin/locations', {
        token: app.token,
        body: { ...newLocation, pricing: { ...newLocation.pricing, large: { hours: { '3': 0 }, days: {} } } },
      });
      expect(errorOf(created)).toEqual({ status: 400, code: 'location/price_not_positive' });
      expect(await app.store.locations.get('nuova')).toBeNull();
    });

    it('refuses amounts too small to be written in cents, which were stored as 0 (found by the API fuzzer)', async () => {
      // zod's multipleOf(0.01) compares decimal digits, and 5e-324 or 1e-20 have none it can compare.
      for (const tiny of [5e-324, 1e-20]) {
        const repriced = await app.call('POST', '/api/locations/update-prices', {
          token: app.token,
          body: [
            {
              key: 'oca',
              pricing: { ...newLocation.pricing, standard: { hours: { '3': tiny }, days: { '1': 12 } } },
            },
          ],
        });
        expect(repriced.status).toBe(400);
        const discount = await app.call('POST', '/api/discounts/create', {
          token: app.token,
          body: { code: 'QUASIZERO', discountEuro: tiny },
        });
        expect(discount.status).toBe(400);
        expect((await saveSettings({ RECEIPT_VAT_PERCENT: tiny })).status).toBe(400);
      }
      expect(await app.store.discounts.get('QUASIZERO')).toBeNull();
      const oca = await app.store.locations.get('oca');
      expect(Object.values(oca!.pricing.standard.hours).every((cents) => cents >= 100)).toBe(true);
      expect((await settings()).RECEIPT_VAT_PERCENT).toBeGreaterThan(0);
    });

    it('refuses "admin" and other words of our own paths as a location key', async () => {
      for (const id of ['admin', 'api', 'booking-notte']) {
        const created = await app.call('POST', '/api/admin/locations', {
          token: app.token,
          body: { ...newLocation, id },
        });
        expect(errorOf(created)).toEqual({ status: 400, code: 'location/key_reserved' });
      }
      const keyed = await app.call('POST', '/api/admin/locations', {
        token: app.token,
        body: { ...newLocation, key: 'admin' },
      });
      expect(errorOf(keyed)).toEqual({ status: 400, code: 'location/key_reserved' });
    });

    it('says what to do when a location with bookings cannot be deleted', async () => {
      const held = await app.call('POST', '/api/lockers/inhibit-multi', {
        body: { locationKey: 'oca', dimensione: 'standard', quantita: 1, ...TODAY_NOON },
      });
      expect(held.status).toBe(200);
      const refused = await app.call('DELETE', '/api/admin/locations/oca', { token: app.token });
      expect(errorOf(refused)).toEqual({ status: 409, code: 'location/has_bookings' });
      const { message } = errorBodySchema.parse(refused.body).error;
      expect(message).not.toContain('Gestione Database');
      expect(message).toContain('Max online');
    });
  });
});
