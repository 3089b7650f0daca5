import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildAdminLocation } from '../../../test/admin-builders';
import { ArchiveLogPage } from './LogPages';

const ENTRY = {
  id: 7,
  timestamp: '2026-03-20T10:00:00.000Z',
  type: 'admin/locker_command',
  locationKey: 'vicolo',
  lockerId: 3,
  message: 'Apri locker 3 (da anna@deposito.test)',
};

describe('Archive Log', () => {
  it("narrows the log to the operators' actions of a site, a locker, a period and an operator", async () => {
    const api = fakeApi({
      'GET /api/admin/logs/archive': [ENTRY],
      'GET /api/locations/all': [
        buildAdminLocation({
          key: 'vicolo',
          nome: 'Deposito Vicolo',
          indirizzo: 'Vicolo del Cinque 12',
          manutenzione: false,
        }),
      ],
    });
    await renderWithProviders(<ArchiveLogPage />, { path: '/admin/logs/archive' });
    expect(await screen.findByText('Apri locker 3 (da anna@deposito.test)')).toBeDefined();
    expect([...api.callsTo('GET', '/api/admin/logs/archive')[0]!.query.keys()]).toEqual(['limit']);

    fireEvent.change(screen.getByRole('combobox', { name: 'Tipo' }), { target: { value: 'admin/' } });
    await screen.findByRole('option', { name: 'Deposito Vicolo' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Sede' }), { target: { value: 'vicolo' } });
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Locker' }), { target: { value: '3' } });
    fireEvent.change(screen.getByLabelText('Dal'), { target: { value: '2026-03-20' } });
    fireEvent.change(screen.getByLabelText('Al'), { target: { value: '2026-03-21' } });
    fireEvent.change(screen.getByRole('searchbox', { name: 'Testo o operatore' }), {
      target: { value: ' anna@ ' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Filtra' }));

    await screen.findByRole('button', { name: 'Cancella filtri' });
    // The button shows as soon as the filters apply; the request goes out after that render, so wait
    // for it rather than read the calls at once (under a loaded CI machine it had not gone out yet).
    await waitFor(() => expect(api.callsTo('GET', '/api/admin/logs/archive')).toHaveLength(2));
    const query = api.callsTo('GET', '/api/admin/logs/archive').at(-1)!.query;
    expect(Object.fromEntries(query)).toEqual({
      limit: '100',
      type: 'admin/',
      location: 'vicolo',
      locker: '3',
      q: 'anna@',
      // The days from midnight to midnight in Rome (UTC+1 in March before the change of hour).
      from: '2026-03-19T23:00:00.000Z',
      before: '2026-03-21T23:00:00.000Z',
    });
  });

  it('refuses a locker number the archive cannot hold, by the field, without asking the server', async () => {
    const api = fakeApi({ 'GET /api/admin/logs/archive': [ENTRY], 'GET /api/locations/all': [] });
    await renderWithProviders(<ArchiveLogPage />, { path: '/admin/logs/archive' });
    await screen.findByText('Apri locker 3 (da anna@deposito.test)');
    const locker = screen.getByRole('spinbutton', { name: 'Locker' });
    fireEvent.change(locker, { target: { value: '0' } });
    fireEvent.click(screen.getByRole('button', { name: 'Filtra' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Locker: almeno 1');
    expect(locker.getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('GET', '/api/admin/logs/archive')).toHaveLength(1);
  });
});
