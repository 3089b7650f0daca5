import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildDiscountCode } from '../../../test/admin-builders';
import { DiscountsPage } from './DiscountsPage';

const CODE = buildDiscountCode();

describe('Gestione Codici Sconto', () => {
  it('edits a code in place with the version it read, and offers to reload when another operator saved first', async () => {
    const stale =
      'Il codice ESTATE20 è stato modificato da anna@deposito.test il 27/03/2026 alle 09:12, dopo che hai aperto questa pagina: ricarica per vedere le modifiche (le tue non sono state salvate)';
    const api = fakeApi({
      'GET /api/discounts/all': [CODE],
      'PUT /api/discounts/ESTATE20': apiError(409, 'edit/stale', stale),
    });
    await renderWithProviders(<DiscountsPage />, { path: '/admin/discounts' });
    const row = (await screen.findByText('ESTATE20')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Modifica' }));
    const editing = screen.getByDisplayValue('Estate').closest('tr')!;
    fireEvent.change(within(editing).getByLabelText('Valore (%)'), { target: { value: '25' } });
    fireEvent.click(within(editing).getByRole('button', { name: 'Salva' }));

    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('modificato da anna@deposito.test');
    // One call, no delete: a refused edit cannot lose the code or its usage.
    expect(api.callsTo('DELETE', '/api/discounts/ESTATE20')).toHaveLength(0);
    expect(api.callsTo('PUT', '/api/discounts/ESTATE20')[0].body).toMatchObject({
      code: 'ESTATE20',
      discountPercent: 25,
      version: 4,
    });

    api.set('GET /api/discounts/all', [{ ...CODE, description: 'Estate 2026', version: 5 }]);
    fireEvent.click(within(alert).getByRole('button', { name: 'Ricarica' }));
    expect(await screen.findByText('Estate 2026')).toBeDefined();
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it("shows the server's Italian message when a checkout in progress holds the code", async () => {
    const inUse =
      'Il codice ESTATE20 è in uso in un pagamento in corso: riprova quando la prenotazione sarà pagata o scaduta';
    fakeApi({
      'GET /api/discounts/all': [CODE],
      'DELETE /api/discounts/ESTATE20': apiError(409, 'discount/in_use', inUse),
    });
    await renderWithProviders(<DiscountsPage />, { path: '/admin/discounts' });
    const row = (await screen.findByText('ESTATE20')).closest('tr')!;
    fireEvent.click(within(row).getByRole('button', { name: 'Elimina' }));
    const dialog = screen.getByRole('dialog', { name: 'Eliminare il codice ESTATE20?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Elimina' }));
    expect((await screen.findByRole('alert')).textContent).toContain(inUse);
    expect(screen.getByText('ESTATE20')).toBeDefined();
  });

  it('refuses what the server would refuse, in Italian by the field, before sending anything', async () => {
    const api = fakeApi({ 'GET /api/discounts/all': [] });
    await renderWithProviders(<DiscountsPage />, { path: '/admin/discounts' });
    const card = (await screen.findByRole('heading', { name: 'Nuovo codice' })).closest('section')!;
    fireEvent.change(within(card).getByLabelText('Codice'), { target: { value: 'TROPPO' } });
    fireEvent.change(within(card).getByLabelText('Valore (%)'), { target: { value: '150' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Crea codice' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Valore (%): al massimo 100');

    fireEvent.change(within(card).getByLabelText('Valore (%)'), { target: { value: '15' } });
    fireEvent.change(within(card).getByLabelText('Valido dal'), { target: { value: '2026-12-31' } });
    fireEvent.change(within(card).getByLabelText('Valido fino al'), { target: { value: '2026-12-01' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Crea codice' }));
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toContain(
        'La data di fine validità è prima di quella di inizio',
      ),
    );
    expect(within(card).getByLabelText('Valido fino al').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/discounts/create')).toHaveLength(0);
  });
});
