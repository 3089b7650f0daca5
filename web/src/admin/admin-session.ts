// The administrator's session lives in an HttpOnly cookie set by the server (cloud
// auth/session-cookie.ts): no script of this origin, and so none of the embeddable pages, can read
// it. The page only remembers that it logged in, to show the login page first otherwise; the
// server's 401 is the truth.

export const ADMIN_SIGNED_IN_KEY = 'adminSignedIn';
/** Sent with every admin call: the server refuses a cookie-authenticated change without it (CSRF). */
export const ADMIN_REQUEST_HEADER = 'X-Deposito-Admin';

export function isAdminSignedIn(): boolean {
  try {
    return window.localStorage.getItem(ADMIN_SIGNED_IN_KEY) === '1';
  } catch {
    return false;
  }
}

let generation = 0;

/** Changes at each sign-in and sign-out: what was read about the account before is stale. */
export function adminSessionGeneration(): number {
  return generation;
}

export function markAdminSignedIn(): void {
  generation += 1;
  window.localStorage.setItem(ADMIN_SIGNED_IN_KEY, '1');
}

export function clearAdminSignedIn(): void {
  generation += 1;
  try {
    window.localStorage.removeItem(ADMIN_SIGNED_IN_KEY);
    // A token stored by an earlier version of this page goes too.
    window.localStorage.removeItem('adminToken');
  } catch {
    // Storage unavailable: nothing to clear.
  }
}
