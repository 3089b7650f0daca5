import { cleanup, screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render-app';
import { BookingsPage } from './pages/BookingsPage';
import { DiscountsPage } from './pages/DiscountsPage';
import { LocationSettingsPage } from './pages/LocationSettingsPage';
import { SystemSettingsPage } from './pages/SystemSettingsPage';
import { UsersPage } from './pages/UsersPage';

// Every column of the admin tables has a header a screen reader can announce, even the action
// columns whose header shows nothing.

const LOCATION = {
  key: 'roma',
  nome: 'Roma Termini',
  indirizzo: 'Via Marsala 1',
  timezone: 'Europe/Rome',
  orari: { apertura: '07:00', chiusura: '22:00' },
  lockerStructure: { standard: [1, 2, 3], large: [4] },
  maxOnline: { standard: 3, large: 1 },
  pricing: { standard: { hours: { '3': 5 }, days: {} }, large: { hours: { '3': 7 }, days: {} } },
  version: 1,
};

const API = {
  'GET /api/locations/all': [LOCATION],
  'GET /api/admin/bookings/recent': [
    {
      TRANSACTION_ID: 'DEP-REAL-000001',
      STATUS: 'confirmed',
      LOCATION_KEY: 'roma',
      START_TIME: '2026-07-15T08:00:00.000Z',
      END_TIME: '2026-07-15T11:00:00.000Z',
      created_at: '2026-07-15T07:00:00.000Z',
      locker_id: 1,
      locker_type: 'standard',
      nome: 'Mario',
      cognome: 'Rossi',
      email: 'mario@example.it',
      telefono_prefisso: '+39',
      telefono_numero: '3331234567',
      PIN: '482915',
      note: '',
      price_original: 5,
      price_discounted: 5,
    },
  ],
  'GET /api/admin/cleanup/stats': {
    success: true,
    data: { totalBookings: 1, oldBookings: { count: 0 }, byStatus: [] },
  },
  'GET /api/discounts/all': [
    {
      code: 'ESTATE20',
      description: 'Estate',
      discountPercent: 20,
      discountEuro: null,
      validFrom: null,
      validTo: null,
      usableOnce: true,
      minDays: null,
      timesUsed: 1,
      version: 4,
    },
  ],
  'GET /api/admin/settings/system': {
    BLOCK_WINDOWS: [{ from: '02:00', to: '03:00' }],
    BOOKING_EXPIRATION_MINUTES: 15,
    MAINTENANCE_MODE: false,
    FASTTRACK_FROM: '06:00',
    FASTTRACK_TO: '21:00',
    SHOW_NIGHT_BUTTON_TEST: false,
    ALWAYS_SHOW_FAST_TRACK: false,
    version: 7,
  },
  'GET /api/admin/users': [
    {
      id: 1,
      email: 'admin@deposito.test',
      createdAt: '2026-07-01T08:00:00.000Z',
      lastLoginAt: null,
      version: 1,
    },
  ],
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const PAGES: [string, ReactNode, string][] = [
  ['Prenotazioni', <BookingsPage key="b" />, 'DEP-REAL-000001'],
  ['Codici sconto', <DiscountsPage key="d" />, 'ESTATE20'],
  ['Parametri di sistema', <SystemSettingsPage key="s" />, '02:00'],
  ['Utenti', <UsersPage key="u" />, 'admin@deposito.test'],
  ['Impostazioni Sedi (prezzi)', <LocationSettingsPage key="l" />, 'Roma Termini'],
];

describe('admin table headers', () => {
  it.each(PAGES)('%s: every column header has text', async (_name, page, shown) => {
    fakeApi({ ...API });
    await renderWithProviders(page, { path: '/admin' });
    await screen.findAllByText(shown, { exact: false }).catch(() => screen.findByDisplayValue(shown));
    if (shown === 'Roma Termini') {
      (await screen.findByRole('button', { name: /Roma Termini/ })).click();
    }
    const headers = await screen.findAllByRole('columnheader');
    const empty = headers.filter((header) => !header.textContent?.trim());
    expect(empty.map((header) => header.outerHTML)).toEqual([]);
    // The action column (the one that used to be empty) is there, named for screen readers only.
    expect(headers.some((header) => header.querySelector('.visually-hidden'))).toBe(true);
  });
});
