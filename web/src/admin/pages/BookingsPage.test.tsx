import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildAdminLocation, buildBookingRow, buildCleanupStats } from '../../../test/admin-builders';
import { BookingsPage } from './BookingsPage';

const LOCATION = buildAdminLocation();
const row = buildBookingRow;

describe('Prenotazioni', () => {
  it('searches every booking on the server by what the operator types, and goes back to the recent ones', async () => {
    const api = fakeApi({
      'GET /api/admin/bookings/recent': ({ query }: { query: URLSearchParams }) =>
        query.get('q') === 'rossi'
          ? [row('DEP-OLD-000001', { created_at: '2025-01-02T10:00:00.000Z' })]
          : [row('DEP-NEW-000001')],
      'GET /api/locations/all': [LOCATION],
      'GET /api/admin/cleanup/stats': buildCleanupStats(2),
    });
    await renderWithProviders(<BookingsPage />, { path: '/admin/bookings' });
    await screen.findByText('DEP-NEW-000001');
    const field = screen.getByRole('searchbox', { name: 'Cerca' });
    const submit = screen.getByRole('button', { name: 'Cerca' });

    fireEvent.change(field, { target: { value: 'r' } });
    expect(screen.getByText('Scrivi almeno 2 caratteri')).toBeDefined();
    expect(submit.hasAttribute('disabled')).toBe(true);

    fireEvent.change(field, { target: { value: ' rossi ' } });
    fireEvent.click(submit);
    await screen.findByText('DEP-OLD-000001');
    expect(screen.queryByText('DEP-NEW-000001')).toBeNull();
    expect(screen.getByText(/Risultati per «rossi»/)).toBeDefined();
    expect(api.callsTo('GET', '/api/admin/bookings/recent').at(-1)!.query.get('q')).toBe('rossi');

    fireEvent.click(screen.getByRole('button', { name: 'Torna alle recenti' }));
    // The recent list shows at once from what was read before; it is read again behind it.
    await screen.findByText('DEP-NEW-000001');
    await waitFor(() =>
      expect(api.callsTo('GET', '/api/admin/bookings/recent').at(-1)!.query.has('q')).toBe(false),
    );
  });

  it("resends a paid booking's confirmation after asking, and shows whom it went to", async () => {
    const api = fakeApi({
      'GET /api/admin/bookings/recent': [
        row('DEP-PAID-000001'),
        row('DEP-GONE-000001', { STATUS: 'expired' }),
      ],
      'GET /api/locations/all': [LOCATION],
      'GET /api/admin/cleanup/stats': buildCleanupStats(2),
      'GET /api/admin/bookings/DEP-PAID-000001/history': [],
      'GET /api/admin/bookings/DEP-GONE-000001/history': [],
      'POST /api/admin/bookings/DEP-PAID-000001/resend': {
        success: true,
        message:
          'La conferma con il PIN della prenotazione DEP-PAID-000001 è stata inviata di nuovo a mario@example.it',
      },
    });
    await renderWithProviders(<BookingsPage />, { path: '/admin/bookings' });
    const gone = (await screen.findByText('DEP-GONE-000001')).closest('tr')!;
    fireEvent.click(within(gone).getByRole('button', { name: 'Dettagli' }));
    expect(screen.queryByRole('button', { name: 'Invia di nuovo la conferma' })).toBeNull();

    const paid = screen.getByText('DEP-PAID-000001').closest('tr')!;
    fireEvent.click(within(paid).getByRole('button', { name: 'Dettagli' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Invia di nuovo la conferma' }));
    const dialog = screen.getByRole('dialog', { name: 'Inviare di nuovo la conferma?' });
    expect(within(dialog).getByText('mario@example.it')).toBeDefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Invia' }));
    expect(await screen.findByText(/inviata di nuovo a mario@example.it/)).toBeDefined();
    expect(api.callsTo('POST', '/api/admin/bookings/DEP-PAID-000001/resend')).toHaveLength(1);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('moves a paid booking to another locker of its size after asking, and reloads the list', async () => {
    let moved = false;
    const api = fakeApi({
      'GET /api/admin/bookings/recent': () => [row('DEP-PAID-000001', { locker_id: moved ? 3 : 1 })],
      'GET /api/locations/all': [LOCATION],
      'GET /api/admin/cleanup/stats': buildCleanupStats(1),
      'GET /api/admin/bookings/DEP-PAID-000001/history': [],
      'POST /api/admin/bookings/DEP-PAID-000001/move': () => {
        moved = true;
        return {
          success: true,
          message: 'Prenotazione DEP-PAID-000001: locker 1 → 3, il PIN passa al nuovo locker',
          lockers: [3],
        };
      },
    });
    await renderWithProviders(<BookingsPage />, { path: '/admin/bookings' });
    const paid = (await screen.findByText('DEP-PAID-000001')).closest('tr')!;
    fireEvent.click(within(paid).getByRole('button', { name: 'Dettagli' }));
    const group = await screen.findByRole('group', { name: 'Cambia locker' });
    const choice = within(group).getByRole('combobox', { name: 'Nuovo locker' });
    // Only the other standard lockers: not its own, not the large one.
    expect(
      within(choice)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['2', '3']);
    fireEvent.change(choice, { target: { value: '3' } });
    fireEvent.click(within(group).getByRole('button', { name: 'Cambia locker' }));
    const dialog = screen.getByRole('dialog', { name: 'Spostare la prenotazione dal locker 1 al 3?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cambia locker' }));

    expect(await screen.findByText(/locker 1 → 3/)).toBeDefined();
    expect(api.callsTo('POST', '/api/admin/bookings/DEP-PAID-000001/move')[0]!.body).toEqual({
      from: 1,
      to: 3,
    });
    expect(api.callsTo('GET', '/api/admin/bookings/recent')).toHaveLength(2);
  });

  it('marks the test bookings an operator made, and only those', async () => {
    fakeApi({
      'GET /api/admin/bookings/recent': [
        row('DEP-TEST-000001', { is_test: true }),
        row('DEP-REAL-000001', { is_test: false }),
        // An older cloud sends no mark at all.
        row('DEP-REAL-000002'),
      ],
      'GET /api/locations/all': [LOCATION],
      'GET /api/admin/cleanup/stats': buildCleanupStats(3),
    });
    await renderWithProviders(<BookingsPage />, { path: '/admin/bookings' });
    const testRow = (await screen.findByText('DEP-TEST-000001')).closest('tr')!;
    expect(within(testRow).getByText('Test').getAttribute('title')).toBe(
      'Prenotazione di test: esclusa dagli incassi',
    );
    for (const id of ['DEP-REAL-000001', 'DEP-REAL-000002']) {
      expect(within(screen.getByText(id).closest('tr')!).queryByText('Test')).toBeNull();
    }
    fireEvent.click(within(testRow).getByRole('button', { name: 'Dettagli' }));
    expect(screen.getByText(/prenotazione di test, esclusa dagli incassi/)).toBeDefined();
  });
  it('offers the refund of a booking whose money is owed, through the gateway, and shows the answer', async () => {
    let refunded = false;
    const api = fakeApi({
      'GET /api/admin/bookings/recent': () => [
        row('DEP-OWED-000001', { STATUS: refunded ? 'refunded' : 'refund_due' }),
        row('DEP-PAID-000001'),
      ],
      'GET /api/locations/all': [LOCATION],
      'GET /api/admin/cleanup/stats': buildCleanupStats(2),
      'GET /api/admin/bookings/DEP-OWED-000001/history': [
        {
          at: '2026-07-15T07:01:00.000Z',
          from: 'pending',
          to: 'confirmed',
          actor: 'provider',
          reason: 'paid',
          detail: null,
        },
        {
          at: '2026-07-15T07:30:00.000Z',
          from: 'confirmed',
          to: 'refund_due',
          actor: 'operator',
          reason: 'operator_cancelled',
          detail: 'guasto alla serratura',
        },
      ],
      'GET /api/admin/bookings/DEP-PAID-000001/history': [],
      'POST /api/admin/bookings/DEP-OWED-000001/refund': () => {
        refunded = true;
        return { success: true, status: 'refunded', message: 'Rimborso eseguito dal gateway di pagamento' };
      },
    });
    await renderWithProviders(<BookingsPage />, { path: '/admin/bookings' });
    const paidRow = (await screen.findByText('DEP-PAID-000001')).closest('tr')!;
    fireEvent.click(within(paidRow).getByRole('button', { name: 'Dettagli' }));
    expect(screen.queryByRole('button', { name: 'Rimborsa con il gateway' })).toBeNull();
    fireEvent.click(within(paidRow).getByRole('button', { name: 'Nascondi' }));

    const owedRow = screen.getByText('DEP-OWED-000001').closest('tr')!;
    fireEvent.click(within(owedRow).getByRole('button', { name: 'Dettagli' }));
    // Its history says how it came to be owed.
    const history = await screen.findByRole('list', { name: 'Storico della prenotazione' });
    expect(history.textContent).toContain('15/07/2026 09:30');
    expect(history.textContent).toContain("Confermata → Da rimborsare · operatore, annullata dall'operatore");
    expect(history.textContent).toContain('(guasto alla serratura)');
    fireEvent.click(screen.getByRole('button', { name: 'Rimborsa con il gateway' }));
    expect(await screen.findByText('Rimborso eseguito dal gateway di pagamento')).toBeDefined();
    expect(api.callsTo('POST', '/api/admin/bookings/DEP-OWED-000001/refund')[0]!.body).toEqual({
      byHand: false,
    });
    // The list is read again: the booking is refunded, nothing more to do.
    await screen.findByText('Rimborsata (refunded)');
    expect(screen.queryByRole('button', { name: 'Rimborsa con il gateway' })).toBeNull();
  });
});
