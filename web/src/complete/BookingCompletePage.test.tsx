import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../../test/render-app';
import { apiError, fakeApi, htmlPage } from '../../test/fake-api';
import { buildPublicLocation } from '../../test/builders';
import { PAYMENT_POLL_ATTEMPTS, PAYMENT_POLL_INTERVAL_MS } from './use-completed-booking';

const ID = 'BOOKING-abcdefghijklmnopqrstuvwx';
const READ_BACK = `GET /api/bookings/${ID}`;

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
    total: 16,
    status: 'confirmed',
    pin: '482913',
    note: 'lang:en',
    ...overrides,
  };
}

/** An unpaid hold as the server reads it back: lockers held, no PIN. */
function hold(status: string, overrides: Record<string, unknown> = {}) {
  return readBack({ status, pin: null, note: 'lang:it', ...overrides });
}

const CAMPO = buildPublicLocation({
  key: 'campo',
  nome: 'Deposito Campo – Camden',
  timezone: 'Europe/London',
});

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:payment') }));
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

/** The value after a label in the recap list, spaces as plain spaces (money has a no-break space). */
const valueAfter = (label: string) =>
  screen.getByText(label).nextElementSibling?.textContent?.replace(/\s/g, ' ');

/** The path the router shows (test/render-app's probe). */
const currentPath = () => screen.getByTestId('path').textContent;

describe('booking complete page', () => {
  it('shows the cancelled payment page without parameters', async () => {
    fakeApi({});
    await renderApp({ path: '/booking-complete' });
    expect(await screen.findByRole('heading', { name: 'Pagamento annullato' })).toBeDefined();
    // Somewhere to go on from here.
    expect(screen.getByRole('link', { name: 'Prenota di nuovo' }).getAttribute('href')).toBe('/');
  });

  it('shows the confirmation in the booking language and the location zone', async () => {
    fakeApi({ [READ_BACK]: readBack(), 'GET /api/locations/campo': CAMPO });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: 'Booking confirmed' })).toBeDefined();
    expect(screen.getByText('Amy Smith')).toBeDefined();
    expect(screen.getByText('amy@example.co.uk')).toBeDefined();
    expect(screen.getByText('2 × Large')).toBeDefined();
    expect(screen.getByText('12, 13')).toBeDefined();
    expect(screen.getByText('482913')).toBeDefined();
    // The discounted price, and the amount charged: the server's total.
    expect(screen.getByText('€15.50')).toBeDefined();
    expect(screen.getByText('€16.00')).toBeDefined();
    expect(screen.queryByText(/Minimum chargeable amount/)).toBeNull();
    // 09:00 UTC is 10:00 in London in July.
    expect(screen.getByText(/10:00/)).toBeDefined();
  });

  it('says the amount paid is the total charged, raised to the 1 € minimum', async () => {
    // FIVEOFF on a cheap locker: nothing left of the price, the 0,50 € fee raised to 1 €.
    fakeApi({
      [READ_BACK]: readBack({ status: 'confirmed_late', price_discounted: 0, total: 1, note: 'lang:it' }),
      'GET /api/locations/campo': CAMPO,
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: 'Prenotazione confermata' })).toBeDefined();
    expect(valueAfter('Importo pagato')).toBe('1,00 €');
    expect(screen.getByText('Importo minimo addebitabile: 1,00 €')).toBeDefined();
    expect(screen.getByText('482913')).toBeDefined();
  });

  it('falls back to the discounted price plus the fee when the server sends no total', async () => {
    const { total: _total, ...older } = readBack({ note: 'lang:it' });
    fakeApi({ [READ_BACK]: older, 'GET /api/locations/campo': CAMPO });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    await screen.findByRole('heading', { name: 'Prenotazione confermata' });
    expect(valueAfter('Importo pagato')).toBe('16,00 €');
  });

  it('reads the encrypted return parameters and says when PIN and locker come later', async () => {
    const api = fakeApi({
      'POST /api/payments/decrypt': { shopTransactionId: ID },
      [READ_BACK]: readBack({
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
    expect(screen.getByRole('heading', { name: 'Prenotazione confermata' })).toBeDefined();
    expect(api.callsTo('POST', '/api/payments/decrypt')[0]!.body).toEqual({ a: 'AAA', b: 'BBB' });
  });

  it('says an old return link has expired and where the booking is now, naming no booking', async () => {
    fakeApi({ 'POST /api/payments/decrypt': () => apiError(410, 'payment/result_expired') });
    await renderApp({ path: '/booking-complete?a=AAA&b=OLD' });
    expect(await screen.findByRole('heading', { name: 'Link scaduto' })).toBeDefined();
    expect(
      screen.getByText(/trovi i dettagli della prenotazione e il PIN nell'email di conferma/),
    ).toBeDefined();
    expect(screen.getByRole('link', { name: 'Prenota di nuovo' }).getAttribute('href')).toBe('/');
  });

  it('says when the booking does not exist', async () => {
    fakeApi({ [READ_BACK]: () => apiError(404, 'BOOKING_NOT_FOUND') });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: 'Prenotazione non trovata' })).toBeDefined();
    expect(screen.getByRole('link', { name: 'Prenota di nuovo' }).getAttribute('href')).toBe('/');
  });
});

describe('a declined card', () => {
  it('says nothing was charged and offers to pay again, never "confirmed"', async () => {
    fakeApi({
      'POST /api/payments/decrypt': { shopTransactionId: ID },
      [READ_BACK]: hold('payment_declined'),
      'GET /api/locations/campo': CAMPO,
    });
    await renderApp({ path: '/booking-complete?declined=1&a=AAA&b=BBB' });
    expect(await screen.findByRole('heading', { name: 'Pagamento rifiutato' })).toBeDefined();
    expect(screen.getByText(/La carta è stata rifiutata e non ti è stato addebitato nulla/)).toBeDefined();
    expect(valueAfter('Importo da pagare')).toBe('16,00 €');
    expect(screen.getByRole('button', { name: 'Riprova il pagamento' })).toBeDefined();
    expect(screen.queryByText(/confermata|Importo pagato|PIN/)).toBeNull();
  });

  it('opens the payment page the retry answers, after 500 ms like the summary', async () => {
    const api = fakeApi({
      [READ_BACK]: hold('payment_declined'),
      'GET /api/locations/campo': CAMPO,
      'POST /api/payments/retry': () => htmlPage('<html><body>gateway</body></html>'),
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(await screen.findByRole('button', { name: 'Riprova il pagamento' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/payments/retry')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/payments/retry')[0]!.body).toEqual({ transactionId: ID });
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Attendere…' })).toHaveProperty('disabled', true),
    );
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(500);
    });
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
  });

  it('shows the expiry and the way back to the start when the retry finds the hold lapsed', async () => {
    fakeApi({
      [READ_BACK]: hold('payment_declined', { note: 'lang:it;night' }),
      'GET /api/locations/campo': CAMPO,
      'POST /api/payments/retry': () => apiError(409, 'BOOKING_EXPIRED', 'The booking has expired'),
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Riprova il pagamento' }));
    expect(await screen.findByRole('heading', { name: 'Prenotazione scaduta' })).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Riprova il pagamento' })).toBeNull();
    // A night booking starts again in the night wizard of its location.
    fireEvent.click(screen.getByRole('link', { name: 'Prenota di nuovo' }));
    await waitFor(() => expect(currentPath()).toBe('/booking-notte/campo'));
  });

  it('reads the booking again when the retry finds it is no longer a hold', async () => {
    const api = fakeApi({
      [READ_BACK]: hold('payment_declined'),
      'GET /api/locations/campo': CAMPO,
      'POST /api/payments/retry': () => apiError(409, 'booking/invalid_state'),
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    const retry = await screen.findByRole('button', { name: 'Riprova il pagamento' });
    // Paid meanwhile (a late result from the gateway).
    api.set(READ_BACK, readBack({ note: 'lang:it' }));
    fireEvent.click(retry);
    expect(await screen.findByRole('heading', { name: 'Prenotazione confermata' })).toBeDefined();
    expect(screen.getByText('482913')).toBeDefined();
  });

  it('explains a retry the provider could not open and lets the visitor try again', async () => {
    fakeApi({
      [READ_BACK]: hold('payment_declined'),
      'GET /api/locations/campo': CAMPO,
      'POST /api/payments/retry': () => apiError(502, 'payment/provider_error'),
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    fireEvent.click(await screen.findByRole('button', { name: 'Riprova il pagamento' }));
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Il circuito di pagamento non risponde. Riprova tra poco.',
    );
    expect(screen.getByRole('button', { name: 'Riprova il pagamento' })).toHaveProperty('disabled', false);
  });

  it.each([
    ['en', 'Payment declined', 'Try again'],
    ['es', 'Pago rechazado', 'Reintentar el pago'],
    ['jp', 'お支払いが拒否されました', 'もう一度支払う'],
  ])('speaks the booking language: %s', async (lng, title, button) => {
    fakeApi({
      [READ_BACK]: hold('payment_declined', { note: `lang:${lng}` }),
      'GET /api/locations/campo': CAMPO,
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: title })).toBeDefined();
    expect(screen.getByRole('button', { name: button })).toBeDefined();
  });
});

describe('a payment being processed', () => {
  it('reads the booking every 2 s until the result arrives', async () => {
    const api = fakeApi({ [READ_BACK]: hold('paying'), 'GET /api/locations/campo': CAMPO });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: 'Pagamento in corso' })).toBeDefined();
    expect(screen.queryByText(/confermata/)).toBeNull();
    expect(api.callsTo('GET', `/api/bookings/${ID}`)).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_INTERVAL_MS));
    expect(api.callsTo('GET', `/api/bookings/${ID}`)).toHaveLength(2);
    expect(screen.getByRole('heading', { name: 'Pagamento in corso' })).toBeDefined();

    api.set(READ_BACK, readBack({ note: 'lang:it' }));
    await act(() => vi.advanceTimersByTimeAsync(PAYMENT_POLL_INTERVAL_MS));
    expect(await screen.findByRole('heading', { name: 'Prenotazione confermata' })).toBeDefined();
    expect(screen.getByText('482913')).toBeDefined();
    // Settled: no more reads.
    await act(() => vi.advanceTimersByTimeAsync(5 * PAYMENT_POLL_INTERVAL_MS));
    expect(api.callsTo('GET', `/api/bookings/${ID}`)).toHaveLength(3);
  });

  it('after about 30 s says to look for the e-mail, and checks again on request', async () => {
    const api = fakeApi({ [READ_BACK]: hold('paying'), 'GET /api/locations/campo': CAMPO });
    vi.useFakeTimers({ shouldAdvanceTime: true });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    await screen.findByRole('heading', { name: 'Pagamento in corso' });
    expect(PAYMENT_POLL_ATTEMPTS * PAYMENT_POLL_INTERVAL_MS).toBe(30_000);
    await act(() => vi.advanceTimersByTimeAsync(30_000));
    expect(await screen.findByText(/Non abbiamo ancora ricevuto l'esito del pagamento/)).toBeDefined();
    expect(api.callsTo('GET', `/api/bookings/${ID}`)).toHaveLength(1 + PAYMENT_POLL_ATTEMPTS);
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(api.callsTo('GET', `/api/bookings/${ID}`)).toHaveLength(1 + PAYMENT_POLL_ATTEMPTS);

    api.set(READ_BACK, hold('payment_declined'));
    fireEvent.click(screen.getByRole('button', { name: 'Controlla di nuovo' }));
    expect(await screen.findByRole('heading', { name: 'Pagamento rifiutato' })).toBeDefined();
  });
});

describe('bookings that are not paid and honoured', () => {
  it.each([
    ['expired', 'Prenotazione scaduta', /Il tempo per completare il pagamento è scaduto/],
    ['cancelled', 'Prenotazione annullata', /è stata annullata e non è più valida/],
    ['cancelled_by_operator', 'Prenotazione annullata', /è stata annullata e non è più valida/],
    ['failed_after_payment', 'Prenotazione non valida', /Ti rimborseremo l'importo pagato/],
    ['refund_due', 'Prenotazione non valida', /Ti rimborseremo l'importo pagato/],
    ['pending', 'Pagamento non completato', /non è stata pagata/],
  ])('%s: says so, with no PIN and no confirmation', async (status, title, text) => {
    fakeApi({
      [READ_BACK]: hold(status, { reservedLockers: [] }),
      'GET /api/locations/campo': CAMPO,
    });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('heading', { name: title })).toBeDefined();
    expect(screen.getByText(text)).toBeDefined();
    expect(screen.queryByText(/confermata|PIN|Importo pagato/)).toBeNull();
    expect(screen.queryByRole('button', { name: 'Riprova il pagamento' })).toBeNull();
  });

  it('gives the booking code to quote when money is owed back', async () => {
    fakeApi({ [READ_BACK]: hold('failed_after_payment'), 'GET /api/locations/campo': CAMPO });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    await screen.findByRole('heading', { name: 'Prenotazione non valida' });
    expect(valueAfter('Codice prenotazione')).toBe(ID);
  });

  it('sends an expired daytime booking back to its location page', async () => {
    fakeApi({ [READ_BACK]: hold('expired'), 'GET /api/locations/campo': CAMPO });
    await renderApp({ path: `/booking-complete?transactionId=${ID}` });
    expect(await screen.findByRole('link', { name: 'Prenota di nuovo' })).toHaveProperty(
      'href',
      'http://localhost:3000/campo',
    );
  });
});
