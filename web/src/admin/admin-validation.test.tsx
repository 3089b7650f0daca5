import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render-app';
import { buildFullAdminLocation, buildSystemSettings } from '../../test/admin-builders';
import { LocationSettingsPage } from './pages/LocationSettingsPage';
import { LocationsPage } from './pages/LocationsPage';
import { SystemSettingsPage } from './pages/SystemSettingsPage';
import { fillAndSubmit } from '../../test/fill-form';

// The pages check an operator's input with the same protocol schemas as the server and say what is
// wrong in Italian before sending; what the server refuses anyway is shown in Italian by its code.

const SETTINGS = buildSystemSettings({
  BLOCK_WINDOWS: [
    { from: '02:00', to: '04:00' },
    { from: '05:00', to: '06:00' },
  ],
});

const LOCATION = buildFullAdminLocation({ version: 3 });

describe('Parametri di sistema: harmful values', () => {
  /** The page with SETTINGS read and its form shown. */
  async function renderSystemSettings() {
    const api = fakeApi({ 'GET /api/admin/settings/system': SETTINGS });
    await renderWithProviders(<SystemSettingsPage />, { path: '/admin/settings/block-windows' });
    await screen.findByRole('button', { name: 'Salva parametri' });
    return api;
  }

  it('refuses overlapping block windows in Italian and sends nothing', async () => {
    const api = await renderSystemSettings();
    fillAndSubmit({ 'Finestra 2 dalle': '03:00' }, 'Salva parametri');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Due finestre di blocco si sovrappongono',
    );
    expect(api.callsTo('POST', '/api/admin/settings/system')).toHaveLength(0);
  });

  it('refuses an inverted fast-track window and an empty block window', async () => {
    const api = await renderSystemSettings();
    fillAndSubmit({ 'Fast Track dalle': '22:00' }, 'Salva parametri');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Il Fast Track deve iniziare prima di finire',
    );
    fillAndSubmit({ 'Fast Track dalle': '06:00', 'Finestra 1 alle': '02:00' }, 'Salva parametri');
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'Una finestra di blocco inizia e finisce alla stessa ora',
      ),
    );
    expect(api.callsTo('POST', '/api/admin/settings/system')).toHaveLength(0);
  });

  it('names a parameter out of bounds by its label and marks its field', async () => {
    const api = await renderSystemSettings();
    fillAndSubmit({ 'Scadenza prenotazione (minuti)': '500' }, 'Salva parametri');
    const expiry = screen.getByLabelText('Scadenza prenotazione (minuti)');
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Scadenza prenotazione (minuti): al massimo 240',
    );
    expect(expiry.getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/admin/settings/system')).toHaveLength(0);
  });

  it("shows the server's refusal in Italian, chosen by its code, not its English message", async () => {
    fakeApi({
      'GET /api/admin/settings/system': SETTINGS,
      'POST /api/admin/settings/system': apiError(
        400,
        'settings/fast_track_inverted',
        'The fast-track window must start before it ends',
      ),
    });
    await renderWithProviders(<SystemSettingsPage />, { path: '/admin/settings/block-windows' });
    fireEvent.click(await screen.findByRole('button', { name: 'Salva parametri' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Il Fast Track deve iniziare prima di finire');
    expect(alert.textContent).not.toContain('must start');
  });
});

describe('prices and location keys', () => {
  it('refuses a duration written twice and a price of zero in Impostazioni Sedi', async () => {
    const api = fakeApi({ 'GET /api/locations/all': [LOCATION] });
    await renderWithProviders(<LocationSettingsPage />, { path: '/admin/settings/prices' });
    fireEvent.click(await screen.findByRole('button', { name: /Roma Termini/ }));
    const table = screen.getByLabelText('Standard Ore prezzo').closest('table')!;
    fireEvent.click(within(table).getByRole('button', { name: '+ Aggiungi riga' }));
    const durations = within(table).getAllByLabelText('Standard Ore durata');
    const prices = within(table).getAllByLabelText('Standard Ore prezzo');
    fireEvent.change(durations[1]!, { target: { value: '3' } });
    fireEvent.change(prices[1]!, { target: { value: '6' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salva prezzi' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'La stessa durata compare due volte in una tabella prezzi',
    );

    fireEvent.change(durations[1]!, { target: { value: '4' } });
    fireEvent.change(prices[1]!, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salva prezzi' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain('Ogni prezzo deve essere maggiore di zero'),
    );
    expect(api.callsTo('POST', '/api/locations/update-prices')).toHaveLength(0);
  });

  /** Gestione Sedi with its "Nuova sede" form open, sent with only its id filled in. */
  async function createLocationWithId(id: string) {
    const api = fakeApi({ 'GET /api/admin/locations': { roma: LOCATION } });
    await renderWithProviders(<LocationsPage />, { path: '/admin/locations' });
    fireEvent.click(await screen.findByRole('button', { name: '+ Nuova sede' }));
    const form = screen.getByRole('button', { name: 'Crea sede' }).closest('form')!;
    fireEvent.change(within(form).getByLabelText('ID interno'), { target: { value: id } });
    fireEvent.click(within(form).getByRole('button', { name: 'Crea sede' }));
    return { api, form };
  }

  it('refuses "admin" as the id of a new location', async () => {
    const { api } = await createLocationWithId('admin');
    expect((await screen.findByRole('alert')).textContent).toContain('Questa parola è riservata');
    expect(api.callsTo('POST', '/api/admin/locations')).toHaveLength(0);
  });

  it('names the field a new location misses, by its Italian label, before sending', async () => {
    const { api, form } = await createLocationWithId('navona');
    expect((await screen.findByRole('alert')).textContent).toContain('Nome: obbligatorio');
    expect(within(form).getByLabelText('Nome').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/admin/locations')).toHaveLength(0);
  });

  it('refuses a locker count the server would refuse in Impostazioni Sedi, naming the location', async () => {
    const api = fakeApi({ 'GET /api/locations/all': [LOCATION] });
    await renderWithProviders(<LocationSettingsPage />, { path: '/admin/settings/prices' });
    fireEvent.click(await screen.findByRole('button', { name: /Roma Termini/ }));
    fireEvent.change(screen.getByLabelText('Locker standard'), { target: { value: '900' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salva struttura locker' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      'Roma Termini: Locker standard: al massimo 500',
    );
    expect(api.callsTo('POST', '/api/locations/update-locker-structure')).toHaveLength(0);
  });
});
