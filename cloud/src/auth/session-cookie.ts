import type { Request, Response } from 'express';
import { AppError } from '../errors';

// The admin pages' session travels in a cookie the page's scripts cannot read (HttpOnly), sent only
// to this site's own requests (SameSite=Strict) and only over HTTPS when the site is served so
// (Secure; behind a balancer that needs TRUST_PROXY). API clients keep `Authorization: Bearer`.
//
// Cross-site request forgery: SameSite=Strict already keeps the cookie off other sites' requests;
// on top, a state-changing request authenticated by the cookie must carry ADMIN_REQUEST_HEADER (a
// custom header no other site can add without a CORS preflight we never allow) and, when the
// browser names its Origin, come from this very host.

export const ADMIN_SESSION_COOKIE = 'deposito_admin';
export const ADMIN_REQUEST_HEADER = 'x-deposito-admin';

const TOKEN = /^[A-Za-z0-9_-]{16,200}$/;
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The session token of the request's cookie, or null. */
export function sessionCookieToken(req: Request): string | null {
  const header = req.get('cookie');
  if (!header) return null;
  for (const part of header.split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === ADMIN_SESSION_COOKIE) {
      const token = value.join('=');
      return TOKEN.test(token) ? token : null;
    }
  }
  return null;
}

function attributes(req: Request): string {
  return `Path=/; HttpOnly; SameSite=Strict${req.secure ? '; Secure' : ''}`;
}

export function setSessionCookie(req: Request, res: Response, token: string): void {
  res.append('Set-Cookie', `${ADMIN_SESSION_COOKIE}=${token}; ${attributes(req)}`);
}

export function clearSessionCookie(req: Request, res: Response): void {
  res.append('Set-Cookie', `${ADMIN_SESSION_COOKIE}=; ${attributes(req)}; Max-Age=0`);
}

/** Refuses (403 `auth/csrf_rejected`) a cookie-authenticated state change not made by our pages. */
export function requireSameSiteRequest(req: Request): void {
  if (SAFE_METHODS.has(req.method)) return;
  const origin = req.get('origin');
  let sameOrigin = true;
  if (origin !== undefined) {
    try {
      sameOrigin = new URL(origin).host === req.get('host');
    } catch {
      sameOrigin = false;
    }
  }
  if (!sameOrigin || req.get(ADMIN_REQUEST_HEADER) !== '1') throw new AppError('auth/csrf_rejected');
}
