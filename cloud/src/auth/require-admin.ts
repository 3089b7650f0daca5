import { apiRoutes, type ApiRoute } from '@deposito/protocol';
import type { RequestHandler, Response } from 'express';
import { AppError } from '../errors';
import type { AdminAuthService, AdminIdentity } from '../services/auth.service';
import { requireSameSiteRequest, sessionCookieToken } from './session-cookie';
import { bearerToken } from './session-token';

interface AdminLocals {
  admin?: AdminIdentity;
  adminToken?: string;
}

/**
 * The one check every admin call passes: a valid, unexpired token in `Authorization: Bearer` (API
 * clients) or in the admin pages' session cookie (session-cookie.ts; a state change made with the
 * cookie must also pass the CSRF check). Otherwise `auth/unauthorized` (401). The identity is kept on the response for the handler;
 * a request already checked on its way is not checked twice.
 */
export function requireAdmin(auth: AdminAuthService): RequestHandler {
  return async (req, res, next) => {
    const locals = res.locals as AdminLocals;
    if (locals.admin) {
      next();
      return;
    }
    const bearer = bearerToken(req.get('authorization'));
    const token = bearer ?? sessionCookieToken(req);
    let identity: AdminIdentity | null;
    try {
      identity = await auth.authenticate(token);
      if (identity && !bearer) requireSameSiteRequest(req);
    } catch (error) {
      next(error);
      return;
    }
    if (!identity || !token) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      next(new AppError('auth/unauthorized'));
      return;
    }
    locals.admin = { ...identity, address: req.ip ?? null };
    locals.adminToken = token;
    next();
  };
}

/** The administrator `requireAdmin` let through. */
export function adminOf(res: Response): AdminIdentity {
  const admin = (res.locals as AdminLocals).admin;
  if (!admin) throw new AppError('auth/unauthorized');
  return admin;
}

/** The token `requireAdmin` accepted (logout ends it). */
export function adminTokenOf(res: Response): string {
  const token = (res.locals as AdminLocals).adminToken;
  if (!token) throw new AppError('auth/unauthorized');
  return token;
}

const ADMIN_PREFIXES = ['/api/admin/', '/api/system/admin/'];

function pathPattern(path: string): RegExp {
  const source = path
    .split('/')
    .map((segment) => (segment.startsWith(':') ? '[^/]+' : segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
    .join('/');
  return new RegExp(`^${source}/?$`);
}

/**
 * Whether a request needs an administrator: the catalogue says so for its route (fixed paths
 * before `:param` ones, as they are registered), and any other path under the admin prefixes
 * does too unless the catalogue makes it public (login, frontend overrides). So an admin route
 * nobody has implemented yet still answers 401, not 404, to a caller without a token.
 */
export function adminRequestMatcher(routes: readonly ApiRoute[] = apiRoutes) {
  const compiled = routes.map((route) => ({ route, pattern: pathPattern(route.path) }));
  // Every request passes here and most ask the same few paths: the answer for a method and path
  // is kept (bounded; paths carrying ids vary), instead of testing the whole catalogue each time.
  const known = new Map<string, boolean>();
  return (method: string, path: string): boolean => {
    const key = `${method} ${path}`;
    let answer = known.get(key);
    if (answer === undefined) {
      answer = needsAdmin(method, path);
      if (known.size >= KNOWN_PATHS_LIMIT) known.clear();
      known.set(key, answer);
    }
    return answer;
  };

  function needsAdmin(method: string, path: string): boolean {
    const upper = method.toUpperCase() === 'HEAD' ? 'GET' : method.toUpperCase();
    const matching = compiled.filter((c) => c.pattern.test(path));
    const exact = matching.find((c) => c.route.method === upper);
    if (exact) return exact.route.auth === 'admin';
    if (matching.some((c) => c.route.auth === 'public')) return false;
    return ADMIN_PREFIXES.some((prefix) => path.startsWith(prefix));
  }
}

const KNOWN_PATHS_LIMIT = 5_000;

/** Runs `requireAdmin` in front of every request the matcher marks as an admin request. */
export function adminRequestGuard(
  check: RequestHandler,
  routes: readonly ApiRoute[] = apiRoutes,
): RequestHandler {
  const needsAdmin = adminRequestMatcher(routes);
  return (req, res, next) => {
    if (!needsAdmin(req.method, req.path)) {
      next();
      return;
    }
    void check(req, res, next);
  };
}
