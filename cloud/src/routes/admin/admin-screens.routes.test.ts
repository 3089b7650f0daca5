import {
  bookingReadBackResponseSchema,
  cleanupPreviewResponseSchema,
  cleanupStatsResponseSchema,
  discountListResponseSchema,
  locationListResponseSchema,
  locationsByIdResponseSchema,
  lockerFullStateResponseSchema,
  processLogResponseSchema,
  recentBookingsResponseSchema,
  recentErrorLogResponseSchema,
  systemSettingsSchema,
} from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { useAdminTestApp } from '../../../test/admin-test-app';
import { NEW_LOCATION_BODY as newLocation } from '../../../test/builders';
import { ProcessLogRing } from '../../services/admin-process-log';

describe('admin screens over HTTP', () => {
  const processLog = new ProcessLogRing('deposito-cloud', 50);
  const app = useAdminTestApp({ processLog });
  const get = <T>(path: string) => app.call<T>('GET', path, { token: app.token });
  const post = <T>(path: string, body: unknown) => app.call<T>('POST', path, { token: app.token, body });

  describe('locations (Gestione Sedi, Impostazioni Sedi)', () => {
    it('lists every location keyed by id, by key, and without controller settings', async () => {
      const byId = await get('/api/admin/locations');
      expect(byId.status).toBe(200);
      const parsed = locationsByIdResponseSchema.parse(byId.body);
      expect(Object.keys(parsed)).toEqual(expect.arrayContaining(['oca', 'vicolo', 'campo']));
      expect(parsed.campo.timezone).toBe('Europe/London');
      expect(parsed.vicolo.pricing.standard.hours['3']).toBeGreaterThan(0);
      expect(
        locationsByIdResponseSchema.parse((await get('/api/system/admin/locations-full')).body).oca.key,
      ).toBe('oca');
      const all = await get('/api/locations/all');
      expect(locationListResponseSchema.parse(all.body).length).toBe(Object.keys(parsed).length);
      expect(JSON.stringify(all.body)).not.toContain('mastercode');
    });

    it('creates a location with defaults, updates it, and deletes it', async () => {
      const created = await post<{
        success: boolean;
        location: { key: string; port: number; timezone: string };
      }>('/api/admin/locations', newLocation);
      expect(created.status).toBe(201);
      expect(created.body.location).toMatchObject({ key: 'nuova', timezone: 'Europe/Rome', port: 11009 });
      expect((await post('/api/admin/locations', newLocation)).status).toBe(409);
      const lockers = await app.store.locations.lockers('nuova');
      expect(lockers.map((l) => [l.number, l.size])).toEqual([
        [1, 'standard'],
        [2, 'standard'],
        [3, 'standard'],
        [10, 'large'],
      ]);
      // The new location is bookable from the customer side at once.
      expect((await app.call('GET', '/api/locations/nuova')).status).toBe(200);

      const patched = await app.call<{ location: { nome: string; lockerStructure: { large: number[] } } }>(
        'PATCH',
        '/api/admin/locations/nuova',
        {
          token: app.token,
          body: { nome: 'Deposito Rinnovato', lockerStructure: { standard: [1, 2], large: [10, 11] } },
        },
      );
      expect(patched.status).toBe(200);
      expect(patched.body.location.nome).toBe('Deposito Rinnovato');
      expect(patched.body.location.lockerStructure.large).toEqual([10, 11]);
      expect(
        (await app.call('PATCH', '/api/admin/locations/nowhere', { token: app.token, body: { nome: 'x' } }))
          .status,
      ).toBe(404);
      expect(
        (await app.call('PATCH', '/api/admin/locations/nuova', { token: app.token, body: { port: 'abc' } }))
          .status,
      ).toBe(400);

      expect((await app.call('DELETE', '/api/admin/locations/nuova', { token: app.token })).status).toBe(200);
      expect(await app.store.locations.get('nuova')).toBeNull();
      expect((await app.call('DELETE', '/api/admin/locations/nuova', { token: app.token })).status).toBe(404);
    });

    it('rejects a new location without an id or with bad fields', async () => {
      const { id: _id, ...withoutId } = newLocation;
      expect((await post('/api/admin/locations', withoutId)).status).toBe(400);
      expect((await post('/api/admin/locations', { ...newLocation, id: 'Bad Id' })).status).toBe(400);
      expect(
        (await post('/api/admin/locations', { ...newLocation, id: 'tz', timezone: 'Europe/Paris' })).status,
      ).toBe(400);
    });

    it('saves prices, zone and hours, and locker counts for the listed locations', async () => {
      const before = locationsByIdResponseSchema.parse((await get('/api/admin/locations')).body).magna;
      const pricing = {
        standard: { hours: { '3': 9.5 }, days: { '1': 20 } },
        large: { hours: { '3': 11 }, days: { '1': 25 } },
      };
      expect((await post('/api/locations/update-prices', [{ ...before, pricing }])).status).toBe(200);
      expect((await post('/api/locations/update-prices', [{ key: 'nowhere', pricing }])).status).toBe(404);
      expect(
        (
          await post('/api/locations/update-settings', [
            { key: 'magna', timezone: 'UTC', orari: { apertura: '08:00', chiusura: '20:00' } },
          ])
        ).status,
      ).toBe(200);
      expect(
        (
          await post('/api/locations/update-locker-structure', [
            { key: 'magna', lockerStructure: { standard: 2, large: 3 } },
          ])
        ).status,
      ).toBe(200);
      const after = locationsByIdResponseSchema.parse((await get('/api/admin/locations')).body).magna;
      expect(after.pricing).toEqual(pricing);
      expect(after.timezone).toBe('UTC');
      expect(after.orari).toEqual({ apertura: '08:00', chiusura: '20:00' });
      expect(after.lockerStructure.standard).toEqual(before.lockerStructure.standard.slice(0, 2));
      expect(after.lockerStructure.large.length).toBe(3);
      const visitor = await app.call<{ hourlyPrices: { standard: Record<string, number> } }>(
        'GET',
        '/api/locations/magna',
      );
      expect(visitor.body.hourlyPrices.standard['3']).toBe(9.5);
    });

    it('duplicates a locker structure and refuses the same source and target', async () => {
      const same = await post<{ error: { code: string } }>('/api/admin/locations/duplicate-structure', {
        sourceKey: 'oca',
        targetKey: 'oca',
      });
      expect(same.status).toBe(400);
      expect(
        (await post('/api/admin/locations/duplicate-structure', { sourceKey: 'oca', targetKey: 'areadebug' }))
          .status,
      ).toBe(200);
      const all = locationsByIdResponseSchema.parse((await get('/api/admin/locations')).body);
      expect(all.areadebug.lockerStructure).toEqual(all.oca.lockerStructure);
    });
  });

  describe('discount codes', () => {
    it('creates percent and euro codes, lists them, and deletes them', async () => {
      const percent = await post('/api/discounts/create', {
        code: '  ESTATE20 ',
        description: 'Estate',
        discountPercent: 20,
        validFrom: '2026-06-01',
        validTo: '2026-08-31',
        usableOnce: false,
        minDays: 2,
      });
      expect(percent.status).toBe(201);
      const euro = await post('/api/discounts/create', {
        code: 'MENO5',
        discountEuro: 5.5,
        usableOnce: true,
      });
      expect(euro.status).toBe(201);
      expect((await post('/api/discounts/create', { code: 'MENO5', discountEuro: 1 })).status).toBe(409);
      expect((await post('/api/discounts/create', { code: 'NOVALUE' })).status).toBe(400);
      const list = discountListResponseSchema.parse((await get('/api/discounts/all')).body);
      expect(list.find((d) => d.code === 'ESTATE20')).toMatchObject({
        discountPercent: 20,
        minDays: 2,
        validTo: '2026-08-31',
      });
      expect(list.find((d) => d.code === 'MENO5')).toMatchObject({ discountEuro: 5.5, usableOnce: true });
      expect((await app.call('DELETE', '/api/discounts/MENO5', { token: app.token })).status).toBe(200);
      expect((await app.call('DELETE', '/api/discounts/MENO5', { token: app.token })).status).toBe(404);
    });
  });

  describe('system parameters', () => {
    it('answers the settings, changes some, and the booking pages read the change', async () => {
      const initial = systemSettingsSchema.parse((await get('/api/admin/settings/system')).body);
      expect(initial.BOOKING_EXPIRATION_MINUTES).toBe(15);
      const changed = await post('/api/admin/settings/system', {
        MAINTENANCE_MODE: true,
        BLOCK_WINDOWS: [{ from: '02:00', to: '04:00' }],
        FASTTRACK_FROM: '07:00',
      });
      expect(changed.status).toBe(200);
      expect(systemSettingsSchema.parse(changed.body)).toMatchObject({
        MAINTENANCE_MODE: true,
        FASTTRACK_FROM: '07:00',
      });
      const overrides = await app.call<{ MAINTENANCE_MODE: boolean; fastTrackHours: { from: string } }>(
        'GET',
        '/api/admin/frontend-overrides?location=vicolo',
      );
      expect(overrides.body.MAINTENANCE_MODE).toBe(true);
      expect(overrides.body.fastTrackHours.from).toBe('07:00');
      // The visitors' cancellation policy is set here and reaches the booking pages' terms.
      expect(
        (await post('/api/admin/settings/system', { VISITOR_CANCELLATION_POLICY: 'never' })).status,
      ).toBe(200);
      const withPolicy = await app.call('GET', '/api/admin/frontend-overrides?location=vicolo');
      expect(withPolicy.body).toMatchObject({ cancellationPolicy: 'never' });
      expect(
        (await post('/api/admin/settings/system', { VISITOR_CANCELLATION_POLICY: 'sometimes' })).status,
      ).toBe(400);
      await post('/api/admin/settings/system', { VISITOR_CANCELLATION_POLICY: 'future_days_until_start' });
      expect((await post('/api/admin/settings/system', { FASTTRACK_FROM: '25:00' })).status).toBe(400);
      await post('/api/admin/settings/system', { MAINTENANCE_MODE: false });
      // Each size's inside measurements reach the booking pages as written; too long is refused.
      expect(
        (
          await post('/api/admin/settings/system', {
            LOCKER_DIMENSIONS_STANDARD: ' 35 × 45 × 60 cm ',
            LOCKER_DIMENSIONS_LARGE: '45 × 60 × 90 cm',
          })
        ).status,
      ).toBe(200);
      expect((await app.call('GET', '/api/admin/frontend-overrides?location=vicolo')).body).toMatchObject({
        lockerDimensions: { standard: '35 × 45 × 60 cm', large: '45 × 60 × 90 cm' },
      });
      expect(
        (await post('/api/admin/settings/system', { LOCKER_DIMENSIONS_LARGE: 'x'.repeat(61) })).status,
      ).toBe(400);
      await post('/api/admin/settings/system', {
        LOCKER_DIMENSIONS_STANDARD: '',
        LOCKER_DIMENSIONS_LARGE: '',
      });
      expect((await app.call('GET', '/api/admin/frontend-overrides?location=vicolo')).body).toMatchObject({
        lockerDimensions: { standard: '', large: '' },
      });
    });
  });

  describe('bookings, test bookings and cleanup', () => {
    it('creates test bookings, lists their rows, and refuses a locker that is taken', async () => {
      const confirmed = await post<{ success: boolean; transactionId: string }>(
        '/api/system/admin/create-test-booking',
        {
          location: 'vicolo',
          status: 'confirmed',
          type: 'standard',
          pin: '482915',
          quantity: 2,
          lockerIds: [3, 4],
          startTime: '2026-03-27T08:00:00.000Z',
          endTime: '2026-03-27T11:00:00.000Z',
          nome: 'Mario',
          cognome: 'Rossi',
          email: 'mario@example.it',
          confermaEmail: 'mario@example.it',
          note: 'lang:en;fasttrack',
          priceDiscounted: 9,
        },
      );
      expect(confirmed.status).toBe(200);
      expect(confirmed.body.success).toBe(true);
      const clash = await post<{ error: { code: string } }>('/api/system/admin/create-test-booking', {
        location: 'vicolo',
        status: 'confirmed',
        quantity: 1,
        lockerIds: [4],
        startTime: '2026-03-27T09:00:00.000Z',
        endTime: '2026-03-27T10:00:00.000Z',
        nome: 'Anna',
        cognome: 'Bianchi',
        email: 'anna@example.it',
      });
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe('booking/locker_unavailable');
      const scheduledWithLockers = await post('/api/system/admin/create-test-booking', {
        location: 'vicolo',
        status: 'scheduled',
        lockerIds: [5],
        startTime: '2026-03-28T09:00:00.000Z',
        endTime: '2026-03-28T12:00:00.000Z',
        nome: 'Anna',
        cognome: 'Bianchi',
        email: 'anna@example.it',
      });
      expect(scheduledWithLockers.status).toBe(400);
      const scheduled = await post<{ transactionId: string }>('/api/system/admin/create-test-booking', {
        location: 'campo',
        startTime: '2026-03-28T09:00:00.000Z',
        endTime: '2026-03-28T12:00:00.000Z',
        nome: 'Anna',
        cognome: 'Bianchi',
        email: 'anna@example.it',
      });
      expect(scheduled.status).toBe(200);

      const rows = recentBookingsResponseSchema.parse((await get('/api/admin/bookings/recent')).body);
      const mine = rows.filter((r) => r.TRANSACTION_ID === confirmed.body.transactionId);
      expect(mine.map((r) => r.locker_id)).toEqual([3, 4]);
      expect(mine[0]).toMatchObject({
        STATUS: 'confirmed',
        PIN: '482915',
        nome: 'Mario',
        price_discounted: 9,
        LOCATION_KEY: 'vicolo',
      });
      const sched = rows.find((r) => r.TRANSACTION_ID === scheduled.body.transactionId)!;
      expect(sched).toMatchObject({ STATUS: 'scheduled', PIN: null, locker_type: 'standard' });

      const state = lockerFullStateResponseSchema.parse(
        (await get('/api/lockers/full-state?location=vicolo')).body,
      );
      expect(state.find((l) => l.id === 3)).toMatchObject({
        status: 'occupied',
        transactionId: confirmed.body.transactionId,
      });
      expect(state.find((l) => l.id === 1)).toMatchObject({ status: 'available' });
    });

    it('previews, counts and deletes old bookings by the filter', async () => {
      const oldStart = '2026-01-10T09:00:00.000Z';
      app.clock.set('2026-01-10T08:00:00.000Z');
      for (const status of ['expired', 'expired', 'confirmed']) {
        await post('/api/system/admin/create-test-booking', {
          location: 'oca',
          status,
          startTime: oldStart,
          endTime: '2026-01-10T12:00:00.000Z',
          nome: 'Vecchio',
          cognome: 'Cliente',
          email: 'old@example.it',
        });
      }
      app.clock.set('2026-03-27T08:00:00.000Z');
      const stats = cleanupStatsResponseSchema.parse((await get('/api/admin/cleanup/stats')).body);
      expect(stats.success).toBe(true);
      expect(stats.data!.oldBookings.count).toBe(3);
      expect(stats.data!.byStatus.find((s) => s.STATUS === 'expired')?.count).toBe(2);

      const preview = async (query: string) =>
        cleanupPreviewResponseSchema.parse((await get(`/api/admin/cleanup/preview${query}`)).body);
      const withDefaults = await preview('');
      // Defaults: expired, older than 30 days, excluding bookings still holding a locker.
      expect(withDefaults.data).toMatchObject({ totalBookings: 2, totalTransactions: 2 });
      const holding = await preview('?statuses=expired,confirmed&olderThanDays=30&excludeWithLocker=true');
      expect(holding.data).toMatchObject({
        totalBookings: 2,
        statusBreakdown: [{ status: 'expired', count: 2 }],
      });
      const including = await preview('?statuses=expired,confirmed&olderThanDays=30&excludeWithLocker=false');
      expect(including.data).toMatchObject({
        totalBookings: 3,
        statusBreakdown: [
          { status: 'confirmed', count: 1 },
          { status: 'expired', count: 2 },
        ],
      });
      expect((await preview('?olderThanDays=90')).data?.totalBookings).toBe(0);
      expect((await get('/api/admin/cleanup/preview?olderThanDays=400')).status).toBe(400);
      expect((await get('/api/admin/cleanup/preview?statuses=bogus')).status).toBe(400);

      expect((await post('/api/admin/cleanup/execute', { statuses: ['expired'] })).status).toBe(400);
      const executed = await post<{
        success: boolean;
        data: { deletedRows: number; totalTransactions: number };
      }>('/api/admin/cleanup/execute', {
        statuses: ['expired', 'confirmed'],
        olderThanDays: 30,
        excludeWithLocker: true,
      });
      expect(executed.body).toEqual({
        success: true,
        data: {
          deletedRows: 2,
          totalTransactions: 2,
          kept: { totalBookings: 0, totalTransactions: 0, statusBreakdown: [], reason: 'not_ended' },
        },
      });
      const after = await preview('?statuses=expired,confirmed&excludeWithLocker=false');
      expect(after.data?.totalBookings).toBe(1);
    });

    it('answers the morning scheduler run with a clear error while the job is missing', async () => {
      const answer = await post<{ success: boolean; error: string }>(
        '/api/system/admin/run-morning-scheduler',
        {},
      );
      expect(answer.status).toBe(200);
      expect(answer.body.success).toBe(false);
      expect(answer.body.error).toContain('Morning Scheduler');
    });
  });

  describe('locker commands', () => {
    it('reports the location offline while no bridge hub sends commands, and 404 for an unknown locker', async () => {
      const offline = await post<{ error: { code: string } }>('/api/lockers/open', {
        location: 'vicolo',
        lockerId: '3',
      });
      expect(offline.status).toBe(503);
      expect(offline.body.error.code).toBe('bridge/offline');
      expect((await post('/api/lockers/inhibit', { location: 'vicolo', lockerId: 999 })).status).toBe(404);
      expect((await post('/api/lockers/unbook', { location: 'vicolo' })).status).toBe(400);
      expect((await get('/api/lockers/full-state?location=nowhere')).status).toBe(404);
    });
  });

  describe('logs', () => {
    it('lists recent errors and the archive page by page, newest first', async () => {
      const recent = recentErrorLogResponseSchema.parse((await get('/api/admin/logs/recent')).body);
      expect(recent.length).toBeGreaterThan(3);
      expect(recent.map((e) => e.type)).toContain('admin/cleanup_executed');
      const page = recentErrorLogResponseSchema.parse((await get('/api/admin/logs/archive?limit=2')).body);
      expect(page).toHaveLength(2);
      const next = recentErrorLogResponseSchema.parse(
        (await get(`/api/admin/logs/archive?limit=2&before=${encodeURIComponent(page[1].timestamp)}`)).body,
      );
      expect(next.every((e) => e.timestamp < page[1].timestamp)).toBe(true);
    });

    it("shows the server's own recent log lines, newest first", async () => {
      processLog.write('{"level":30,"msg":"first"}\n{"level":40,"msg":"sec');
      processLog.write('ond"}\n');
      const lines = processLogResponseSchema.parse((await get('/api/admin/logs/pm2')).body);
      expect(lines.map((l) => l.log)).toEqual(['{"level":40,"msg":"second"}', '{"level":30,"msg":"first"}']);
      expect(lines[0].name).toBe('deposito-cloud');
    });
  });

  // Last: the booking it makes would count in the cleanup's and the lists' figures above.
  describe('test bookings at the largest amount', () => {
    it('refuses a test booking whose total would pass the largest amount, and stores nothing', async () => {
      const countBookings = async () =>
        Object.values(await app.store.bookings.countByStatus()).reduce((sum, n) => sum + n, 0);
      const before = await countBookings();
      const booking = {
        location: 'oca',
        status: 'expired',
        quantity: 2,
        startTime: '2026-03-28T09:00:00.000Z',
        endTime: '2026-03-28T12:00:00.000Z',
        nome: 'Anna',
        cognome: 'Bianchi',
        email: 'anna@example.it',
      };
      // Only the original price given: it is the one charged, and with the fee it passes 100,000 €.
      const original = await post<{ error: { code: string; details: Array<{ path: string }> } }>(
        '/api/system/admin/create-test-booking',
        { ...booking, priceOriginal: 99_999.99 },
      );
      expect(original.status).toBe(400);
      expect(original.body.error.code).toBe('validation/invalid_body');
      expect(original.body.error.details.map((detail) => detail.path)).toEqual(['priceOriginal']);
      // No price given: the location's list price, here 60,000 € a locker for 3 hours, times two.
      const location = (await app.store.locations.get('oca'))!;
      const hours = { ...location.pricing.standard.hours, 3: 6_000_000 };
      const pricing = { ...location.pricing, standard: { ...location.pricing.standard, hours } };
      await app.store.locations.save({ ...location, pricing }, new Date());
      const listed = await post<{ error: { code: string; message: string } }>(
        '/api/system/admin/create-test-booking',
        booking,
      );
      expect(listed.status).toBe(409);
      expect(listed.body.error).toEqual({
        code: 'booking/amount_too_high',
        message: 'Con la commissione il totale supererebbe 100.000 €: indica un prezzo più basso',
      });
      expect(await countBookings()).toBe(before);
      // One locker at that price is an amount the answers carry.
      const one = await post<{ transactionId: string }>('/api/system/admin/create-test-booking', {
        ...booking,
        quantity: 1,
      });
      expect(one.status).toBe(200);
      const answer = await app.call('GET', `/api/bookings/${one.body.transactionId}`);
      expect(answer.status).toBe(200);
      expect(bookingReadBackResponseSchema.parse(answer.body)).toMatchObject({ total: 60_000.5 });
      await app.store.locations.save(location, new Date());
    });
  });
});
