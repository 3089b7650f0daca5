import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { menuFor } from '../components/AdminLayout';
import { buildAdminLocation } from '../../../test/admin-builders';
import { UsersPage } from './UsersPage';
import { fillAndSubmit } from '../../../test/fill-form';

const ADMIN = {
  id: 1,
  email: 'ops@deposito.test',
  role: 'administrator',
  sites: null,
  createdAt: '2026-03-01T08:00:00.000Z',
  lastLoginAt: null,
  version: 1,
};
const SITE = (key: string, nome: string) =>
  buildAdminLocation({
    key,
    nome,
    indirizzo: 'Via Roma 1',
    lockerStructure: { standard: [1], large: [2] },
    maxOnline: { standard: 1, large: 1 },
  });

describe('Utenti', () => {
  it('adds a technician for the sites ticked, and says which role each account has', async () => {
    const api = fakeApi({
      'GET /api/admin/users': [ADMIN],
      'GET /api/locations/all': [SITE('vicolo', 'Deposito Vicolo'), SITE('oca', 'Deposito Oca')],
      'POST /api/admin/users': ({ body }: { body: Record<string, unknown> }) =>
        new Response(
          JSON.stringify({ ...ADMIN, id: 2, email: body.email, role: body.role, sites: body.sites }),
          {
            status: 201,
            headers: { 'Content-Type': 'application/json' },
          },
        ),
    });
    await renderWithProviders(<UsersPage />, { path: '/admin/users/all' });
    expect(
      within(await screen.findByRole('row', { name: /ops@deposito.test/ })).getByText('Amministratore'),
    ).toBeDefined();

    fillAndSubmit({ Email: 'tech@deposito', Password: 'short' }, 'Aggiungi');
    // Checked by the protocol's schema before anything is sent, in Italian by the field.
    expect(await screen.findByText('Email: valore non valido')).toBeDefined();
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');
    fillAndSubmit({ Email: 'tech@deposito.test' }, 'Aggiungi');
    expect(await screen.findByText('Password: almeno 10 caratteri')).toBeDefined();
    expect(api.callsTo('POST', '/api/admin/users')).toHaveLength(0);
    fillAndSubmit({ Password: 'a long enough passphrase', Ruolo: 'technician' }, 'Aggiungi');
    expect(await screen.findByText('Scegli almeno una sede per questo ruolo')).toBeDefined();

    fireEvent.click(await screen.findByRole('checkbox', { name: 'Deposito Oca' }));
    fireEvent.click(screen.getByRole('button', { name: 'Aggiungi' }));
    expect(await screen.findByText('Tecnico tech@deposito.test aggiunto')).toBeDefined();
    expect(api.callsTo('POST', '/api/admin/users')[0]!.body).toEqual({
      email: 'tech@deposito.test',
      password: 'a long enough passphrase',
      role: 'technician',
      sites: ['oca'],
    });
  });
});

describe('the admin menu by role', () => {
  const links = (role: Parameters<typeof menuFor>[0]) =>
    menuFor(role).flatMap((entry) =>
      ('children' in entry ? entry.children : [entry]).map((link) => link.label),
    );

  it('shows a technician only Gestione Locker, and a site operator neither users nor system parameters', () => {
    expect(links('technician')).toEqual(['Gestione Locker']);
    const operator = links('site_operator');
    expect(operator).toContain('Recenti');
    for (const hidden of ['Tutti gli utenti', 'Parametri di sistema', 'Codici sconto', 'Processo']) {
      expect(operator).not.toContain(hidden);
    }
    expect(links('administrator')).toContain('Parametri di sistema');
  });
});
