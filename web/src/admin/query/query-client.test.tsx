import { QueryClientProvider, useQuery } from '@tanstack/react-query';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiError, fakeApi } from '../../../test/fake-api';
import { ApiError } from '../../api/http';
import { errorText, setUnauthorizedHandler } from '../admin-api';
import { ADMIN_SIGNED_IN_KEY, isAdminSignedIn } from '../admin-session';
import { createAdminQueryClient, retryRead } from './query-client';
import { adminQueries } from './queries';

let restoreHandler: (() => void) | undefined;

afterEach(() => {
  cleanup();
  restoreHandler?.();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

/** One admin read, as a page makes it, shown as its data, its Italian error, or loading. */
function DiscountCount() {
  const query = useQuery(adminQueries.discounts());
  if (query.isError) return <p role="alert">{errorText(query.error, 'Errore')}</p>;
  return <p>{query.data ? `${query.data.length} codici` : 'Caricamento…'}</p>;
}

function renderRead() {
  return render(
    <QueryClientProvider client={createAdminQueryClient()}>
      <DiscountCount />
    </QueryClientProvider>,
  );
}

describe('the admin query setup', () => {
  it('ends the session on a 401: forgets the sign-in, opens the login page once, asks no more', async () => {
    window.localStorage.setItem(ADMIN_SIGNED_IN_KEY, '1');
    const toLogin = vi.fn();
    restoreHandler = setUnauthorizedHandler(toLogin);
    const api = fakeApi({ 'GET /api/discounts/all': apiError(401, 'auth/unauthorized', 'Unauthorized') });
    renderRead();

    expect((await screen.findByRole('alert')).textContent).toBe('Sessione scaduta: accedi di nuovo');
    expect(toLogin).toHaveBeenCalledTimes(1);
    expect(isAdminSignedIn()).toBe(false);
    expect(api.callsTo('GET', '/api/discounts/all')).toHaveLength(1);
  });

  it('does not ask again after a refusal (4xx), and shows its Italian text', async () => {
    const api = fakeApi({ 'GET /api/discounts/all': apiError(403, 'auth/forbidden', 'Forbidden') });
    renderRead();

    expect((await screen.findByRole('alert')).textContent).toBe(
      'Il tuo ruolo non permette questa operazione, o non su questa sede',
    );
    expect(api.callsTo('GET', '/api/discounts/all')).toHaveLength(1);
  });

  it('tries once more after a server error or network trouble, then shows the answer', async () => {
    let calls = 0;
    const api = fakeApi({
      'GET /api/discounts/all': () => {
        calls += 1;
        if (calls === 1) throw new TypeError('Failed to fetch');
        return [];
      },
    });
    renderRead();
    expect(await screen.findByText('0 codici')).toBeDefined();
    expect(api.callsTo('GET', '/api/discounts/all')).toHaveLength(2);

    cleanup();
    const failing = fakeApi({ 'GET /api/discounts/all': () => apiError(503, 'internal', 'Unavailable') });
    renderRead();
    expect((await screen.findByRole('alert')).textContent).toBe('Errore interno del server');
    await waitFor(() => expect(failing.callsTo('GET', '/api/discounts/all')).toHaveLength(2));
  });

  it('never retries a timeout, an unreadable answer or anything but our client errors', () => {
    expect(retryRead(0, new ApiError('client/timeout', 'x'))).toBe(false);
    expect(retryRead(0, new ApiError('client/invalid_response', 'x', 200))).toBe(false);
    expect(retryRead(0, new Error('render bug'))).toBe(false);
    expect(retryRead(0, new ApiError('internal', 'x', 500))).toBe(true);
    expect(retryRead(1, new ApiError('internal', 'x', 500))).toBe(false);
  });
});
