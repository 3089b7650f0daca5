import { screen } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../test/fake-api';
import { renderWithProviders } from '../../test/render-app';
import {
  buildAdminLocation,
  buildBookingRow,
  buildCleanupStats,
  buildDiscountCode,
  buildSystemSettings,
} from '../../test/admin-builders';
import { BookingsPage } from './pages/BookingsPage';
import { DiscountsPage } from './pages/DiscountsPage';
import { LocationSettingsPage } from './pages/LocationSettingsPage';
import { SystemSettingsPage } from './pages/SystemSettingsPage';
import { UsersPage } from './pages/UsersPage';

// Every column of the admin tables has a header a screen reader can announce, even the action
// columns whose header shows nothing.

const LOCATION = buildAdminLocation({ version: 1 });

const API = {
  'GET /api/locations/all': [LOCATION],
  'GET /api/admin/bookings/recent': [buildBookingRow('DEP-REAL-000001')],
  'GET /api/admin/cleanup/stats': buildCleanupStats(1),
  'GET /api/discounts/all': [buildDiscountCode()],
  'GET /api/admin/settings/system': buildSystemSettings({ BLOCK_WINDOWS: [{ from: '02:00', to: '03:00' }] }),
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
