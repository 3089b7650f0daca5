import { QueryClient } from '@tanstack/react-query';
import { ApiError, CLIENT_ERROR_CODES } from '../../api/http';

// The admin pages' data layer (issue 17): every read is a TanStack query with a key (queries.ts), so
// two parts of a page asking for the same thing share one request, and a save invalidates what it
// changed instead of each page reloading by hand. The session expiry stays in the fetch client
// (admin-api.ts): a 401 forgets the session and opens the login page, whichever query met it.

/**
 * Whether a failed read is worth one more try: not a refusal (4xx, a 401 included: the same question
 * gets the same answer), not an answer we cannot read, not a timeout (the operator has waited long
 * enough); once for network trouble and server errors, which a restart or a deploy often explains.
 */
export function retryRead(failureCount: number, error: unknown): boolean {
  if (failureCount >= 1) return false;
  if (!(error instanceof ApiError)) return false;
  if (error.status >= 400 && error.status < 500) return false;
  return error.code === CLIENT_ERROR_CODES.network || error.status >= 500;
}

export function createAdminQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: retryRead,
        retryDelay: 300,
        // Every page that opens asks again (what was read shows meanwhile): that is also how an
        // expired session is noticed on the next page, whatever was read seconds before. Parts of
        // one page asking at once still share one request.
        staleTime: 0,
        // The edit forms hold what the operator typed: a read is refreshed when they ask (Aggiorna,
        // Ricarica) or after a save, never behind their back when the window regains focus.
        refetchOnWindowFocus: false,
      },
      // A save is never repeated on its own: the operator sees the answer and decides.
      mutations: { retry: false },
    },
  });
}
