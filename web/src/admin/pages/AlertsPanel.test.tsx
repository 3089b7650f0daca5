import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { AlertsPanel } from './AlertsPanel';

const OFFLINE = {
  id: 4,
  kind: 'bridge_offline',
  locationKey: 'vicolo',
  lockerId: null,
  message: 'Il bridge di Deposito Vicolo è offline da 6 minuti: i comandi ai locker e i PIN non arrivano.',
  raisedAt: '2026-03-27T08:00:00.000Z',
  resolvedAt: null,
  acknowledgedAt: null,
  acknowledgedBy: null,
};

describe('Allarmi', () => {
  it('lists what is going on and closes an alert once the operator has seen it', async () => {
    let open = [OFFLINE];
    const api = fakeApi({
      'GET /api/admin/alerts': () => open,
      'POST /api/admin/alerts/4/acknowledge': () => {
        open = [];
        return { success: true };
      },
    });
    await renderWithProviders(<AlertsPanel />, { path: '/admin' });
    const item = (await screen.findByText(/offline da 6 minuti/)).closest('li')!;
    expect(within(item).getByText('In corso')).toBeDefined();
    expect(screen.getByRole('heading', { name: 'Allarmi (1)' })).toBeDefined();

    fireEvent.click(within(item).getByRole('button', { name: 'Presa visione' }));
    expect(await screen.findByText(/Nessun allarme/)).toBeDefined();
    expect(api.callsTo('POST', '/api/admin/alerts/4/acknowledge')).toHaveLength(1);
  });
});
