import { errorBodySchema, localDateTime, utcIso } from '@deposito/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCustomerDetails, TEST_NIGHT_PAYER } from '../../../test/builders';
import { startTestApp, TEST_NOW, useTestApp } from '../../../test/test-app';
import { STORE_DIALECTS } from '../../../test/test-store';

// The server takes only the periods the customer pages offer (protocol's offeredWindowVerdict):
// daytime slots every 15 minutes 06:00–20:00, hour stays ending by 22:00 (night: slots to 19:45,
// ending by 22:45), 3–6 hours or 1–15 days, and fast track's start-now inside the fast-track hours.
// Clock: Friday 27 March 2026, 09:00 in Rome (08:00 UTC); 09:00 in London is 10:00 in Rome.

const TODAY = '2026-03-27';
const TOMORROW = '2026-03-28';

/** A stay of whole calendar days from `time` on `date` in Rome, as the pages send it. */
function stayOfDays(date: string, time: string, days: number) {
  const start = localDateTime(date, time, 'Europe/Rome');
  return { startTimeIso: utcIso(start), endTimeIso: utcIso(start.plus({ days })) };
}

/** A period starting at `time` on `date` in `zone`, lasting `hours`, as the pages send it. */
function period(date: string, time: string, hours: number, zone = 'Europe/Rome') {
  const start = localDateTime(date, time, zone);
  return { startTimeIso: utcIso(start), endTimeIso: utcIso(start.plus({ hours })) };
}

describe.each(STORE_DIALECTS)('booking periods the pages never offer, on %s', (dialect) => {
  const { test, api } = useTestApp(() => startTestApp({ dialect }));

  afterEach(async () => {
    test.clock.set(TEST_NOW);
    await test.cloud.context.services.settings.update({
      FASTTRACK_FROM: '06:00',
      FASTTRACK_TO: '21:00',
      ALWAYS_SHOW_FAST_TRACK: false,
      BOOKING_EXPIRATION_MINUTES: 15,
    });
  });

  const hold = (body: Record<string, unknown>) =>
    api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'vicolo',
      dimensione: 'standard',
      quantita: 1,
      ...body,
    });

  /** Sends the call and checks it is refused with `code`, holding nothing. */
  async function expectRefused(send: () => Promise<{ status: number; body: unknown }>, code: string) {
    const before = await test.store.bookings.countByStatus();
    const answer = await send();
    expect(answer.status, JSON.stringify(answer.body)).toBe(400);
    const { error } = errorBodySchema.parse(answer.body);
    expect(error.code).toBe(code);
    expect(error.message).toMatch(/[àèéìòù]|orario|durata|prenotazione/i);
    expect(await test.store.bookings.countByStatus()).toEqual(before);
  }

  it('refuses starts off the slot grid or outside the day: 02:00, 10:07, 20:15, past slots', async () => {
    await expectRefused(() => hold(period(TOMORROW, '02:00', 3)), 'booking/start_not_offered');
    await expectRefused(() => hold(period(TOMORROW, '10:07', 3)), 'booking/start_not_offered');
    await expectRefused(() => hold(period(TOMORROW, '20:15', 3)), 'booking/start_not_offered');
    await expectRefused(() => hold(period(TOMORROW, '05:45', 24)), 'booking/start_not_offered');
    // 10:00:30 is no slot either.
    const offGrid = period(TOMORROW, '10:00', 3);
    await expectRefused(
      () =>
        hold({
          startTimeIso: new Date(Date.parse(offGrid.startTimeIso) + 30_000).toISOString(),
          endTimeIso: new Date(Date.parse(offGrid.endTimeIso) + 30_000).toISOString(),
        }),
      'booking/start_not_offered',
    );
  });

  it('refuses daytime hour stays ending after 22:00 and durations not offered', async () => {
    await expectRefused(() => hold(period(TODAY, '16:45', 6)), 'booking/ends_after_closing');
    await expectRefused(() => hold(period(TOMORROW, '19:45', 3)), 'booking/ends_after_closing');
    await expectRefused(() => hold(period(TOMORROW, '20:00', 3)), 'booking/ends_after_closing');
    await expectRefused(() => hold(period(TOMORROW, '10:00', 2)), 'booking/duration_not_offered');
    await expectRefused(() => hold(period(TOMORROW, '10:00', 7)), 'booking/duration_not_offered');
    // The save of a booking never held, and a future-day booking, go through the same rules.
    const requests = [
      [
        '/api/bookings/save',
        {
          transactionId: 'BOOKING-1700000000000',
          location: 'vicolo',
          ...period(TODAY, '16:45', 6),
          locker: { lockerId: null, size: 'standard', duration: { value: 6, unit: 'ore' } },
          reservedLockers: [],
          quantita: 1,
          note: 'lang:it',
        },
        'booking/ends_after_closing',
      ],
      [
        '/api/bookings/scheduled',
        {
          id_transazione: 'BOOKING-1700000000001',
          location_key: 'vicolo',
          ...period(TOMORROW, '02:00', 3),
          tipo_locker: 'standard',
          quantita: 1,
        },
        'booking/start_not_offered',
      ],
    ] as const;
    for (const [path, body, code] of requests) await expectRefused(() => api.post(path, body), code);
  });

  it("refuses night-wizard periods outside the night's slots and its 22:45 end", async () => {
    const night = (window: { startTimeIso: string; endTimeIso: string }) => () =>
      api.post('/api/night-payments/create-night-payment', {
        locationKey: 'vicolo',
        tipoLocker: 'large',
        quantita: 1,
        ...window,
        ...TEST_NIGHT_PAYER,
      });
    await expectRefused(night(period(TOMORROW, '20:00', 24)), 'booking/start_not_offered');
    await expectRefused(night(period(TOMORROW, '02:00', 3)), 'booking/start_not_offered');
    await expectRefused(night(period(TOMORROW, '19:00', 4)), 'booking/ends_after_closing');
    // The night wizard has no start-now.
    await expectRefused(
      night({ startTimeIso: '2026-03-27T08:00:30.000Z', endTimeIso: '2026-03-27T11:00:30.000Z' }),
      'booking/start_not_offered',
    );
  });

  it('refuses fast track outside its hours, through every call that starts a stay now', async () => {
    test.clock.set('2026-03-27T21:30:00.000Z'); // 22:30 in Rome, after the default 21:00
    await expectRefused(() => hold({}), 'booking/fast_track_closed');
    await expectRefused(
      () => hold({ startTimeIso: '2026-03-27T21:29:10.000Z', endTimeIso: '2026-03-28T00:29:10.000Z' }),
      'booking/fast_track_closed',
    );
    await expectRefused(
      () => api.post('/api/bookings/immediate?location=vicolo'),
      'booking/fast_track_closed',
    );
    await expectRefused(
      () =>
        api.post('/api/lockers/inhibit', {
          location: 'vicolo',
          lockerId: 1,
          duration: { value: 3, unit: 'ore' },
        }),
      'booking/fast_track_closed',
    );

    // The operator's hours count, not the defaults; ALWAYS_SHOW_FAST_TRACK only shows the choice.
    test.clock.set('2026-03-27T08:03:27.000Z'); // 09:03:27 in Rome
    await test.cloud.context.services.settings.update({
      FASTTRACK_FROM: '06:00',
      FASTTRACK_TO: '08:30',
      ALWAYS_SHOW_FAST_TRACK: true,
    });
    await expectRefused(() => hold({}), 'booking/fast_track_closed');
    // A start-now is 3 hours, nothing else.
    await test.cloud.context.services.settings.update({ FASTTRACK_TO: '21:00' });
    await expectRefused(
      () => hold({ startTimeIso: '2026-03-27T08:03:27.000Z', endTimeIso: '2026-03-27T12:03:27.000Z' }),
      'booking/duration_not_offered',
    );
  });

  it('accepts every choice the daytime pages offer', async () => {
    for (const window of [
      period(TODAY, '09:15', 3), // the first slot after now
      period(TODAY, '09:00', 3), // offered until a moment ago
      period(TODAY, '16:00', 6), // ends at 22:00
      period(TOMORROW, '16:45', 5),
      period(TOMORROW, '19:00', 3),
      period(TOMORROW, '06:00', 6),
      stayOfDays(TOMORROW, '20:00', 1), // a day from the last slot, across the DST change
    ]) {
      const held = await hold(window);
      expect(held.status, `${window.startTimeIso} ${JSON.stringify(held.body)}`).toBe(200);
    }
    // 15 days from 19:45 on the eve of the DST change: calendar days, not 360 hours.
    const start = localDateTime(TOMORROW, '19:45', 'Europe/Rome');
    const fifteenDays = await hold({
      startTimeIso: utcIso(start),
      endTimeIso: utcIso(start.plus({ days: 15 })),
    });
    expect(fifteenDays.status, JSON.stringify(fifteenDays.body)).toBe(200);

    const scheduled = await api.post('/api/bookings/scheduled', {
      id_transazione: 'BOOKING-1700000000002',
      location_key: 'termini',
      ...period(TOMORROW, '10:00', 3),
      tipo_locker: 'large',
      quantita: 1,
    });
    expect(scheduled.status, JSON.stringify(scheduled.body)).toBe(201);

    const areadebug = await hold({ locationKey: 'areadebug', ...period(TOMORROW, '12:30', 4) });
    expect(areadebug.status, JSON.stringify(areadebug.body)).toBe(200);
  });

  it("accepts fast track's start-now inside its hours, as the server or the browser times it", async () => {
    test.clock.set('2026-03-27T08:03:27.123Z'); // 09:03:27 in Rome
    const offer = await api.post<{ duration: number }>('/api/bookings/immediate?location=vicolo');
    expect(offer.status, JSON.stringify(offer.body)).toBe(200);
    expect((await hold({ locationKey: 'oca' })).status).toBe(200);
    // The browser's clock a few seconds behind or ahead.
    for (const startTimeIso of ['2026-03-27T08:02:59.456Z', '2026-03-27T08:04:01.000Z']) {
      const end = new Date(Date.parse(startTimeIso) + 3 * 3_600_000).toISOString();
      const held = await hold({ locationKey: 'oca', startTimeIso, endTimeIso: end });
      expect(held.status, JSON.stringify(held.body)).toBe(200);
    }
    // The legacy page's locker block from now for 3 hours.
    const legacy = await api.post('/api/lockers/inhibit', {
      location: 'magna',
      lockerId: 1,
      duration: { value: 3, unit: 'ore' },
    });
    expect(legacy.status, JSON.stringify(legacy.body)).toBe(200);

    // The end-to-end tests' settings: hours around now, late in the evening, start-now shown always.
    test.clock.set('2026-03-27T21:30:00.000Z'); // 22:30 in Rome
    await test.cloud.context.services.settings.update({
      FASTTRACK_FROM: '21:30',
      FASTTRACK_TO: '00:30',
      ALWAYS_SHOW_FAST_TRACK: true,
    });
    expect((await hold({ locationKey: 'areadebug', dimensione: 'large' })).status).toBe(200);
  });

  it("keeps a hold's own period when the summary saves it after its slot stopped being offered", async () => {
    await test.cloud.context.services.settings.update({ BOOKING_EXPIRATION_MINUTES: 60 });
    const window = period(TODAY, '09:15', 4);
    const held = await hold({ locationKey: 'termini', ...window });
    expect(held.status).toBe(200);
    // The summary sends the visitor's details first (a hold with no name lasts 5 minutes).
    const named = await api.patch(`/api/bookings/${held.body.transactionId}`, buildCustomerDetails());
    expect(named.status).toBe(200);
    test.clock.set('2026-03-27T08:30:00.000Z'); // 09:30: the 09:15 slot is no longer offered
    const saved = await api.post('/api/bookings/save', {
      transactionId: held.body.transactionId,
      location: 'termini',
      ...window,
      locker: { lockerId: null, size: 'standard', duration: { value: 4, unit: 'ore' } },
      reservedLockers: [],
      quantita: 1,
      note: 'lang:it',
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(201);
    // Someone else asking for that period now is refused: no slot offered now, and 4 hours from a
    // quarter of an hour ago is no start-now either.
    await expectRefused(() => hold({ locationKey: 'termini', ...window }), 'booking/duration_not_offered');
  });

  it('accepts the night wizard’s choices, up to 19:45 and 22:45', async () => {
    for (const [time, hours] of [
      ['19:45', 3],
      ['16:45', 6],
    ] as const) {
      const created = await api.post('/api/night-payments/create-night-payment', {
        locationKey: 'vicolo',
        tipoLocker: 'large',
        quantita: 1,
        ...period(TOMORROW, time, hours),
        ...TEST_NIGHT_PAYER,
      });
      expect(created.status, String(created.body).slice(0, 300)).toBe(200);
    }
  });

  it("reads each location's own zone", async () => {
    // 19:00 London + 3 hours ends at 22:00 there (23:00 in Rome).
    expect(
      (await hold({ locationKey: 'campo', ...period(TOMORROW, '19:00', 3, 'Europe/London') })).status,
    ).toBe(200);
    await expectRefused(
      () => hold({ locationKey: 'campo', ...period(TOMORROW, '19:00', 4, 'Europe/London') }),
      'booking/ends_after_closing',
    );
    // 21:30 in Rome is 20:30 in London: fast track is open at campo, closed at vicolo.
    test.clock.set('2026-03-27T20:30:00.000Z');
    expect((await hold({ locationKey: 'campo' })).status).toBe(200);
    await expectRefused(() => hold({}), 'booking/fast_track_closed');
  });
});
