import { cleanup, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/render-app';
import { CHUNK_RELOAD_KEY, RouteErrorBoundary } from './RouteErrorBoundary';

function Throws({ error }: { error: Error }): never {
  throw error;
}

const chunkError = () =>
  new TypeError('Failed to fetch dynamically imported module: https://x/assets/NightWizardPage-abc.js');

describe('the error boundary around each page', () => {
  beforeEach(() => {
    window.sessionStorage.clear();
    // React reports caught render errors on the console; the boundary's own line too.
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    cleanup();
    vi.restoreAllMocks();
  });

  it('reloads once when a chunk of the page is gone after a deploy', async () => {
    const reload = vi.fn();
    await renderWithProviders(
      <RouteErrorBoundary reload={reload} now={() => 1_000_000}>
        <Throws error={chunkError()} />
      </RouteErrorBoundary>,
    );
    expect(reload).toHaveBeenCalledTimes(1);
    expect(window.sessionStorage.getItem(CHUNK_RELOAD_KEY)).toBe('1000000');
  });

  it('shows the translated error screen when the chunk is still missing right after that reload', async () => {
    window.sessionStorage.setItem(CHUNK_RELOAD_KEY, '1000000');
    const reload = vi.fn();
    await renderWithProviders(
      <RouteErrorBoundary reload={reload} now={() => 1_005_000}>
        <Throws error={chunkError()} />
      </RouteErrorBoundary>,
      { language: 'en' },
    );
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeDefined();
  });

  it('shows the error screen, never a blank page, for any other failure', async () => {
    const reload = vi.fn();
    await renderWithProviders(
      <RouteErrorBoundary reload={reload}>
        <Throws error={new Error('boom')} />
      </RouteErrorBoundary>,
    );
    expect(reload).not.toHaveBeenCalled();
    expect(screen.getByRole('heading', { name: 'Qualcosa è andato storto' })).toBeDefined();
    screen.getByRole('button', { name: 'Ricarica la pagina' }).click();
    expect(reload).toHaveBeenCalledTimes(1);
  });
});
