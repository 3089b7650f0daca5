import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp } from '../../test/render-app';
import { apiError, fakeApi, htmlPage } from '../../test/fake-api';
import { buildOverrides, buildPublicLocation } from '../../test/builders';
import { chooseStartAndDuration, chooseStartBetween } from '../../test/wizard-steps';

// 10:00 in Rome on 1 July 2026: inside the fast-track hours, today still bookable.
const NOW = new Date('2026-07-01T08:00:00Z');
const HOLD_ID = 'BOOKING-abcdefghijklmnopqrstuvwx';

function baseApi(overrides = buildOverrides()) {
  return fakeApi({
    'GET /api/locations/vicolo': buildPublicLocation(),
    'GET /api/admin/frontend-overrides': overrides,
    'GET /api/bookings/availability': (call: { query: URLSearchParams }) => {
      const day = call.query.get('startDate')!.slice(0, 10);
      return { [day]: { standard: 4, large: 0 } };
    },
    'GET /api/bookings/future': { '2026-07-10': { standard: 1, large: 2 } },
    'POST /api/lockers/inhibit-multi': {
      success: true,
      reservedLockers: [3, 4],
      transactionId: HOLD_ID,
      expiresAt: '2026-07-01T08:15:00Z',
    },
    'PATCH /api/bookings/BOOKING-abcdefghijklmnopqrstuvwx': { success: true },
    'POST /api/bookings/save': {
      success: true,
      transactionId: HOLD_ID,
      status: 'pending',
      expiresAt: '2026-07-01T08:15:00Z',
    },
    'POST /api/payments/create-payment': () => htmlPage(),
    'POST /api/bookings/BOOKING-abcdefghijklmnopqrstuvwx/cancel': { success: true },
    'POST /api/discounts/validate-discount': {
      valid: true,
      type: 'percent',
      value: 10,
      message: 'Sconto del 10%',
    },
  });
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

async function openCalendar() {
  fireEvent.click(await screen.findByRole('button', { name: 'Prenota un locker' }));
  return screen.findByLabelText('Data');
}

/** From the first screen to the sizes: today (the calendar's first day) at 11:00 for 3 hours. */
async function chooseTodayElevenForThreeHours() {
  await openCalendar();
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
  await chooseStartAndDuration('11:00', 'hours:3');
}

/** Opens /vicolo and books to the summary: today at 11:00 for 4 hours, two standard lockers. */
async function goToSummary(api: ReturnType<typeof fakeApi>) {
  await renderApp({ path: '/vicolo', now: NOW });
  const dateInput = await openCalendar();
  expect(dateInput).toHaveProperty('min', '2026-07-01');
  expect(dateInput).toHaveProperty('max', '2027-01-01');
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));

  const time = await screen.findByLabelText('Orario di inizio');
  // Next quarter after 10:00 is 10:15; the last daytime slot is 20:00.
  chooseStartBetween(time, '10:15', '20:00', '11:00');

  const duration = await screen.findByLabelText('Durata');
  fireEvent.change(duration, { target: { value: 'hours:4' } });
  expect(screen.getByText(/Ritiro entro:/).textContent).toContain('15:00');
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));

  const standard = await screen.findByRole('button', { name: /Standard/ });
  expect(screen.getByRole('button', { name: /Grande/ })).toHaveProperty('disabled', true);
  expect(api.callsTo('GET', '/api/bookings/availability').at(-1)!.query.get('startDate')).toBe(
    '2026-07-01T09:00:00.000Z',
  );
  fireEvent.click(standard);

  const quantityButtons = await screen.findAllByRole('button', { name: /locker$/ });
  expect(quantityButtons.map((button) => button.textContent)).toEqual(['1locker', '2locker', '3locker']);
  fireEvent.click(quantityButtons[1]!);
  await screen.findByRole('heading', { name: 'Riepilogo e pagamento' });
}

function fillCustomer() {
  fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Giulia' } });
  fireEvent.change(screen.getByLabelText('Cognome'), { target: { value: "D'Amico" } });
  fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'giulia@example.com' } });
  fireEvent.change(screen.getByLabelText('Conferma email'), { target: { value: 'giulia@example.com' } });
  fireEvent.change(screen.getByRole('textbox', { name: 'Telefono' }), { target: { value: '3331234567' } });
}

/** Fills in the visitor's details and presses Pay. */
function payAsCustomer() {
  fillCustomer();
  fireEvent.click(screen.getByRole('button', { name: 'Paga ora' }));
}

describe('daytime flow', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:payment') }));
  });

  it('books on desktop: calendar, time, duration, size, quantity, summary and payment', async () => {
    const api = baseApi();
    await goToSummary(api);

    const hold = api.callsTo('POST', '/api/lockers/inhibit-multi')[0]!;
    expect(hold.body).toEqual({
      locationKey: 'vicolo',
      dimensione: 'standard',
      quantita: 2,
      startTimeIso: '2026-07-01T09:00:00.000Z',
      endTimeIso: '2026-07-01T13:00:00.000Z',
    });

    // 2 × 6,00 € for 4 hours, plus the 0,50 € fee.
    const prices = screen.getByRole('table', { name: 'Dettaglio prezzo' });
    expect(within(prices).getByRole('row', { name: /^Prezzo/ }).textContent).toContain('12,00');
    expect(within(prices).getByRole('row', { name: /Commissione/ }).textContent).toContain('0,50');
    expect(within(prices).getByRole('row', { name: /Totale/ }).textContent).toContain('12,50');
    expect(screen.getByRole('heading', { name: 'Deposito Vicolo – Trastevere' })).toBeDefined();
    expect(screen.getAllByText('2 × Standard').length).toBeGreaterThan(0);

    fillCustomer();
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fireEvent.click(screen.getByRole('button', { name: 'Paga ora' }));
    await waitFor(() => expect(api.callsTo('POST', '/api/payments/create-payment')).toHaveLength(1));

    expect(api.callsTo('PATCH', `/api/bookings/${HOLD_ID}`)[0]!.body).toMatchObject({
      nome: 'Giulia',
      cognome: "D'Amico",
      email: 'giulia@example.com',
      conferma_email: 'giulia@example.com',
      telefono_prefisso: '+39',
      telefono_numero: '3331234567',
      note: 'lang:it',
    });
    expect(api.callsTo('POST', '/api/bookings/save')[0]!.body).toMatchObject({
      transactionId: HOLD_ID,
      location: 'vicolo',
      locker: { lockerId: 3, size: 'standard', duration: { value: 4, unit: 'h' } },
      reservedLockers: [3, 4],
      quantita: 2,
    });
    expect(api.callsTo('POST', '/api/payments/create-payment')[0]!.body).toMatchObject({
      currency: 'EUR',
      amount: 1250,
      transactionId: HOLD_ID,
      telefono: '+393331234567',
    });
    // The provider's page opens after 500 ms.
    expect(URL.createObjectURL).not.toHaveBeenCalled();
    await act(async () => {
      vi.advanceTimersByTime(500);
    });
    expect(URL.createObjectURL).toHaveBeenCalledTimes(1);
  });

  it('shows live messages and refuses to pay with invalid details', async () => {
    const api = baseApi();
    await goToSummary(api);

    const name = screen.getByLabelText('Nome');
    fireEvent.blur(name);
    expect(await screen.findByText('Inserisci il nome (solo lettere).')).toBeDefined();
    expect(name.getAttribute('aria-describedby')).toBe('customer-name-error');

    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'a b@example.com' } });
    fireEvent.blur(screen.getByLabelText('Email'));
    expect(await screen.findByText("L'email non è valida.")).toBeDefined();

    fireEvent.click(screen.getByRole('button', { name: 'Paga ora' }));
    expect(
      await screen.findByText(
        'Controlla i dati inseriti: nome, cognome, email e telefono devono essere validi.',
      ),
    ).toBeDefined();
    expect(screen.getByText('Compila tutti i campi obbligatori.')).toBeDefined();
    expect(api.callsTo('PATCH', `/api/bookings/${HOLD_ID}`)).toHaveLength(0);
  });

  it('applies a discount code with protocol totals and reports a network failure', async () => {
    const api = baseApi();
    await goToSummary(api);

    fireEvent.change(screen.getByLabelText('Codice sconto'), { target: { value: '  ESTATE10 ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Applica' }));
    const message = await screen.findByText('Sconto del 10%');
    expect(message.className).toBe('text-ok');
    expect(api.callsTo('POST', '/api/discounts/validate-discount')[0]!.body).toEqual({
      code: 'ESTATE10',
      duration: { value: 4, unit: 'h' },
      location: 'vicolo',
    });
    const prices = screen.getByRole('table', { name: 'Dettaglio prezzo' });
    expect(within(prices).getByRole('row', { name: /^Sconto/ }).textContent).toContain('1,20');
    expect(within(prices).getByRole('row', { name: /Totale/ }).textContent).toContain('11,30');

    api.set('POST /api/discounts/validate-discount', () => {
      throw new TypeError('Failed to fetch');
    });
    fireEvent.click(screen.getByRole('button', { name: 'Applica' }));
    const failure = await screen.findByText('Errore di rete o del server. Riprova.');
    expect(failure.className).toBe('text-error');
    expect(within(prices).queryByRole('row', { name: /^Sconto/ })).toBeNull();
  });

  // The server says the hold lapsed when paying or when saving the details: the visitor reads it in
  // their language, never the server's English nor "could not save", and cannot pay.
  it.each([
    [
      'disables payment when the server says the booking expired',
      'POST /api/payments/create-payment',
      /The booking has expired/,
    ],
    [
      'says the hold lapsed (not "could not save") when the server says so while saving the details',
      `PATCH /api/bookings/${HOLD_ID}`,
      /Non siamo riusciti a salvare i tuoi dati/,
    ],
  ])('%s', async (_name, refusing, notShown) => {
    const api = baseApi();
    api.set(refusing, () => apiError(409, 'BOOKING_EXPIRED', 'The booking has expired'));
    await goToSummary(api);
    payAsCustomer();
    expect(
      await screen.findByText(
        /Il tempo per completare la prenotazione è scaduto e i locker sono stati liberati/,
      ),
    ).toBeDefined();
    expect(screen.queryByText(notShown)).toBeNull();
    expect(screen.getByRole('button', { name: 'Paga ora' })).toHaveProperty('disabled', true);
  });

  it('shows the time left to pay beside Pay, read from the hold', async () => {
    const api = baseApi();
    await goToSummary(api);
    // Each step names the tab after itself.
    expect(document.title).toMatch(/ · Deposito$/);
    expect(document.title).not.toBe('Prenota il tuo locker · Deposito');
    // The language can be changed here too, not only on the first screen.
    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Summary and payment' })).toBeDefined();
    expect(screen.getByRole('timer').textContent).toMatch(/^1[45]:\d{2}$/);
  });

  it("puts the server's cancellation policy in the terms", async () => {
    const api = baseApi(buildOverrides({ cancellationPolicy: 'until_start' }));
    await goToSummary(api);
    fireEvent.click(screen.getByRole('button', { name: "termini e condizioni e l'informativa privacy" }));
    const dialog = await screen.findByRole('dialog', { name: 'Termini e condizioni' });
    expect(
      within(dialog).getByText(/Puoi annullare gratuitamente fino all’inizio, con rimborso completo/),
    ).toBeDefined();
  });

  it('shows the total raised to the 1 € minimum charge when a discount leaves only the fee', async () => {
    const api = baseApi();
    api.set('POST /api/discounts/validate-discount', {
      valid: true,
      type: 'euro',
      value: 50,
      message: 'Sconto di 50 €',
    });
    await goToSummary(api);
    const prices = screen.getByRole('table', { name: 'Dettaglio prezzo' });
    expect(within(prices).queryByText(/Importo minimo addebitabile/)).toBeNull();

    fireEvent.change(screen.getByLabelText('Codice sconto'), { target: { value: 'FIFTY' } });
    fireEvent.click(screen.getByRole('button', { name: 'Applica' }));
    await screen.findByText('Sconto di 50 €');
    expect(within(prices).getByRole('row', { name: /Prezzo scontato/ }).textContent).toContain('0,00');
    expect(within(prices).getByRole('row', { name: /Totale/ }).textContent).toContain('1,00');
    expect(within(prices).getByText('Importo minimo addebitabile: 1,00 €')).toBeDefined();

    payAsCustomer();
    await waitFor(() => expect(api.callsTo('POST', '/api/payments/create-payment')).toHaveLength(1));
    expect(api.callsTo('POST', '/api/payments/create-payment')[0]!.body).toMatchObject({ amount: 100 });
  });

  it('offers to start again when a payment page is already open for the hold', async () => {
    const api = baseApi();
    api.set(`PATCH /api/bookings/${HOLD_ID}`, () => apiError(409, 'booking/payment_started'));
    // Starting again opens the first screen afresh, without the step in the address.
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: 'http://localhost/vicolo?step=summary', replace });
    await goToSummary(api);
    payAsCustomer();
    expect(
      await screen.findByText(
        'Il pagamento di questa prenotazione è già stato avviato: per cambiarla ricomincia.',
      ),
    ).toBeDefined();
    expect(screen.queryByRole('button', { name: 'Paga ora' })).toBeNull();
    expect(api.callsTo('POST', '/api/payments/create-payment')).toHaveLength(0);

    fireEvent.click(screen.getByRole('button', { name: 'Ricomincia' }));
    await waitFor(() => expect(replace).toHaveBeenCalledWith('http://localhost/vicolo'));
    expect(window.sessionStorage.length).toBe(0);
    expect(api.callsTo('POST', `/api/bookings/${HOLD_ID}/cancel`)).toHaveLength(1);
  });

  it('lets the visitor pay again when the browser restores the summary after the payment page', async () => {
    const api = baseApi();
    await goToSummary(api);
    payAsCustomer();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Attendere…' })).toBeDefined());
    act(() => {
      window.dispatchEvent(Object.assign(new Event('pageshow'), { persisted: true }));
    });
    expect(screen.getByRole('button', { name: 'Paga ora' })).toHaveProperty('disabled', false);
  });

  it('moves on from the start time only when asked: arrowing through the list changes nothing else', async () => {
    baseApi();
    await renderApp({ path: '/vicolo', now: NOW });
    await openCalendar();
    fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
    const time = await screen.findByLabelText('Orario di inizio');
    expect(screen.getByRole('button', { name: 'Continua' })).toHaveProperty('disabled', true);
    // What one ArrowDown does in a closed select: the value changes, the step stays.
    fireEvent.change(time, { target: { value: '10:15' } });
    expect(screen.getByLabelText('Orario di inizio')).toBe(time);
    expect(screen.queryByLabelText('Durata')).toBeNull();
    fireEvent.change(time, { target: { value: '11:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
    expect(await screen.findByLabelText('Durata')).toBeDefined();
  });

  it('says where the lockers are and when they open on the first screen', async () => {
    baseApi();
    await renderApp({ path: '/vicolo', now: NOW });
    const idle = await screen.findByRole('region', { name: 'Prenota il tuo locker' });
    const location = buildPublicLocation();
    expect(idle.textContent).toContain(location.indirizzo);
    expect(idle.textContent).toContain(
      `Orari di apertura: ${location.orari.apertura}–${location.orari.chiusura}`,
    );
  });

  it("shows each size's inside measurements when the operators set them", async () => {
    baseApi(buildOverrides({ lockerDimensions: { standard: '35 × 45 × 60 cm', large: '' } }));
    await renderApp({ path: '/vicolo', now: NOW });
    await chooseTodayElevenForThreeHours();
    const standard = await screen.findByRole('button', { name: /Standard/ });
    expect(standard.textContent).toContain('Misure interne: 35 × 45 × 60 cm');
    // None written for the large lockers: nothing said.
    expect(screen.getByRole('button', { name: /Grande/ }).textContent).not.toContain('Misure interne');
  });

  it('goes back step by step, and back from the sizes clears the duration', async () => {
    const api = baseApi();
    await renderApp({ path: '/vicolo', now: NOW });
    await chooseTodayElevenForThreeHours();
    await screen.findByRole('heading', { name: 'Scegli la dimensione' });
    // The heading takes focus once the step is drawn (the address moves in the same update).
    await waitFor(() => expect(document.activeElement?.textContent).toBe('Scegli la dimensione'));

    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    const duration = await screen.findByLabelText('Durata');
    expect((duration as HTMLSelectElement).value).toBe('');
    expect(screen.queryByText(/Ritiro entro:/)).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    await screen.findByLabelText('Orario di inizio');
    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    await screen.findByLabelText('Data');
    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    await screen.findByRole('button', { name: 'Prenota un locker' });
    expect(api.callsTo('POST', '/api/lockers/inhibit-multi')).toHaveLength(0);
  });

  it('says when the chosen day has no lockers, and uses the future endpoint for later days', async () => {
    const api = baseApi();
    api.set('GET /api/bookings/future', { '2026-07-10': { standard: 0, large: 0 } });
    await renderApp({ path: '/vicolo', now: NOW });
    const date = await openCalendar();
    fireEvent.change(date, { target: { value: '2026-07-10' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
    expect(
      await screen.findByText('Non ci sono locker disponibili per questa data. Scegli un altro giorno.'),
    ).toBeDefined();
    expect(api.callsTo('GET', '/api/bookings/future')[0]!.query.get('startDate')).toBe('2026-07-10');
    expect(api.callsTo('GET', '/api/bookings/availability')).toHaveLength(0);

    api.set('GET /api/bookings/future', () => apiError(500, 'internal'));
    fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
    expect(await screen.findByText('Errore nel verificare la disponibilità. Riprova.')).toBeDefined();
  });

  it('cancels the held booking from the summary', async () => {
    const api = baseApi();
    // Starting again opens the first screen afresh, without the step in the address.
    const replace = vi.fn();
    vi.stubGlobal('location', { ...window.location, href: 'http://localhost/vicolo?step=summary', replace });
    await goToSummary(api);
    fireEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    await waitFor(() => expect(replace).toHaveBeenCalledWith('http://localhost/vicolo'));
    expect(window.sessionStorage.length).toBe(0);
    expect(api.callsTo('POST', `/api/bookings/${HOLD_ID}/cancel`)).toHaveLength(1);
  });
});

describe('idle screen', () => {
  it('shows the maintenance screen in maintenance mode and during a block window', async () => {
    fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides({ MAINTENANCE_MODE: true }),
    });
    await renderApp({ path: '/vicolo', now: NOW });
    expect(await screen.findByRole('heading', { name: 'Servizio in manutenzione' })).toBeDefined();
    cleanup();

    fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides({
        BLOCK_WINDOWS: [{ from: '09:30', to: '10:30' }],
      }),
    });
    await renderApp({ path: '/vicolo', now: NOW });
    expect(await screen.findByRole('heading', { name: 'Servizio in manutenzione' })).toBeDefined();
  });

  it("shows the maintenance screen when this site's bookings are paused, on the day and night pages", async () => {
    for (const path of ['/vicolo', '/booking-notte/vicolo']) {
      fakeApi({
        'GET /api/locations/vicolo': buildPublicLocation({ manutenzione: true }),
        'GET /api/admin/frontend-overrides': buildOverrides(),
      });
      await renderApp({ path, now: NOW });
      expect(await screen.findByRole('heading', { name: 'Servizio in manutenzione' })).toBeDefined();
      cleanup();
    }
  });

  it('shows an error screen with a reload button when the location cannot be loaded', async () => {
    fakeApi({
      'GET /api/locations/vicolo': () => apiError(500, 'internal'),
      'GET /api/admin/frontend-overrides': buildOverrides(),
    });
    await renderApp({ path: '/vicolo', now: NOW });
    expect(await screen.findByRole('button', { name: 'Ricarica la pagina' })).toBeDefined();
  });

  it('sends visitors to the night wizard outside the fast-track hours', async () => {
    fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides(),
    });
    // 22:30 in Rome.
    await renderApp({ path: '/vicolo', now: new Date('2026-07-01T20:30:00Z') });
    fireEvent.click(await screen.findByRole('button', { name: 'Prenota un locker' }));
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/booking-notte/vicolo'));
  });

  it('never offers start now outside the fast-track hours, even when the query asks for it', async () => {
    const api = fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides({ ALWAYS_SHOW_FAST_TRACK: true }),
      'POST /api/bookings/immediate': { locker: { size: 'large', lockerId: 7 }, duration: 3, price: 7 },
    });
    // 22:30 in Rome, after the fast-track hours (06:00–21:00).
    await renderApp({ path: '/vicolo?showStartOptions=1', now: new Date('2026-07-01T20:30:00Z') });
    const book = await screen.findByRole('button', { name: 'Prenota un locker' });
    expect(screen.queryByRole('button', { name: 'Inizia ora' })).toBeNull();
    fireEvent.click(book);
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/booking-notte/vicolo'));
    expect(api.callsTo('POST', '/api/bookings/immediate')).toHaveLength(0);
  });

  it("explains the server's refusal of start now in the visitor's language", async () => {
    fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides(),
      // The operator shortened the fast-track hours since the page loaded.
      'POST /api/bookings/immediate': () =>
        apiError(
          400,
          'booking/fast_track_closed',
          "La prenotazione immediata non è disponibile a quest'ora.",
        ),
    });
    await renderApp({ path: '/vicolo?showStartOptions=1', now: NOW });
    fireEvent.click(await screen.findByRole('button', { name: 'English' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start now' }));
    expect(await screen.findByText('Starting now is not available at this hour.')).toBeDefined();
  });

  it('offers start now with the large locker and its price, then goes to the summary', async () => {
    const api = fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides({
        ALWAYS_SHOW_FAST_TRACK: true,
        showNightButtonTest: true,
      }),
      'POST /api/bookings/immediate': { locker: { size: 'large', lockerId: 7 }, duration: 3, price: 7 },
      'POST /api/lockers/inhibit-multi': { success: true, reservedLockers: [7], transactionId: HOLD_ID },
    });
    await renderApp({ path: '/vicolo', now: NOW });
    expect(await screen.findByRole('button', { name: 'Prova prenotazione notturna' })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Prenota un locker' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Inizia ora' }));

    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain('Grande');
    // The total the card will be charged: the 7 € price and the 0,50 € service fee.
    expect(dialog.textContent).toMatch(/Totale: 7,50\s€ \(servizio di 0,50\s€ incluso\)/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Prenota ora' }));
    await screen.findByRole('heading', { name: 'Riepilogo e pagamento' });
    expect(api.callsTo('POST', '/api/lockers/inhibit-multi')[0]!.body).toEqual({
      locationKey: 'vicolo',
      dimensione: 'large',
      quantita: 1,
      startTimeIso: '2026-07-01T08:00:00.000Z',
      endTimeIso: '2026-07-01T11:00:00.000Z',
    });
  });

  it('offers the standard fallback and returns to idle when declined', async () => {
    fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides(),
      'POST /api/bookings/immediate': { locker: { size: 'standard', lockerId: 2 }, duration: 3, price: 5 },
    });
    await renderApp({ path: '/vicolo?showStartOptions=1', now: NOW });
    fireEvent.click(await screen.findByRole('button', { name: 'Inizia ora' }));
    const dialog = await screen.findByRole('dialog', { name: 'Locker grande non disponibile' });
    expect(dialog.textContent).toContain('è disponibile un locker standard (3 ore). Vuoi procedere?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'No, grazie' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(screen.getByRole('button', { name: 'Prenota un locker' })).toBeDefined();
  });

  it('switches language with the flags', async () => {
    fakeApi({
      'GET /api/locations/vicolo': buildPublicLocation(),
      'GET /api/admin/frontend-overrides': buildOverrides(),
    });
    await renderApp({ path: '/vicolo', now: NOW });
    fireEvent.click(await screen.findByRole('button', { name: 'English' }));
    expect(await screen.findByRole('button', { name: 'Book a locker' })).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: '日本語' }));
    expect(await screen.findByRole('button', { name: 'ロッカーを予約する' })).toBeDefined();
  });
});
