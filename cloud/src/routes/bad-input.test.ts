import { errorBodySchema } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../test/test-app';

// Bad input gets a clear 4xx and changes nothing.

const WINDOW = { startTimeIso: '2026-03-27T11:00:00.000Z', endTimeIso: '2026-03-27T14:00:00.000Z' };
const HUGE = 'x'.repeat(10_000);

describe('bad requests', () => {
  const { test, api } = useTestApp(() => startTestApp());

  const occupied = async () =>
    (
      await test.store.bookings.occupancy(
        'oca',
        new Date('2026-03-01T00:00:00Z'),
        new Date('2027-01-01T00:00:00Z'),
        test.clock.now(),
      )
    ).occupations.length;

  const cases: Array<[string, string, string, unknown]> = [
    [
      'inhibit-multi, wrong types',
      'POST',
      '/api/lockers/inhibit-multi',
      { locationKey: 'oca', dimensione: 'large', quantita: '2' },
    ],
    [
      'inhibit-multi, missing size',
      'POST',
      '/api/lockers/inhibit-multi',
      { locationKey: 'oca', quantita: 1 },
    ],
    [
      'inhibit-multi, quantity 4',
      'POST',
      '/api/lockers/inhibit-multi',
      { locationKey: 'oca', dimensione: 'large', quantita: 4 },
    ],
    [
      'inhibit-multi, unknown size',
      'POST',
      '/api/lockers/inhibit-multi',
      { locationKey: 'oca', dimensione: 'huge', quantita: 1 },
    ],
    [
      'inhibit-multi, bad date',
      'POST',
      '/api/lockers/inhibit-multi',
      {
        locationKey: 'oca',
        dimensione: 'large',
        quantita: 1,
        startTimeIso: '2026-02-30T10:00:00Z',
        endTimeIso: '2026-03-01T10:00:00Z',
      },
    ],
    [
      'inhibit-multi, end before start',
      'POST',
      '/api/lockers/inhibit-multi',
      {
        locationKey: 'oca',
        dimensione: 'large',
        quantita: 1,
        startTimeIso: WINDOW.endTimeIso,
        endTimeIso: WINDOW.startTimeIso,
      },
    ],
    [
      'inhibit-multi, huge location key',
      'POST',
      '/api/lockers/inhibit-multi',
      { locationKey: HUGE, dimensione: 'large', quantita: 1 },
    ],
    ['save, missing locker', 'POST', '/api/bookings/save', { location: 'oca', ...WINDOW, quantita: 1 }],
    [
      'save, huge note',
      'POST',
      '/api/bookings/save',
      { location: 'oca', ...WINDOW, quantita: 1, locker: { size: 'standard', duration: 3 }, note: HUGE },
    ],
    [
      'save, local time without zone',
      'POST',
      '/api/bookings/save',
      {
        location: 'oca',
        startTimeIso: '2026-03-27T12:00:00',
        endTimeIso: '2026-03-27T15:00:00',
        quantita: 1,
        locker: { size: 'standard', duration: 3 },
      },
    ],
    [
      'scheduled, negative price',
      'POST',
      '/api/bookings/scheduled',
      { location_key: 'oca', ...WINDOW, tipo_locker: 'large', quantita: 1, prezzo_originale: -5 },
    ],
    [
      'customer details, bad e-mail',
      'PATCH',
      '/api/bookings/BOOKING-AAAAAAAAAAAAAAAAAAAAAA',
      { nome: 'A', cognome: 'B', email: 'not an email', conferma_email: 'x', telefono_numero: '123' },
    ],
    ['customer details, not an object', 'PATCH', '/api/bookings/BOOKING-AAAAAAAAAAAAAAAAAAAAAA', [1, 2, 3]],
    [
      'night check, missing times',
      'POST',
      '/api/night-availability/check',
      { locationKey: 'oca', tipoLocker: 'large' },
    ],
    [
      'night range, a year long',
      'POST',
      '/api/night-availability/check-range',
      { locationKey: 'oca', startTime: '2026-04-01T00:00:00Z', endTime: '2027-04-01T00:00:00Z' },
    ],
    ['discount, code with spaces inside', 'POST', '/api/discounts/validate-discount', { code: 'A B' }],
    ['discount, huge code', 'POST', '/api/discounts/validate-discount', { code: HUGE }],
  ];

  it.each(cases)('%s → 400 with a validation code, nothing reserved', async (_name, method, path, body) => {
    const before = await occupied();
    const answer = await api.raw(method, path, JSON.stringify(body));
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.body).error.code).toMatch(/^validation\//);
    expect(await occupied()).toBe(before);
  });

  it.each([
    ['/api/bookings/availability?location=oca&startDate=2026-13-01&endDate=2026-13-02'],
    ['/api/bookings/future?location=oca&startDate=2026-04-02&endDate=2026-04-01'],
    ['/api/bookings/future?location=oca'],
    ['/api/lockers/state'],
    ['/api/admin/frontend-overrides?location=NOT%20A%20KEY'],
  ])('GET %s → 400', async (path) => {
    const answer = await api.get(path);
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.body).error.code).toBe('validation/invalid_query');
  });

  it('refuses malformed JSON', async () => {
    const answer = await api.raw('POST', '/api/lockers/inhibit-multi', '{"locationKey": "oca",');
    expect(answer.status).toBe(400);
    expect(errorBodySchema.parse(answer.body).error.code).toBe('validation/invalid_body');
  });

  it('refuses bodies over 32 kB before parsing them', async () => {
    const answer = await api.raw('POST', '/api/bookings/save', JSON.stringify({ note: 'x'.repeat(40_000) }));
    expect(answer.status).toBe(413);
    expect(errorBodySchema.parse(answer.body).error.code).toBe('request/too_large');
  });

  it('answers unknown locations and ids with 404s, unknown paths too', async () => {
    expect((await api.get('/api/locations/nowhere')).status).toBe(404);
    const hold = await api.post('/api/lockers/inhibit-multi', {
      locationKey: 'nowhere',
      dimensione: 'large',
      quantita: 1,
    });
    expect(errorBodySchema.parse(hold.body).error.code).toBe('location/not_found');
    expect((await api.get('/api/bookings/not-an-id!')).status).toBe(400);
    const missing = await api.get('/api/no-such-thing');
    expect(missing.status).toBe(404);
    expect(errorBodySchema.parse(missing.body).error.code).toBe('route/not_found');
  });

  it('keeps admin endpoints closed to visitors', async () => {
    const answer = await api.get('/api/locations/all');
    expect(answer.status).toBe(401);
    expect(errorBodySchema.parse(answer.body).error.code).toBe('auth/unauthorized');
  });
});
