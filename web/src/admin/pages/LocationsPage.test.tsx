import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildFullAdminLocation } from '../../../test/admin-builders';
import { LocationsPage } from './LocationsPage';

const OCA = buildFullAdminLocation({
  id: 'oca',
  key: 'oca',
  nome: 'Deposito Oca',
  indirizzo: "Via dell'Oca 1",
  recipient: '192.168.1.50',
  mastercode: 'ABC123',
  lockerStructure: { standard: [1, 2], large: [3] },
  maxOnline: { standard: 2, large: 1 },
  manutenzione: false,
  version: 4,
});

describe('Sedi', () => {
  it("pauses one site's bookings with its own switch, and marks it in the list", async () => {
    let stored = OCA;
    const api = fakeApi({
      'GET /api/admin/locations': () => ({ oca: stored }),
      'PATCH /api/admin/locations/oca': ({ body }: { body: Record<string, unknown> }) => {
        stored = { ...stored, manutenzione: body.manutenzione as boolean, version: stored.version + 1 };
        return { success: true, location: stored };
      },
    });
    await renderWithProviders(<LocationsPage />, { path: '/admin/locations' });
    fireEvent.click(await screen.findByRole('button', { name: /Deposito Oca/ }));
    expect(screen.queryByText('In manutenzione')).toBeNull();

    const pause = screen.getByRole('checkbox', { name: /Prenotazioni sospese/ });
    expect((pause as HTMLInputElement).checked).toBe(false);
    fireEvent.click(pause);
    fireEvent.click(screen.getByRole('button', { name: 'Salva modifiche' }));

    expect(await screen.findByText('In manutenzione')).toBeDefined();
    const saved = api.callsTo('PATCH', '/api/admin/locations/oca')[0]!.body as Record<string, unknown>;
    expect(saved).toMatchObject({ manutenzione: true, version: 4 });
    expect(
      within(screen.getByRole('button', { name: /Deposito Oca/ })).getByText('In manutenzione'),
    ).toBeDefined();
  });

  it('says who saved the site first and offers to reload, keeping the version it read', async () => {
    const stale =
      'La sede Deposito Oca è stata modificata da anna@deposito.test il 27/03/2026 alle 09:12, dopo che hai aperto questa pagina: ricarica per vedere le modifiche (le tue non sono state salvate)';
    const api = fakeApi({
      'GET /api/admin/locations': { oca: OCA },
      'PATCH /api/admin/locations/oca': apiError(409, 'edit/stale', stale),
    });
    await renderWithProviders(<LocationsPage />, { path: '/admin/locations' });
    fireEvent.click(await screen.findByRole('button', { name: /Deposito Oca/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: /Prenotazioni sospese/ }));
    fireEvent.click(screen.getByRole('button', { name: 'Salva modifiche' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('modificata da anna@deposito.test');
    expect(api.callsTo('PATCH', '/api/admin/locations/oca')[0]!.body).toMatchObject({ version: 4 });
    expect(screen.queryByText('In manutenzione')).toBeNull();

    api.set('GET /api/admin/locations', { oca: { ...OCA, nome: 'Deposito Oca 2', version: 5 } });
    fireEvent.click(within(alert).getByRole('button', { name: 'Ricarica' }));
    expect(await screen.findByRole('button', { name: /Deposito Oca 2/ })).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });
});
