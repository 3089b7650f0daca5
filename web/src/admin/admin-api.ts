import type { z } from 'zod';
import type { ApiRoute } from '@deposito/protocol';
import { routePath, type RouteCall } from '../api/call-route';
import { ApiError, CLIENT_ERROR_CODES } from '../api/http';
import { ADMIN_REQUEST_HEADER, clearAdminSignedIn } from './admin-session';
import { adminErrorMessage } from './error-text';

// The admin screens' HTTP client: every call of protocol's catalogue with the session cookie (and
// the header that marks it as ours), the answer parsed with the route's schema. A 401 means the
// session is gone or expired: the page forgets it logged in and sends the operator to the login page.

const DEFAULT_TIMEOUT_MS = 15_000;

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => window.location.assign('/admin/login');

/** The admin app registers a router-aware handler; the default reloads the login page. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): () => void {
  const previous = onUnauthorized;
  onUnauthorized = handler;
  return () => {
    onUnauthorized = previous;
  };
}

function queryString(query: unknown): string {
  if (!query || typeof query !== 'object') return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    params.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}

async function errorFrom(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    if (parsed.error && typeof parsed.error === 'object') {
      const { code, message, details } = parsed.error as {
        code?: unknown;
        message?: unknown;
        details?: unknown;
      };
      const known = typeof code === 'string' ? code : `${CLIENT_ERROR_CODES.http}_${response.status}`;
      // The operator reads Italian, chosen by the code (error-text.ts), not the server's English.
      const serverMessage = typeof message === 'string' ? message : `Errore ${response.status}`;
      return new ApiError(known, adminErrorMessage(known, serverMessage, details), response.status, details);
    }
    if (typeof parsed.error === 'string') {
      return new ApiError(`${CLIENT_ERROR_CODES.http}_${response.status}`, parsed.error, response.status);
    }
  } catch {
    // Not JSON.
  }
  return new ApiError(
    `${CLIENT_ERROR_CODES.http}_${response.status}`,
    `Errore ${response.status}`,
    response.status,
  );
}

/** Calls one admin endpoint; resolves with the parsed answer or rejects with an ApiError. */
export async function adminCall<Route extends ApiRoute>(
  route: Route,
  call: RouteCall<Route>,
): Promise<z.output<Route['response']>> {
  const { params, query, body, timeoutMs, signal } = call as {
    params?: Record<string, unknown>;
    query?: unknown;
    body?: unknown;
    timeoutMs?: number;
    signal?: AbortSignal;
  };
  const timeout = AbortSignal.timeout(timeoutMs ?? DEFAULT_TIMEOUT_MS);
  // The session cookie goes with the request (same origin); the header marks it as ours (CSRF).
  const headers: Record<string, string> = { Accept: 'application/json', [ADMIN_REQUEST_HEADER]: '1' };
  const sendsBody = route.method !== 'GET' && route.method !== 'DELETE';
  if (sendsBody) headers['Content-Type'] = 'application/json';
  let response: Response;
  try {
    response = await fetch(routePath(route.path, params) + queryString(query), {
      method: route.method,
      headers,
      body: sendsBody ? JSON.stringify(body ?? {}) : undefined,
      signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      credentials: 'same-origin',
    });
  } catch (error) {
    if (timeout.aborted) throw new ApiError(CLIENT_ERROR_CODES.timeout, 'Il server non ha risposto in tempo');
    if (signal?.aborted) throw error;
    throw new ApiError(CLIENT_ERROR_CODES.network, 'Errore di rete o server non raggiungibile');
  }
  if (response.status === 401 && route.auth === 'admin') {
    clearAdminSignedIn();
    onUnauthorized();
    throw new ApiError('auth/unauthorized', 'Sessione scaduta: accedi di nuovo', 401);
  }
  if (!response.ok) throw await errorFrom(response);
  let data: unknown;
  try {
    data = response.status === 204 ? {} : await response.json();
  } catch {
    throw new ApiError(
      CLIENT_ERROR_CODES.invalidResponse,
      'Formato dati non valido dal server',
      response.status,
    );
  }
  const parsed = (route.response as z.ZodType).safeParse(data);
  if (!parsed.success) {
    throw new ApiError(
      CLIENT_ERROR_CODES.invalidResponse,
      'Formato dati non valido dal server',
      response.status,
    );
  }
  return parsed.data as z.output<Route['response']>;
}

/** The server's message for an error, or `fallback` for network trouble and unexpected answers. */
export function errorText(error: unknown, fallback: string): string {
  if (error instanceof ApiError) {
    if (error.code === CLIENT_ERROR_CODES.network) return 'Errore di rete o server non raggiungibile';
    if (error.code.startsWith('client/')) return error.message || fallback;
    return error.message || fallback;
  }
  return fallback;
}

export function isApiErrorWithCode(error: unknown, code: string): boolean {
  return error instanceof ApiError && error.code === code;
}
