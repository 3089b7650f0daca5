import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, fakeApi, type RecordedCall } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildAdminLocation } from '../../../test/admin-builders';
import { LockerStatusPage } from './LockerStatusPage';

const TX = 'DEP-20260715-7K2Q9X';

const LOCATION = buildAdminLocation();

const LOCKERS = [
  { id: 1, size: 'standard', status: 'available' },
  { id: 2, size: 'standard', status: 'occupied', transactionId: TX, online: true },
];

/** The 409 the cloud answers when an action would cancel a live booking. */
function bookingLive(booking: { status: string; paid: boolean; paidCents: number }) {
  return new Response(
    JSON.stringify({
      error: {
        code: 'locker/booking_live',
        message: 'Il locker 2 ha una prenotazione attiva',
        details: {
          lockerId: 2,
          bookings: [
            {
              transactionId: TX,
              startTimeIso: '2026-07-15T08:00:00.000Z',
              endTimeIso: '2026-07-15T11:00:00.000Z',
              lockerNumbers: [2],
              customerName: 'Mario Rossi',
              ...booking,
            },
          ],
        },
      },
    }),
    { status: 409, headers: { 'Content-Type': 'application/json' } },
  );
}

/** First call without `confirm`: the 409; with it: done, the booking cancelled as the body says. */
function unbookSoap(booking: { status: string; paid: boolean; paidCents: number }) {
  return (call: RecordedCall) => {
    const body = call.body as { confirm?: boolean; refund?: boolean };
    if (!body.confirm) return bookingLive(booking);
    return {
      success: true,
      outcome: 'executed',
      commandId: 'unbook-1',
      cancelledBookings: [
        {
          transactionId: TX,
          status: body.refund === false || !booking.paid ? 'cancelled_by_operator' : 'refund_due',
        },
      ],
    };
  };
}

function api(overrides: Record<string, unknown> = {}) {
  return fakeApi({
    'GET /api/locations/all': [LOCATION],
    'GET /api/lockers/full-state': LOCKERS,
    ...overrides,
  });
}

async function openLocker(id: number) {
  await renderWithProviders(<LockerStatusPage />, { path: '/admin/locker-status' });
  await waitFor(() => expect(screen.getByRole('option', { name: /Roma Termini/ })).toBeDefined());
  fireEvent.change(screen.getByLabelText('Location'), { target: { value: 'roma' } });
  const grid = await screen.findByRole('listbox', { name: 'Locker' });
  const tile = within(grid)
    .getAllByRole('option')
    .find((option) => option.querySelector('.adm-locker-id')?.textContent === String(id));
  fireEvent.click(tile!);
}

/** The dialog's second step, once the server named the bookings. */
/**
 * The dialog listing the bookings an action would cancel, once it is open. Its words are in the page
 * a moment before it opens (ConfirmDialog sets `open` in an effect after the render), and a test that
 * found the words first met a closed dialog on a busy machine; the question before it has the same
 * title, so the open dialog is taken only once it shows the bookings.
 */
async function bookingsDialog(name: string): Promise<HTMLElement> {
  return waitFor(() => {
    const dialog = screen.getByRole('dialog', { name });
    expect(dialog.textContent).toMatch(/Il locker ha (una|\d+) prenotazion/);
    return dialog;
  });
}

const actionButton = (name: string) =>
  within(document.querySelector('.adm-action-list') as HTMLElement).getByRole('button', { name });

describe('Gestione Locker confirmations', () => {
  it('asks before Apri, and sends nothing when the operator cancels', async () => {
    const calls = api({ 'POST /api/lockers/open': { success: true, outcome: 'executed' } });
    await openLocker(1);
    fireEvent.click(actionButton('Apri'));
    const dialog = screen.getByRole('dialog', { name: 'Apri · locker 1' });
    expect(dialog.textContent).toContain('Aprire il locker 1?');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annulla' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.callsTo('POST', '/api/lockers/open')).toHaveLength(0);

    fireEvent.click(actionButton('Apri'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Apri' }));
    await screen.findByText('Apri: comando eseguito sul locker 1');
    expect(calls.callsTo('POST', '/api/lockers/open').map((c) => c.body)).toEqual([
      { location: 'roma', lockerId: 1 },
    ]);
  });

  it('shows the paid booking Annulla prenotazione would cancel, with a reason and the refund ticked', async () => {
    const calls = api({
      'POST /api/lockers/unbook-soap': unbookSoap({ status: 'confirmed', paid: true, paidCents: 1250 }),
    });
    await openLocker(2);
    fireEvent.click(actionButton('Annulla prenotazione'));
    const question = screen.getByRole('dialog');
    expect(question.textContent).toContain('Sei sicuro di voler annullare la prenotazione del locker 2?');
    fireEvent.click(within(question).getByRole('button', { name: 'Annulla prenotazione' }));

    const dialog = await bookingsDialog('Annulla prenotazione · locker 2');
    expect(dialog.textContent).toContain(TX);
    expect(dialog.textContent).toContain('Confermata');
    expect(dialog.textContent).toContain('€ 12,50');
    // Times in the location's zone: 08:00 UTC is 10:00 in Rome in July.
    expect(dialog.textContent).toContain('15/07/2026 10:00 – 15/07/2026 13:00');
    expect(dialog.textContent).toContain('Mario Rossi');
    const refund = within(dialog).getByLabelText('Rimborso dovuto') as HTMLInputElement;
    expect(refund.checked).toBe(true);
    fireEvent.change(within(dialog).getByLabelText('Motivo'), {
      target: { value: 'Cliente ha rinunciato' },
    });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Annulla prenotazione e procedi' }));

    await screen.findByText(
      `Annulla prenotazione: comando eseguito sul locker 2; prenotazione ${TX} annullata (Da rimborsare)`,
    );
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.callsTo('POST', '/api/lockers/unbook-soap').map((c) => c.body)).toEqual([
      { location: 'roma', lockerId: 2 },
      { location: 'roma', lockerId: 2, confirm: true, reason: 'Cliente ha rinunciato', refund: true },
    ]);
  });

  it('sends no refund when the operator unticks it, and none at all for an unpaid hold', async () => {
    const calls = api({
      'POST /api/lockers/unbook-soap': unbookSoap({ status: 'confirmed', paid: true, paidCents: 1250 }),
      'POST /api/lockers/unbook': unbookSoap({ status: 'pending', paid: false, paidCents: 0 }),
    });
    await openLocker(2);
    fireEvent.click(actionButton('Annulla prenotazione'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Annulla prenotazione' }));
    const paid = await bookingsDialog('Annulla prenotazione · locker 2');
    fireEvent.click(within(paid).getByLabelText('Rimborso dovuto'));
    fireEvent.click(within(paid).getByRole('button', { name: 'Annulla prenotazione e procedi' }));
    await screen.findByText(/annullata \(Annullata dall'operatore\)/);
    expect(calls.callsTo('POST', '/api/lockers/unbook-soap').at(-1)?.body).toEqual({
      location: 'roma',
      lockerId: 2,
      confirm: true,
      refund: false,
    });

    fireEvent.click(actionButton('Attiva'));
    const question = screen.getByRole('dialog');
    expect(question.textContent).toContain('Attivare il locker 2?');
    fireEvent.click(within(question).getByRole('button', { name: 'Attiva' }));
    const hold = await bookingsDialog('Attiva · locker 2');
    expect(hold.textContent).toContain('Non pagata');
    expect(within(hold).queryByLabelText('Rimborso dovuto')).toBeNull();
    fireEvent.click(within(hold).getByRole('button', { name: 'Annulla prenotazione e procedi' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(calls.callsTo('POST', '/api/lockers/unbook').at(-1)?.body).toEqual({
      location: 'roma',
      lockerId: 2,
      confirm: true,
    });
  });

  it('closes the booking dialog without cancelling anything', async () => {
    const calls = api({
      'POST /api/lockers/inhibit': bookingLive({ status: 'confirmed', paid: true, paidCents: 1250 }),
    });
    await openLocker(2);
    fireEvent.click(actionButton('Disattiva'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Disattiva' }));
    const dialog = await bookingsDialog('Disattiva · locker 2');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(calls.callsTo('POST', '/api/lockers/inhibit')).toHaveLength(1);
  });
});

describe('Gestione Locker results', () => {
  /** The Azioni card: its buttons and, under them, the result of the last action. */
  const actionsCard = () => screen.getByRole('heading', { name: 'Azioni' }).closest('section')!;

  it("shows Apri's result under the action buttons, where the operator is looking", async () => {
    api({ 'POST /api/lockers/open': { success: true, outcome: 'executed' } });
    await openLocker(1);
    fireEvent.click(actionButton('Apri'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Apri' }));
    const result = await within(actionsCard()).findByText('Apri: comando eseguito sul locker 1');
    expect(result.closest('[role="status"]')).not.toBeNull();
  });

  it('says in Italian why Apri failed, whatever language the bridge answered in', async () => {
    api({ 'POST /api/lockers/open': apiError(503, 'bridge/offline', 'The location is offline') });
    await openLocker(1);
    fireEvent.click(actionButton('Apri'));
    fireEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Apri' }));
    const alert = await within(actionsCard()).findByRole('alert');
    expect(alert.textContent).toContain(
      "Errore durante l'azione Apri: La sede è offline: il comando non è stato inviato",
    );
  });
});

describe("a locker's history", () => {
  it('shows what happened to the selected locker, newest first, in words', async () => {
    const calls = api({
      'GET /api/lockers/history': [
        {
          source: 'operator',
          at: '2026-07-15T09:10:00.000Z',
          type: 'admin/locker_command',
          message: 'Apri locker 2: eseguito (da ops@deposito.test)',
        },
        { source: 'controller', at: '2026-07-15T09:05:00.000Z', kind: 'door', payload: '{"door":"opened"}' },
        {
          source: 'command',
          at: '2026-07-15T09:04:00.000Z',
          op: 'open',
          status: 'succeeded',
          error: null,
          transactionId: null,
        },
        {
          source: 'booking_event',
          at: '2026-07-15T07:01:00.000Z',
          transactionId: TX,
          from: 'pending',
          to: 'confirmed',
          actor: 'provider',
          reason: 'paid',
          detail: null,
        },
        {
          source: 'booking',
          at: '2026-07-15T07:00:00.000Z',
          transactionId: TX,
          status: 'confirmed',
          startAt: '2026-07-15T08:00:00.000Z',
          endAt: '2026-07-15T11:00:00.000Z',
          name: 'Mario Rossi',
        },
      ],
    });
    await openLocker(2);
    const history = screen.getByRole('region', { name: 'Storico del locker 2' });
    fireEvent.click(within(history).getByRole('button', { name: 'Mostra storico' }));
    const items = await within(history).findAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      '15/07/2026 11:10 · Operatore Apri locker 2: eseguito (da ops@deposito.test)',
      '15/07/2026 11:05 · Controller Sportello aperto',
      '15/07/2026 11:04 · Comando Apri: succeeded',
      `15/07/2026 09:01 · Prenotazione ${TX}: In attesa → Confermata, pagata`,
      `15/07/2026 09:00 · Prenotazione ${TX} (Confermata) dal 15/07/2026 10:00 al 15/07/2026 13:00, Mario Rossi`,
    ]);
    const asked = calls.callsTo('GET', '/api/lockers/history')[0]!.query;
    expect(Object.fromEntries(asked)).toEqual({ location: 'roma', lockerId: '2' });
  });
});
