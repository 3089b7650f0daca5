import type { Page, Route } from '@playwright/test';
import { buildPublicLocation } from '../../test/builders';
import { serveLocalesFromRepository } from './locales';

export const MOCK_TRANSACTION_ID = 'BOOKING-e2eabcdefghijklmnopqrstu';

export const MOCK_LOCATION = buildPublicLocation({
  dailyPrices: { standard: { '1': 12, '2': 22 }, large: { '1': 16, '2': 30 } },
});

/**
 * The mocked booking as the cloud reads it back: Giulia Rossi's paid standard locker 3, 11:00 to
 * 15:00 in Rome on 1 July 2026.
 */
export function mockBookingReadBack(overrides: Record<string, unknown> = {}) {
  return {
    transactionId: MOCK_TRANSACTION_ID,
    location: 'vicolo',
    nome: 'Giulia',
    cognome: 'Rossi',
    email: 'giulia@example.com',
    lockerType: 'standard',
    quantita: 1,
    reservedLockers: [3],
    startTimeIso: '2026-07-01T09:00:00.000Z',
    endTimeIso: '2026-07-01T13:00:00.000Z',
    price_discounted: 6,
    status: 'confirmed',
    pin: '482913',
    note: 'lang:it',
    ...overrides,
  };
}

export const MOCK_OVERRIDES = {
  showNightButtonTest: false,
  ALWAYS_SHOW_FAST_TRACK: false,
  fastTrackHours: { from: '06:00', to: '21:00' },
  BLOCK_WINDOWS: [],
  MAINTENANCE_MODE: false,
};

type Answer = unknown | ((route: Route) => unknown);

/**
 * A stand-in for the cloud inside the browser (page.route), for page tests that must not depend on
 * a running server. Keys are "METHOD /path"; translation files come from the repository.
 */
export async function mockCloud(page: Page, answers: Record<string, Answer> = {}): Promise<void> {
  const defaults: Record<string, Answer> = {
    'GET /api/locations/vicolo': MOCK_LOCATION,
    'GET /api/admin/frontend-overrides': MOCK_OVERRIDES,
    'GET /api/bookings/availability': (route: Route) => {
      const day = new URL(route.request().url()).searchParams.get('startDate')!.slice(0, 10);
      return { [day]: { standard: 4, large: 2 } };
    },
    'GET /api/bookings/future': (route: Route) => {
      const day = new URL(route.request().url()).searchParams.get('startDate')!.slice(0, 10);
      return { [day]: { standard: 4, large: 2 } };
    },
    'POST /api/lockers/inhibit-multi': {
      success: true,
      reservedLockers: [3],
      transactionId: MOCK_TRANSACTION_ID,
      // The tests fix the page clock at 1 July 2026, 10:00 in Rome.
      expiresAt: '2026-07-01T08:15:00.000Z',
    },
    'POST /api/bookings/immediate': { locker: { size: 'large', lockerId: 7 }, duration: 3, price: 7 },
    'POST /api/night-availability/check': { disponibili: 3, disponibile: true },
    'POST /api/discounts/validate-discount': {
      valid: true,
      type: 'percent',
      value: 10,
      message: 'Sconto 10%',
    },
    ...answers,
  };
  await serveLocalesFromRepository(page);
  await page.route('**/api/**', async (route) => {
    const url = new URL(route.request().url());
    const key = `${route.request().method()} ${url.pathname}`;
    if (!(key in defaults)) {
      await route.fulfill({ status: 404, json: { error: { code: 'route/not_found', message: key } } });
      return;
    }
    const answer = defaults[key];
    const body = typeof answer === 'function' ? await (answer as (route: Route) => unknown)(route) : answer;
    await route.fulfill({ json: body });
  });
}
