import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { IncassiPage } from './IncassiPage';
import { pdfBytes } from '@deposito/protocol/pdf/pdf-layout';
import { pdfPageTexts } from '@deposito/protocol/pdf/pdf-text.testing';

// 15 July 2026, 10:00 in Rome.
const NOW = new Date('2026-07-15T08:00:00Z');

const LOCATIONS = [
  { key: 'campo', name: 'Campo London', recipient: '127.0.0.1', port: 11004 },
  { key: 'roma', name: 'Roma Termini', recipient: '127.0.0.1', port: 11001 },
];

const JULY = {
  campo: { '05/07/2026': { online: 0, totem: 7, total: 7 } },
  roma: {
    '02/07/2026': { online: 10, totem: 0, total: 10 },
    '13/07/2026': { online: 25, totem: 12.5, total: 37.5 },
    '14/07/2026': { online: 4.5, totem: 0, total: 4.5 },
  },
};

function takingsAnswer(call: { query: URLSearchParams }) {
  const month = call.query.get('month')!;
  const location = call.query.get('location')!;
  const data =
    month !== '2026-07' ? {} : location === 'all' ? JULY : { [location]: JULY[location as 'roma'] };
  return { month, location, data };
}

function api(overrides: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/admin/takings/locations': LOCATIONS,
    'GET /api/admin/takings': takingsAnswer,
    ...overrides,
  });
}

function render() {
  return renderWithProviders(<IncassiPage />, { path: '/admin/incassi', now: NOW });
}

function chooseLocation(value: string) {
  fireEvent.change(screen.getByLabelText('Location'), { target: { value } });
}

function cardValue(label: string): string {
  const card = screen.getByText(label).closest('li')!;
  return card.querySelector('.adm-tk-card-value')!.textContent!;
}

const dayRows = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((row) => row.textContent!.replace(/\u00a0/g, ' '));

/**
 * The real PDF module, uncompressed so its text can be read back, saving into the list returned
 * (each report's file name and the text of its pages) instead of downloading.
 */
function saveReportPdfsHere(): Array<{ name: string; pages: string[] }> {
  const saved: Array<{ name: string; pages: string[] }> = [];
  vi.doMock('./takings-report-pdf', async (importOriginal) => {
    const real = await importOriginal<typeof import('./takings-report-pdf')>();
    return {
      ...real,
      buildTakingsReportPdf: (...[report, options]: Parameters<typeof real.buildTakingsReportPdf>) => {
        const doc = real.buildTakingsReportPdf(report, { ...options, compress: false });
        doc.save = ((name: string) => {
          saved.push({ name, pages: pdfPageTexts(pdfBytes(doc)) });
          return doc;
        }) as typeof doc.save;
        return doc;
      },
    };
  });
  return saved;
}

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  vi.doUnmock('./takings-report-pdf');
});

describe('Incassi Mensili', () => {
  it('starts on the current month with no location chosen and nothing to export', async () => {
    const calls = api();
    await render();
    expect(screen.getByRole('heading', { name: 'Incassi Mensili' })).toBeDefined();
    expect(screen.getByText(/online e dei totem fisici/)).toBeDefined();
    expect((screen.getByLabelText('Mese') as HTMLInputElement).value).toBe('2026-07');
    expect(screen.getByLabelText('Mese').getAttribute('type')).toBe('month');
    await waitFor(() => expect(screen.getByRole('option', { name: 'Roma Termini' })).toBeDefined());
    const options = within(screen.getByLabelText('Location')).getAllByRole('option') as HTMLOptionElement[];
    expect(options.map((option) => [option.value, option.textContent, option.disabled])).toEqual([
      ['', 'Seleziona location', true],
      ['all', 'Tutte le location', false],
      ['campo', 'Campo London', false],
      ['roma', 'Roma Termini', false],
    ]);
    expect(screen.getByText('Seleziona una Location')).toBeDefined();
    expect((screen.getByRole('button', { name: 'Esporta PDF' }) as HTMLButtonElement).disabled).toBe(true);
    expect(screen.getByText(/solo le prenotazioni con stato/).textContent).toMatch(/confirmed.*scheduled/);
    expect(calls.callsTo('GET', '/api/admin/takings')).toHaveLength(0);
  });

  it('shows every location: cards, chart, accordion rows that open on their own, grand total', async () => {
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const calls = api({
      'GET /api/admin/takings': async (call: { query: URLSearchParams }) => {
        await gate;
        return takingsAnswer(call);
      },
    });
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('all');
    expect(await screen.findByText('Caricamento incassi online e totem...')).toBeDefined();
    expect((screen.getByRole('button', { name: 'Esporta PDF' }) as HTMLButtonElement).disabled).toBe(true);
    await act(async () => release());

    await screen.findByText('Totale Generale');
    expect(calls.callsTo('GET', '/api/admin/takings')[0].query.toString()).toBe('month=2026-07&location=all');
    expect(cardValue('Incassi Online')).toBe('39,50\u00a0€');
    expect(cardValue('Incassi Totem')).toBe('19,50\u00a0€');
    expect(cardValue('Totale Generale')).toBe('59,00\u00a0€');
    expect(cardValue('Location Attive')).toBe('2 / 2');
    expect(screen.queryByText('Totale Sede')).toBeNull();
    expect(screen.getByText('TOTALE GENERALE').parentElement!.textContent).toContain('59,00');

    const roma = screen.getByRole('button', { name: /Roma Termini/ });
    const campo = screen.getByRole('button', { name: /Campo London/ });
    expect(roma.textContent!.replace(/\u00a0/g, ' ')).toContain('3 giorni · Ultimo: 14/07/2026');
    expect(roma.textContent!.replace(/\u00a0/g, ' ')).toContain('52,00 €');
    expect(campo.textContent).toContain('1 giorno · Ultimo: 05/07/2026');
    expect(roma.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(roma);
    fireEvent.click(campo);
    expect(roma.getAttribute('aria-expanded')).toBe('true');
    expect(campo.getAttribute('aria-expanded')).toBe('true');
    expect(dayRows(screen.getByRole('list', { name: 'Incassi giornalieri di Roma Termini' }))).toEqual([
      'Martedì14/07/2026Online 4,50 €4,50 €',
      'Lunedì13/07/2026Online 25,00 €Totem 12,50 €37,50 €',
      'Giovedì02/07/2026Online 10,00 €10,00 €',
    ]);
    fireEvent.click(roma);
    expect(screen.queryByRole('list', { name: 'Incassi giornalieri di Roma Termini' })).toBeNull();
    expect(screen.getByRole('list', { name: 'Incassi giornalieri di Campo London' })).toBeDefined();

    // The chart: one focusable bar per day of the month, online and totem of all locations together.
    const chart = screen.getByRole('group', { name: /Incassi giornalieri — Tutte le location, luglio 2026/ });
    const bars = within(chart).getAllByRole('img');
    expect(bars).toHaveLength(31);
    expect(bars[12].getAttribute('aria-label')!.replace(/\u00a0/g, ' ')).toBe(
      'Lunedì 13/07/2026: totale 37,50 €, online 25,00 €, totem 12,50 €',
    );
    fireEvent.focus(bars[4]);
    expect(
      within(chart.parentElement!)
        .getByRole('status')
        .textContent!.replace(/\u00a0/g, ' '),
    ).toBe('Domenica 05/07/2026Totale 7,00 €Online 0,00 €Totem 7,00 €');
    expect((screen.getByRole('button', { name: 'Esporta PDF' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows one location: "Totale Sede", its daily list in the chosen order, details on demand', async () => {
    api();
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('roma');
    await screen.findByText('Totale Sede');
    expect(cardValue('Totale Sede')).toBe('52,00\u00a0€');
    expect(screen.queryByText('Location Attive')).toBeNull();
    expect(screen.queryByText('Totale Generale')).toBeNull();
    const list = screen.getByRole('list', { name: 'Incassi giornalieri di Roma Termini' });
    expect(dayRows(list).map((row) => row.slice(0, 18))).toEqual([
      'Martedì14/07/2026O',
      'Lunedì13/07/2026On',
      'Giovedì02/07/2026O',
    ]);

    const sort = screen.getByLabelText('Ordina per');
    expect(
      within(sort)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['Data (più recente)', 'Data (meno recente)', 'Incasso (più alto)', 'Incasso (più basso)']);
    fireEvent.change(sort, { target: { value: 'amount-desc' } });
    expect(dayRows(list).map((row) => /(\d+,\d\d €)$/.exec(row)![1])).toEqual([
      '37,50 €',
      '10,00 €',
      '4,50 €',
    ]);
    fireEvent.change(sort, { target: { value: 'date-asc' } });
    expect(dayRows(list)[0]).toContain('02/07/2026');

    fireEvent.click(screen.getByLabelText('Dettaglio online/totem'));
    expect(dayRows(list)).toEqual([
      'Giovedì02/07/202610,00 €',
      'Lunedì13/07/202637,50 €',
      'Martedì14/07/20264,50 €',
    ]);
  });

  it('says when the month has no takings and reloads when the month changes', async () => {
    const calls = api();
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('all');
    await screen.findByText('Totale Generale');
    fireEvent.change(screen.getByLabelText('Mese'), { target: { value: '2026-06' } });
    expect(await screen.findByText('Nessun incasso trovato per il mese selezionato')).toBeDefined();
    expect(calls.callsTo('GET', '/api/admin/takings').map((call) => call.query.get('month'))).toEqual([
      '2026-07',
      '2026-06',
    ]);
    expect((screen.getByRole('button', { name: 'Esporta PDF' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('shows the error with the message, and "Riprova" reloads bypassing the cache', async () => {
    const calls = api({
      'GET /api/admin/takings': apiError(
        502,
        'takings/totem_unavailable',
        'The totem payment system cannot be reached',
      ),
    });
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('roma');
    const box = await screen.findByRole('alert');
    expect(within(box).getByRole('heading', { name: 'Errore nel caricamento' })).toBeDefined();
    // In Italian, chosen by the error's code (admin/error-text.ts).
    expect(box.textContent).toContain('Il sistema dei totem (Promotec) non è raggiungibile');

    calls.set('GET /api/admin/takings', takingsAnswer);
    fireEvent.click(within(box).getByRole('button', { name: 'Riprova' }));
    await screen.findByText('Totale Sede');
    expect(calls.callsTo('GET', '/api/admin/takings').at(-1)!.query.get('reload')).toBe('1');
  });

  it('tests the connections one location after another and shows each outcome', async () => {
    const pending: Array<(answer: unknown) => void> = [];
    const calls = api({
      'POST /api/admin/takings/connection-test': () => new Promise((resolve) => pending.push(resolve)),
    });
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    fireEvent.click(screen.getByRole('button', { name: 'Test Connessioni' }));
    expect(screen.getByRole('button', { name: 'Nascondi Test' })).toBeDefined();

    const campo = await screen.findByTestId('connection-campo');
    const roma = screen.getByTestId('connection-roma');
    await waitFor(() => expect(campo.textContent).toContain('Test in corso'));
    expect(roma.textContent).toContain('In attesa');
    expect(calls.callsTo('POST', '/api/admin/takings/connection-test').map((call) => call.body)).toEqual([
      { location: 'campo' },
    ]);

    await act(async () => pending[0]([{ ...LOCATIONS[0], success: true }]));
    await waitFor(() => expect(roma.textContent).toContain('Test in corso'));
    expect(campo.textContent).toContain('Connesso');
    await act(async () =>
      pending[1]([
        { ...LOCATIONS[1], success: false, error: '127.0.0.1:11001 non raggiungibile (ECONNREFUSED)' },
      ]),
    );
    await waitFor(() => expect(roma.textContent).toContain('Errore'));
    expect(roma.textContent).toContain('✗');
    expect(roma.textContent).toContain('127.0.0.1:11001 non raggiungibile (ECONNREFUSED)');
    expect(screen.getByText('1 di 2 location connesse.')).toBeDefined();
    expect((screen.getByRole('button', { name: 'Esporta PDF test' }) as HTMLButtonElement).disabled).toBe(
      false,
    );

    fireEvent.click(screen.getByRole('button', { name: 'Nascondi Test' }));
    expect(screen.queryByTestId('connection-campo')).toBeNull();
  });

  it('exports incassi_yyyy_MM.pdf built from the shown report', async () => {
    api();
    const saved = saveReportPdfsHere();
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('all');
    await screen.findByText('Totale Generale');
    fireEvent.click(screen.getByRole('button', { name: 'Esporta PDF' }));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    expect(saved[0].name).toBe('incassi_2026_07.pdf');
    const text = saved[0].pages.join('\n');
    expect(text).toContain('REPORT INCASSI LUGLIO 2026');
    expect(text).toContain('Deposito S.r.l.');
    expect(text).toContain('Roma Termini');
    expect(text).toContain('59,00');
  });

  it('says whose totem data is missing, marks every total incomplete, and shows test bookings apart', async () => {
    const reason = '127.0.0.1:11004 non raggiungibile (ECONNREFUSED)';
    const calls = api({
      'GET /api/admin/takings': (call: { query: URLSearchParams }) => {
        const location = call.query.get('location')!;
        return {
          ...takingsAnswer(call),
          totemMissing: location === 'roma' ? [] : [{ location: 'campo', reason }],
          testBookings: location === 'campo' ? {} : { roma: { count: 2, amount: 45 } },
        };
      },
    });
    const saved = saveReportPdfsHere();
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('all');
    await screen.findByText('Totale Generale');

    const warning = screen.getByRole('alert');
    expect(
      within(warning).getByText('Dati totem non disponibili per Campo London: totale incompleto'),
    ).toBeDefined();
    expect(warning.textContent).toContain(reason);
    for (const label of ['Incassi Totem', 'Totale Generale']) {
      expect(screen.getByText(label).closest('li')!.textContent).toContain('incompleto');
    }
    expect(screen.getByText('Incassi Online').closest('li')!.textContent).not.toContain('incompleto');
    expect(screen.getByText(/^TOTALE GENERALE/).textContent).toBe('TOTALE GENERALE (incompleto)');
    expect(screen.getByRole('button', { name: /Campo London/ }).textContent).toContain(
      'Totem non disponibile',
    );
    expect(screen.getByRole('button', { name: /Roma Termini/ }).textContent).not.toContain('Totem');
    expect(
      screen.getByText(/^Prenotazioni di test \(escluse\)/).textContent!.replace(/\u00a0/g, ' '),
    ).toContain('Prenotazioni di test (escluse): 2 · 45,00 €');
    // Kept out: the online card is the bookings alone.
    expect(cardValue('Incassi Online')).toBe('39,50\u00a0€');

    fireEvent.click(screen.getByRole('button', { name: 'Esporta PDF' }));
    await waitFor(() => expect(saved).toHaveLength(1), { timeout: 10_000 });
    const text = saved[0].pages.join('\n');
    expect(text).toContain('ATTENZIONE: TOTALE INCOMPLETO');
    expect(text).toContain('Dati totem non disponibili per Campo London: totale incompleto.');
    expect(text).toContain('TOTALE GENERALE (INCOMPLETO)');

    // "Riprova lettura totem" reads the month again, past the server's cache.
    fireEvent.click(within(warning).getByRole('button', { name: 'Riprova lettura totem' }));
    await screen.findByText('Totale Generale');
    expect(calls.callsTo('GET', '/api/admin/takings').at(-1)!.query.get('reload')).toBe('1');

    // One location whose month has nothing but whose kiosk failed: not "no takings" alone.
    chooseLocation('campo');
    fireEvent.change(screen.getByLabelText('Mese'), { target: { value: '2026-06' } });
    expect(await screen.findByText('Nessun incasso trovato per il mese selezionato')).toBeDefined();
    expect(screen.getByRole('alert').textContent).toContain(
      'Dati totem non disponibili per Campo London: totale incompleto',
    );
  });

  it('alerts when the PDF cannot be made', async () => {
    api();
    vi.doMock('./takings-report-pdf', () => ({
      takingsReportFileName: () => 'incassi_2026_07.pdf',
      buildTakingsReportPdf: () => {
        throw new Error('no fonts');
      },
    }));
    const alert = vi.fn();
    vi.stubGlobal('alert', alert);
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    chooseLocation('roma');
    await screen.findByText('Totale Sede');
    fireEvent.click(screen.getByRole('button', { name: 'Esporta PDF' }));
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Errore durante la generazione del PDF'));
  });
});

describe('Incassi Mensili: zones and refresh', () => {
  it("opens on the chosen location's own month: still July in London when Rome is in August", async () => {
    const calls = fakeApi({
      'GET /api/admin/takings/locations': [
        { ...LOCATIONS[0], timezone: 'Europe/London' },
        { ...LOCATIONS[1], timezone: 'Europe/Rome' },
      ],
      'GET /api/admin/takings': takingsAnswer,
    });
    // 31 July 2026, 22:30 UTC: 00:30 on 1 August in Rome, 23:30 on 31 July in London.
    await renderWithProviders(<IncassiPage />, {
      path: '/admin/incassi',
      now: new Date('2026-07-31T22:30:00Z'),
    });
    await screen.findByRole('option', { name: 'Campo London' });
    expect((screen.getByLabelText('Mese') as HTMLInputElement).value).toBe('2026-08');
    chooseLocation('campo');
    await screen.findByText('Totale Sede');
    expect((screen.getByLabelText('Mese') as HTMLInputElement).value).toBe('2026-07');
    expect(calls.callsTo('GET', '/api/admin/takings').at(-1)!.query.get('month')).toBe('2026-07');
  });

  it('"Aggiorna" reads the takings again, bypassing the cache', async () => {
    const calls = api();
    await render();
    await screen.findByRole('option', { name: 'Roma Termini' });
    expect((screen.getByRole('button', { name: 'Aggiorna' }) as HTMLButtonElement).disabled).toBe(true);
    chooseLocation('roma');
    await screen.findByText('Totale Sede');
    expect(calls.callsTo('GET', '/api/admin/takings')).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Aggiorna' }));
    await waitFor(() => expect(calls.callsTo('GET', '/api/admin/takings')).toHaveLength(2));
    expect(calls.callsTo('GET', '/api/admin/takings')[1]!.query.get('reload')).toBe('1');
    await screen.findByText('Totale Sede');
  });
});
