import { routeCaller } from '../api/call-route';
import { ApiError, CLIENT_ERROR_CODES, createHttpClient } from '../api/http';
import { ADMIN_REQUEST_HEADER, clearAdminSignedIn } from './admin-session';
import { ADMIN_ERROR_TEXT, adminErrorMessage } from './error-text';

// The admin screens' HTTP client: the one fetch client of the web app (api/http.ts) with the session
// cookie and the header that marks it as ours, Italian texts chosen by the error code (error-text.ts,
// not the server's English), and every call of protocol's catalogue parsed with the route's schema.
// A 401 means the session is gone or expired: the page forgets it logged in and sends the operator to
// the login page.

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

const NETWORK_TEXT = ADMIN_ERROR_TEXT['client/network']!;
const INVALID_TEXT = ADMIN_ERROR_TEXT['client/invalid_response']!;

const adminHttp = createHttpClient({
  timeoutMs: DEFAULT_TIMEOUT_MS,
  // The session cookie goes with the request (same origin); the header marks it as ours (CSRF).
  headers: { [ADMIN_REQUEST_HEADER]: '1' },
  texts: {
    timeout: ADMIN_ERROR_TEXT['client/timeout']!,
    network: () => NETWORK_TEXT,
    notJson: INVALID_TEXT,
    badAnswer: () => INVALID_TEXT,
    status: (response) => `Errore ${response.status}`,
  },
  errorMessage: adminErrorMessage,
  onRefused(response, options) {
    if (response.status !== 401 || options.auth !== 'admin') return undefined;
    clearAdminSignedIn();
    onUnauthorized();
    return new ApiError('auth/unauthorized', ADMIN_ERROR_TEXT['auth/unauthorized']!, 401);
  },
});

/** Calls one admin endpoint; resolves with the parsed answer or rejects with an ApiError. */
export const adminCall = routeCaller(adminHttp);

/** The error's Italian text (the client's own words for network trouble), or `fallback` for anything else. */
export function errorText(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message || fallback : fallback;
}

/**
 * A refusal in the page's own words: `unreachable` when the server could not be reached (network
 * down, timeout), the server's explanation when it gave one, else `fallback`.
 */
export function refusalText(error: unknown, fallback: string, unreachable: string): string {
  if (error instanceof ApiError) {
    if (error.code === CLIENT_ERROR_CODES.network || error.code === CLIENT_ERROR_CODES.timeout) {
      return unreachable;
    }
    if (!error.code.startsWith('client/') && error.message) return error.message;
  }
  return fallback;
}

export function isApiErrorWithCode(error: unknown, code: string): boolean {
  return error instanceof ApiError && error.code === code;
}
