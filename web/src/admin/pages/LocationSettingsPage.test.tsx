import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildAdminLocation } from '../../../test/admin-builders';
import { LocationSettingsPage } from './LocationSettingsPage';

function location(key: string, nome: string, standardThreeHours: number, version: number) {
  return buildAdminLocation({
    key,
    nome,
    pricing: {
      standard: { hours: { '3': standardThreeHours }, days: {} },
      large: { hours: { '3': 7 }, days: {} },
    },
    version,
  });
}

const STALE_TEXT =
  'La sede roma è stata modificata da anna@deposito.test il 27/03/2026 alle 09:12, dopo che hai aperto questa pagina: ricarica per vedere le modifiche (le tue non sono state salvate)';

describe('Impostazioni Sedi', () => {
  it('sends only the location it changed, with the version it read, and offers to reload when another operator saved first', async () => {
    const api = fakeApi({
      'GET /api/locations/all': [location('roma', 'Roma Termini', 5, 3), location('milano', 'Milano', 6, 8)],
      'POST /api/locations/update-prices': apiError(409, 'edit/stale', STALE_TEXT),
    });
    await renderWithProviders(<LocationSettingsPage />, { path: '/admin/settings' });

    fireEvent.click(await screen.findByRole('button', { name: /Roma Termini/ }));
    fireEvent.change(screen.getByLabelText('Standard Ore prezzo'), { target: { value: '5.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salva prezzi' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('modificata da anna@deposito.test il 27/03/2026 alle 09:12');
    const [save] = api.callsTo('POST', '/api/locations/update-prices');
    expect(save.body).toEqual([
      {
        key: 'roma',
        version: 3,
        pricing: { standard: { hours: { '3': 5.5 }, days: {} }, large: { hours: { '3': 7 }, days: {} } },
      },
    ]);

    // Reload: the other operator's price replaces this page's unsaved edit, with the new version.
    api.set('GET /api/locations/all', [
      location('roma', 'Roma Termini', 9, 4),
      location('milano', 'Milano', 6, 8),
    ]);
    api.set('POST /api/locations/update-prices', { success: true, message: 'Prezzi salvati' });
    fireEvent.click(within(alert).getByRole('button', { name: 'Ricarica' }));
    expect(await screen.findByDisplayValue('9.00')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();

    fireEvent.change(screen.getByLabelText('Standard Ore prezzo'), { target: { value: '9.5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salva prezzi' }));
    expect(await screen.findByText('Prezzi salvati')).toBeDefined();
    const retry = api.callsTo('POST', '/api/locations/update-prices')[1];
    expect(retry.body).toMatchObject([{ key: 'roma', version: 4 }]);
  });

  it('saves nothing when nothing changed', async () => {
    const api = fakeApi({ 'GET /api/locations/all': [location('roma', 'Roma Termini', 5, 3)] });
    await renderWithProviders(<LocationSettingsPage />, { path: '/admin/settings' });
    fireEvent.click(await screen.findByRole('button', { name: 'Salva prezzi' }));
    expect(await screen.findByText('Nessuna modifica da salvare')).toBeDefined();
    expect(api.callsTo('POST', '/api/locations/update-prices')).toHaveLength(0);
  });
});
