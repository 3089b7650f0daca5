import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { renderApp } from '../test/render-app';
import { apiError, fakeApi } from '../test/fake-api';

describe('routes', () => {
  it('shows the home screen with the three real locations and the Italian/English switch', async () => {
    fakeApi({});
    await renderApp({ path: '/' });
    // The home page is its own lazy chunk.
    expect(await screen.findByRole('heading', { name: 'Deposito bagagli' })).toBeDefined();
    const links = screen.getAllByRole('link').map((link) => link.getAttribute('href'));
    // The spec's test site is not offered to visitors.
    expect(links).toEqual(['/oca', '/vicolo', '/termini']);
    // The tab says which page this is, in the visitor's language (set once the page's effect ran).
    await waitFor(() => expect(document.title).toBe('Deposito bagagli · Deposito'));
    fireEvent.click(screen.getByRole('button', { name: 'English' }));
    expect(await screen.findByRole('heading', { name: 'Luggage storage' })).toBeDefined();
    expect(screen.getByRole('button', { name: 'Italiano' })).toBeDefined();
    await waitFor(() => expect(document.title).toBe('Luggage storage · Deposito'));
  });

  it('sends deeper unknown paths and unknown locations home', async () => {
    fakeApi({
      'GET /api/locations/nowhere': new Response(
        JSON.stringify({ error: { code: 'location/not_found', message: 'Location not found' } }),
        { status: 404, headers: { 'Content-Type': 'application/json' } },
      ),
      'GET /api/admin/frontend-overrides': {},
    });
    await renderApp({ path: '/nowhere' });
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/'));
  });

  it('sends the night wizard of an unknown location home too, rather than asking to check the connection', async () => {
    fakeApi({
      'GET /api/locations/nowhere': apiError(404, 'location/not_found', 'Location not found'),
      'GET /api/admin/frontend-overrides': {},
    });
    await renderApp({ path: '/booking-notte/nowhere' });
    await waitFor(() => expect(screen.getByTestId('path').textContent).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Deposito bagagli' })).toBeDefined();
  });

  it('still says so when the location could not be loaded, on both pages', async () => {
    for (const path of ['/vicolo', '/booking-notte/vicolo']) {
      fakeApi({
        'GET /api/locations/vicolo': apiError(503, 'store/unavailable', 'Service unavailable'),
        'GET /api/admin/frontend-overrides': {},
      });
      const { unmount } = await renderApp({ path });
      expect(await screen.findByRole('button', { name: 'Ricarica la pagina' })).toBeDefined();
      expect(screen.getByTestId('path').textContent).toBe(path);
      unmount();
    }
  });

  it('loads the admin area lazily', async () => {
    fakeApi({});
    await renderApp({ path: '/admin/login' });
    // The customer pages no longer import zod and protocol's schemas up front, so this lazy import
    // loads them too: more than findBy's default second on a loaded machine.
    expect(await screen.findByRole('heading', { level: 1 }, { timeout: 15_000 })).toBeDefined();
  });
});
