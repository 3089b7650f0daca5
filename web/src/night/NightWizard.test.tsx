import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { renderApp, renderWithProviders } from '../../test/render-app';
import { apiError, fakeApi, htmlPage } from '../../test/fake-api';
import { buildOverrides, buildPublicLocation } from '../../test/builders';
import { chooseStartAndDuration, chooseStartBetween, optionValues } from '../../test/wizard-steps';
import { NightSummary, NIGHT_PAYMENT_SECONDS } from './NightSummary';

// 10:00 in Rome on 1 July 2026.
const NOW = new Date('2026-07-01T08:00:00Z');

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

function nightApi() {
  return fakeApi({
    'GET /api/locations/vicolo': buildPublicLocation(),
    'GET /api/admin/frontend-overrides': buildOverrides(),
    'POST /api/night-availability/check': (call: { body: unknown }) =>
      (call.body as { tipoLocker: string }).tipoLocker === 'standard'
        ? { disponibili: 0, disponibile: false }
        : { disponibili: 5, disponibile: true },
    'POST /api/night-availability/check-range': {
      '2026-07-02': { standard: 2, large: 1 },
      '2026-07-03': { standard: 3, large: 0 },
    },
    'POST /api/night-payments/create-night-payment': () => htmlPage(),
  });
}

async function chooseDate() {
  const date = await screen.findByLabelText('Data');
  fireEvent.change(date, { target: { value: '2026-07-02' } });
  fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
}

describe('night wizard', () => {
  it('checks both sizes for the day, skips the check for hour stays and reaches the summary', async () => {
    const api = nightApi();
    await renderApp({ path: '/booking-notte/vicolo', now: NOW });
    expect(await screen.findByText('Prenotazione notturna')).toBeDefined();
    expect(screen.getByRole('button', { name: 'Torna alla prenotazione' })).toBeDefined();
    await chooseDate();

    const time = await screen.findByLabelText('Orario di inizio');
    const checks = api.callsTo('POST', '/api/night-availability/check').map((call) => call.body);
    expect(checks).toEqual([
      {
        locationKey: 'vicolo',
        tipoLocker: 'standard',
        quantita: 1,
        startTimeIso: '2026-07-02T04:00:00.000Z',
        endTimeIso: '2026-07-02T20:00:00.000Z',
      },
      {
        locationKey: 'vicolo',
        tipoLocker: 'large',
        quantita: 1,
        startTimeIso: '2026-07-02T04:00:00.000Z',
        endTimeIso: '2026-07-02T20:00:00.000Z',
      },
    ]);
    chooseStartBetween(time, '06:00', '19:45', '18:00');

    const duration = await screen.findByLabelText('Durata');
    // Until 22:45: at most 4 hours from 18:00.
    expect(optionValues(duration)).toContain('hours:4');
    expect(within(duration).queryByRole('option', { name: '5 ore' })).toBeNull();
    fireEvent.change(duration, { target: { value: 'hours:3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Continua' }));

    await screen.findByRole('heading', { name: 'Scegli la dimensione' });
    expect(api.callsTo('POST', '/api/night-availability/check-range')).toHaveLength(0);
    expect(screen.getByRole('button', { name: /Standard/ })).toHaveProperty('disabled', true);
    fireEvent.click(screen.getByRole('button', { name: /Grande/ }));
    expect(await screen.findByText('Puoi prenotare al massimo 3 locker per prenotazione.')).toBeDefined();
    fireEvent.click(screen.getAllByRole('button', { name: /locker$/ })[0]!);
    await screen.findByRole('heading', { name: 'Riepilogo e pagamento' });
    expect(screen.getByRole('timer').textContent).toBe('4:00');
  });

  it('goes back one step at a time, keeping what was chosen before it', async () => {
    nightApi();
    await renderApp({ path: '/booking-notte/vicolo', now: NOW });
    await chooseDate();
    await chooseStartAndDuration('18:00', 'hours:3');
    await screen.findByRole('heading', { name: 'Scegli la dimensione' });

    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    expect(await screen.findByLabelText('Durata')).toBeDefined();
    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    expect(((await screen.findByLabelText('Orario di inizio')) as HTMLSelectElement).value).toBe('18:00');
    fireEvent.click(screen.getByRole('button', { name: 'Indietro' }));
    expect(await screen.findByLabelText('Data')).toBeDefined();
  });

  it('uses the range check for day stays and explains a gap', async () => {
    const api = nightApi();
    await renderApp({ path: '/booking-notte/vicolo', now: NOW });
    await chooseDate();
    await chooseStartAndDuration('10:00', 'days:1');
    await screen.findByRole('heading', { name: 'Scegli la dimensione' });
    expect(api.callsTo('POST', '/api/night-availability/check-range')[0]!.body).toEqual({
      locationKey: 'vicolo',
      startTime: '2026-07-02T08:00:00.000Z',
      endTime: '2026-07-03T08:00:00.000Z',
    });
    // Large is free on the 2nd but not on the 3rd: not free for the whole stay.
    expect(screen.getByRole('button', { name: /Grande/ })).toHaveProperty('disabled', true);

    fireEvent.click(screen.getByRole('button', { name: 'Annulla' }));
    await chooseDate();
    api.set('POST /api/night-availability/check-range', {
      '2026-07-02': { standard: 0, large: 0 },
      '2026-07-03': { standard: 0, large: 0 },
    });
    await chooseStartAndDuration('10:00', 'days:1');
    expect(
      await screen.findByText('Non ci sono locker disponibili in nessun giorno del periodo scelto.'),
    ).toBeDefined();

    api.set('POST /api/night-availability/check-range', () => apiError(500, 'internal'));
    fireEvent.click(screen.getByRole('button', { name: 'Continua' }));
    expect(await screen.findByText('Errore nel verificare la disponibilità. Riprova.')).toBeDefined();
  });

  it('says when neither size is free on the day', async () => {
    const api = nightApi();
    api.set('POST /api/night-availability/check', { disponibili: 0, disponibile: false });
    await renderApp({ path: '/booking-notte/vicolo', now: NOW });
    await chooseDate();
    expect(
      await screen.findByText('Non ci sono locker disponibili per questa data. Scegli un altro giorno.'),
    ).toBeDefined();
  });
});

describe('night summary', () => {
  const props = {
    location: buildPublicLocation(),
    size: 'large' as const,
    quantity: 2,
    duration: { value: 1, unit: 'days' as const },
    startTimeIso: '2026-07-02T08:00:00.000Z',
    endTimeIso: '2026-07-03T08:00:00.000Z',
    fallbackMessage: null,
    onCancel: () => undefined,
  };

  it('posts the night payment with protocol prices and replaces the top window', async () => {
    const api = nightApi();
    const createObjectURL = vi.fn(() => 'blob:night');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL }));
    await renderWithProviders(<NightSummary {...props} />, { now: NOW });
    // 2 × 16 € per day + 0,50 €.
    const prices = screen.getByRole('table', { name: 'Dettaglio prezzo' });
    expect(within(prices).getByRole('row', { name: /Totale/ }).textContent).toContain('32,50');

    fireEvent.change(screen.getByLabelText('Nome'), { target: { value: 'Hiro' } });
    fireEvent.change(screen.getByLabelText('Cognome'), { target: { value: 'Tanaka' } });
    fireEvent.change(screen.getByLabelText('Email'), { target: { value: 'hiro@example.jp' } });
    fireEvent.change(screen.getByLabelText('Conferma email'), { target: { value: 'hiro@example.jp' } });
    fireEvent.change(screen.getByRole('combobox', { name: 'Prefisso internazionale' }), {
      target: { value: 'JP' },
    });
    // As a Japanese visitor writes it; sent in E.164.
    fireEvent.change(screen.getByRole('textbox', { name: 'Telefono' }), {
      target: { value: '090-1234-5678' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Paga ora' }));

    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    const body = api.callsTo('POST', '/api/night-payments/create-night-payment')[0]!.body as Record<
      string,
      unknown
    >;
    expect(body).toMatchObject({
      locationKey: 'vicolo',
      tipoLocker: 'large',
      quantita: 2,
      prezzoOriginale: 32.5,
      prezzoScontato: 32.5,
      telefono: '+819012345678',
      note: 'lang:it;night',
      codiceSconto: '',
    });
    expect(body.pin).toMatch(/^\d{6}$/);
  });

  it('counts down 240 seconds, then disables payment and says the session expired', async () => {
    vi.useFakeTimers();
    fakeApi({});
    await renderWithProviders(<NightSummary {...props} />, { now: NOW, clockRuns: true });
    expect(screen.getByRole('timer').textContent).toBe('4:00');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('3:59');
    act(() => {
      vi.advanceTimersByTime((NIGHT_PAYMENT_SECONDS - 1) * 1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('0:00');
    expect(screen.getByText(/Sessione scaduta\. Ricarica la pagina per riprovare\./)).toBeDefined();
    expect(screen.getByText(/Il tempo per il pagamento è scaduto\./)).toBeDefined();
    expect(screen.getByRole('button', { name: 'Paga ora' })).toHaveProperty('disabled', true);
  });

  it('counts the time that passed, not its own ticks: a phone that slept a minute shows a minute less', async () => {
    vi.useFakeTimers();
    fakeApi({});
    await renderWithProviders(<NightSummary {...props} />, { now: NOW, clockRuns: true });
    expect(screen.getByRole('timer').textContent).toBe('4:00');
    // The clock jumps 60 s with no interval firing (a sleeping phone, a throttled tab), then one tick.
    vi.setSystemTime(Date.now() + 60_000);
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    expect(screen.getByRole('timer').textContent).toBe('2:59');
  });

  it('sends resize messages at once, after 400 ms and after 1000 ms', async () => {
    vi.useFakeTimers();
    fakeApi({});
    const postMessage = vi.fn();
    vi.spyOn(window, 'parent', 'get').mockReturnValue({ postMessage } as unknown as Window);
    await renderWithProviders(<NightSummary {...props} />, { now: NOW });
    expect(postMessage).toHaveBeenCalledTimes(1);
    act(() => {
      vi.advanceTimersByTime(400);
    });
    expect(postMessage).toHaveBeenCalledTimes(2);
    act(() => {
      vi.advanceTimersByTime(600);
    });
    expect(postMessage).toHaveBeenCalledTimes(3);
    expect(postMessage).toHaveBeenLastCalledWith({ type: 'resize-iframe', height: expect.any(Number) }, '*');
    vi.restoreAllMocks();
  });
});
