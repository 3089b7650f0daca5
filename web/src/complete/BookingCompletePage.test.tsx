import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen } from '@testing-library/react';
import { renderApp } from '../../test/render-app';
import { apiError, fakeApi } from '../../test/fake-api';
import { buildPublicLocation } from '../../test/builders';

const ID = 'BOOKING-abcdefghijklmnopqrstuvwx';

function readBack(overrides: Record<string, unknown> = {}) {
  return {
    transactionId: ID,
    location: 'campo',
    nome: 'Amy',
    cognome: 'Smith',
    email: 'amy@example.co.uk',
    lockerType: 'large',
    quantita: 2,
    reservedLockers: [12, 13],
    startTimeIso: '2026-07-01T09:00:00.000Z',
    endTimeIso: '2026-07-01T13:00:00.000Z',
    price_discounted: 15.5,
    status: 'confirmed',
    pin: '482913',
    note: 'lang:en',
    ...overrides,
  };
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('booking complete page', () => {
  it('shows the cancelled payment page without parameters', async () => {
    fakeApi({});
    await renderApp({ path: '/booking-complete' });
    expect(await screen.findByRole('heading', { name: 'Pagamento annullato' })).toBeDefined();
  });

  it('shows the confirmation in the booking language and the location zone', async () => {
    fakeApi({
      [`GET /api/bookings/${ID}`]: readBack(),
      'GET /api/locations/campo': buildPublicLocation({
        key: 'campo',
        nome: 'Deposito Campo – Camden',
        timezone: 'Europe/London',
      }),
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: 'Booking confirmed' })).toBeDefined();
    expect(screen.getByText('Amy Smith')).toBeDefined();
    expect(screen.getByText('amy@example.co.uk')).toBeDefined();
    expect(screen.getByText('2 × Large')).toBeDefined();
    expect(screen.getByText('12, 13')).toBeDefined();
    expect(screen.getByText('482913')).toBeDefined();
    // The discounted price, and the amount charged: that plus the 0.50 € service fee.
    expect(screen.getByText('€15.50')).toBeDefined();
    expect(screen.getByText('€16.00')).toBeDefined();
    // 09:00 UTC is 10:00 in London in July.
    expect(screen.getByText(/10:00/)).toBeDefined();
  });

  it('reads the encrypted return parameters and says when PIN and locker come later', async () => {
    const api = fakeApi({
      'POST /api/payments/decrypt': { shopTransactionId: ID },
      [`GET /api/bookings/${ID}`]: readBack({
        status: 'scheduled',
        pin: null,
        reservedLockers: [],
        note: 'lang:it',
      }),
      'GET /api/locations/campo': () => apiError(500, 'internal'),
    });
    await renderApp({ path: '/booking-completa?a=AAA&b=BBB' });
    expect(
      await screen.findByText(
        'Il PIN e il numero del locker ti verranno assegnati e inviati il giorno della prenotazione.',
      ),
    ).toBeDefined();
    expect(api.callsTo('POST', '/api/payments/decrypt')[0]!.body).toEqual({ a: 'AAA', b: 'BBB' });
  });

  it('says when the booking does not exist', async () => {
    fakeApi({ [`GET /api/bookings/${ID}`]: () => apiError(404, 'BOOKING_NOT_FOUND') });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: 'Prenotazione non trovata' })).toBeDefined();
  });
});
