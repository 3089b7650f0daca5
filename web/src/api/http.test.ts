import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { ApiError, requestJson, requestPage } from './http';
import { callRoute, routePath } from './call-route';
import { bookingRoutes } from '@deposito/protocol';

afterEach(() => vi.unstubAllGlobals());

function answer(body: unknown, status = 200, type = 'application/json') {
  vi.stubGlobal(
    'fetch',
    vi.fn(
      async () =>
        new Response(typeof body === 'string' ? body : JSON.stringify(body), {
          status,
          headers: { 'Content-Type': type },
        }),
    ),
  );
}

describe('api client', () => {
  it('turns an error body into an ApiError with its code', async () => {
    answer({ error: { code: 'BOOKING_EXPIRED', message: 'The booking has expired' } }, 409);
    const failure = await requestJson('/api/x', z.object({})).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ApiError);
    expect(failure).toMatchObject({
      code: 'BOOKING_EXPIRED',
      message: 'The booking has expired',
      status: 409,
    });
  });

  it('rejects answers that do not match the schema', async () => {
    answer({ unexpected: true });
    await expect(requestJson('/api/x', z.object({ ok: z.boolean() }))).rejects.toMatchObject({
      code: 'client/invalid_response',
    });
  });

  it('reports network failures and timeouts with client codes', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Promise.reject(new TypeError('Failed to fetch'))),
    );
    await expect(requestJson('/api/x', z.object({}))).rejects.toMatchObject({ code: 'client/network' });

    vi.stubGlobal(
      'fetch',
      vi.fn(
        (_: unknown, init: RequestInit) =>
          new Promise((_resolve, reject) =>
            init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
          ),
      ),
    );
    await expect(requestJson('/api/x', z.object({}), { timeoutMs: 20 })).rejects.toMatchObject({
      code: 'client/timeout',
    });
  });

  it('reads an HTML page or a JSON answer from the payment calls', async () => {
    const schema = z.union([z.string(), z.object({ bookingConfirmed: z.literal(true) })]);
    answer('<html>pay</html>', 200, 'text/html');
    await expect(requestPage('/api/p', schema)).resolves.toBe('<html>pay</html>');
    answer({ bookingConfirmed: true });
    await expect(requestPage('/api/p', schema)).resolves.toEqual({ bookingConfirmed: true });
  });

  it('fills path parameters and parses with the route schema', async () => {
    expect(routePath('/api/bookings/:transactionId/cancel', { transactionId: 'BOOKING-a/b' })).toBe(
      '/api/bookings/BOOKING-a%2Fb/cancel',
    );
    const fetchMock = vi.fn(async () => Response.json({ success: true }));
    vi.stubGlobal('fetch', fetchMock);
    await expect(
      callRoute(bookingRoutes.cancel, { params: { transactionId: 'BOOKING-abcdefghijklmnopqrstuvwx' } }),
    ).resolves.toEqual({ success: true });
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/bookings/BOOKING-abcdefghijklmnopqrstuvwx/cancel',
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
