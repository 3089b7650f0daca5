import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildSystemSettings } from '../../../test/admin-builders';
import { SystemSettingsPage } from './SystemSettingsPage';

const SETTINGS = buildSystemSettings();

describe('Parametri di sistema', () => {
  it('saves with the version it read, and offers to reload when another operator saved first', async () => {
    const stale =
      'I parametri di sistema sono stati modificati da anna@deposito.test il 27/03/2026 alle 09:12, dopo che hai aperto questa pagina: ricarica per vedere le modifiche (le tue non sono state salvate)';
    const api = fakeApi({
      'GET /api/admin/settings/system': SETTINGS,
      'POST /api/admin/settings/system': apiError(409, 'edit/stale', stale),
    });
    await renderWithProviders(<SystemSettingsPage />, { path: '/admin/settings/block-windows' });
    fireEvent.change(await screen.findByLabelText('Fast Track dalle'), { target: { value: '07:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Salva parametri' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('modificati da anna@deposito.test');
    expect(api.callsTo('POST', '/api/admin/settings/system')[0].body).toMatchObject({
      FASTTRACK_FROM: '07:00',
      version: 7,
    });

    api.set('GET /api/admin/settings/system', { ...SETTINGS, MAINTENANCE_MODE: true, version: 8 });
    fireEvent.click(within(alert).getByRole('button', { name: 'Ricarica' }));
    expect(await screen.findByDisplayValue('06:00')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
