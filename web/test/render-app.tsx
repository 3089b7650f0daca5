import { QueryClientProvider } from '@tanstack/react-query';
import { render, type RenderResult } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import type { ReactNode } from 'react';
import { createMemoryI18n } from '../src/i18n';
import { AppRoutes } from '../src/App';
import { ClockProvider } from '../src/components/clock';
import { createAdminQueryClient } from '../src/admin/query/query-client';
import it from '../../locales/it/common.json';
import en from '../../locales/en/common.json';
import es from '../../locales/es/common.json';
import jp from '../../locales/jp/common.json';

export const RESOURCES = {
  it: { common: it },
  en: { common: en },
  es: { common: es },
  jp: { common: jp },
};

/** Shows the router's current path so tests can see redirects. */
function PathProbe() {
  const location = useLocation();
  return <output data-testid="path">{location.pathname + location.search}</output>;
}

export async function renderWithProviders(
  ui: ReactNode,
  {
    path = '/',
    now = new Date('2026-07-01T08:00:00Z'),
    language = 'it',
    clockRuns = false,
  }: { path?: string; now?: Date; language?: string; clockRuns?: boolean } = {},
): Promise<RenderResult & { i18n: Awaited<ReturnType<typeof createMemoryI18n>> }> {
  const i18n = await createMemoryI18n(RESOURCES, language);
  // The pages' clock stands at `now`, or (`clockRuns`) starts there and runs on with the test's time
  // (fake timers included), so countdowns and expiries behave as on a phone.
  const startedAt = Date.now();
  const clock = clockRuns ? () => new Date(now.getTime() + (Date.now() - startedAt)) : () => now;
  // The admin pages read through TanStack Query, as AdminApp provides it: each render its own cache.
  const result = render(
    <I18nextProvider i18n={i18n}>
      <ClockProvider clock={clock}>
        <QueryClientProvider client={createAdminQueryClient()}>
          <MemoryRouter initialEntries={[path]}>
            <Routes>
              <Route path="*" element={ui} />
            </Routes>
            <PathProbe />
          </MemoryRouter>
        </QueryClientProvider>
      </ClockProvider>
    </I18nextProvider>,
  );
  return Object.assign(result, { i18n });
}

/** The whole customer app at `path`, as the router would show it. */
export function renderApp(options: { path?: string; now?: Date; language?: string } = {}) {
  return renderWithProviders(<AppRoutes />, options);
}
