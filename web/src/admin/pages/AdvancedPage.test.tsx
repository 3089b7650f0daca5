import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderWithProviders } from '../../../test/render-app';
import { buildFullAdminLocation } from '../../../test/admin-builders';
import { AdvancedPage } from './AdvancedPage';
import { fillAndSubmit } from '../../../test/fill-form';

function location(key: string, nome: string, timezone: string) {
  return buildFullAdminLocation({ id: key, key, nome, indirizzo: 'Via Test 1', timezone });
}

describe('Strumenti Avanzati', () => {
  it("starts a test booking at the London site's own now, not Rome's", async () => {
    const api = fakeApi({
      'GET /api/system/admin/locations-full': {
        roma: location('roma', 'Roma Termini', 'Europe/Rome'),
        london: location('london', 'London Bridge', 'Europe/London'),
      },
      'POST /api/system/admin/create-test-booking': {
        success: true,
        message: 'Prenotazione creata',
        transactionId: 'DEP-TEST-000001',
      },
    });
    // 1 July 2026, 08:00 UTC: 10:00 in Rome, 09:00 in London.
    await renderWithProviders(<AdvancedPage />, {
      path: '/admin/advanced',
      now: new Date('2026-07-01T08:00:00Z'),
    });
    const site = await screen.findByLabelText('Location');
    await screen.findByRole('option', { name: 'London Bridge (london)' });
    expect((screen.getByLabelText('Inizio (Europe/Rome)') as HTMLInputElement).value).toBe(
      '2026-07-01T10:00',
    );

    fireEvent.change(site, { target: { value: 'london' } });
    expect((screen.getByLabelText('Inizio (Europe/London)') as HTMLInputElement).value).toBe(
      '2026-07-01T09:00',
    );
    expect((screen.getByLabelText('Fine (Europe/London)') as HTMLInputElement).value).toBe(
      '2026-07-01T12:00',
    );
    fillAndSubmit({ Nome: 'Mario', Cognome: 'Rossi', Email: 'mario@example.it' }, 'Crea prenotazione');

    await screen.findByText('Prenotazione creata');
    expect(api.callsTo('POST', '/api/system/admin/create-test-booking')[0]!.body).toMatchObject({
      location: 'london',
      startTime: '2026-07-01T08:00:00.000Z',
      endTime: '2026-07-01T11:00:00.000Z',
    });
  });

  it("refuses what the protocol's schema refuses, in the page's words, before sending", async () => {
    const api = fakeApi({
      'GET /api/system/admin/locations-full': { roma: location('roma', 'Roma Termini', 'Europe/Rome') },
    });
    await renderWithProviders(<AdvancedPage />, {
      path: '/admin/advanced',
      now: new Date('2026-07-01T08:00:00Z'),
    });
    await screen.findByRole('option', { name: 'Roma Termini (roma)' });
    fillAndSubmit(
      { Nome: 'Mario', Cognome: 'Rossi', Email: 'mario@example.it', 'Conferma email': 'maria@example.it' },
      'Crea prenotazione',
    );
    expect(await screen.findByText('Errore: Le email non coincidono')).toBeDefined();
    expect(screen.getByLabelText('Conferma email').getAttribute('aria-invalid')).toBe('true');

    fillAndSubmit(
      { 'Conferma email': 'mario@example.it', 'Fine (Europe/Rome)': '2026-07-01T09:00' },
      'Crea prenotazione',
    );
    expect(await screen.findByText("Errore: La fine deve essere dopo l'inizio")).toBeDefined();
    expect(screen.getByLabelText('Fine (Europe/Rome)').getAttribute('aria-invalid')).toBe('true');
    expect(api.callsTo('POST', '/api/system/admin/create-test-booking')).toHaveLength(0);
  });
});
