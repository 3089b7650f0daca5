import type { ApiRoute } from '@deposito/protocol';
import type { RequestHandler, Response } from 'express';
import { AppError } from '../errors';
import { narrowAnswer } from '../json-answer';
import type { AdminIdentity } from '../services/auth.service';
import type { Store } from '../store/store';
import { adminOf } from './require-admin';

// What each role of the admin area may call (issue 17), checked on every admin route after the
// login check: an administrator everything; a site operator and a technician only their sites'
// data, the technician only the lockers. Lists are narrowed to the caller's sites.

const key = (route: Pick<ApiRoute, 'method' | 'path'>) => `${route.method} ${route.path}`;

/** What every role may call: sign out, say who it is, change its own password (checked below). */
const EVERYONE = new Set([
  'POST /api/admin/logout',
  'GET /api/admin/me',
  'POST /api/admin/users/:id/password',
]);

/** A technician: the lockers of their sites, and the list of sites to choose from. */
const TECHNICIAN = new Set([
  'GET /api/locations/all',
  'GET /api/lockers/full-state',
  'GET /api/lockers/history',
  'POST /api/lockers/open',
  'POST /api/lockers/inhibit',
  'POST /api/lockers/unbook',
  'POST /api/lockers/unbook-soap',
]);

/**
 * Never a site operator's: accounts, what applies to every site (system parameters, discount
 * codes, cleanup, the morning run, the process log), making or removing sites and their bridges'
 * tokens.
 */
const NOT_SITE_OPERATOR_AREAS = new Set(['users', 'settings', 'discounts', 'cleanup']);
const NOT_SITE_OPERATOR = new Set([
  'POST /api/admin/locations',
  'DELETE /api/admin/locations/:id',
  'POST /api/system/admin/run-morning-scheduler',
  'GET /api/admin/logs/pm2',
  'POST /api/admin/locations/:key/bridge-token',
  'DELETE /api/admin/locations/:key/bridge-token',
]);

/** Lists answered for every site: a scoped caller gets its sites' entries only. */
const SCOPED_LISTS = new Set([
  'GET /api/locations/all',
  'GET /api/admin/locations',
  'GET /api/system/admin/locations-full',
  'GET /api/admin/bookings/recent',
  'GET /api/admin/alerts',
  'GET /api/admin/logs/recent',
  'GET /api/admin/logs/archive',
  'GET /api/admin/takings/locations',
]);

/** Whether the role may call the route at all (sites aside). */
export function roleAllows(
  role: AdminIdentity['role'],
  route: Pick<ApiRoute, 'method' | 'path' | 'area'>,
): boolean {
  const name = key(route);
  if (role === 'administrator' || EVERYONE.has(name)) return true;
  if (role === 'technician') return TECHNICIAN.has(name);
  return !NOT_SITE_OPERATOR_AREAS.has(route.area) && !NOT_SITE_OPERATOR.has(name);
}

/** The fields that name a location in requests; `id` does only on the locations' own routes. */
const SITE_FIELDS = ['key', 'location', 'locationKey', 'sourceKey', 'targetKey'];

/** Every location key a request names (params, query, body, at any depth). */
function namedSites(
  value: unknown,
  fields: readonly string[],
  into = new Set<string>(),
  depth = 0,
): Set<string> {
  if (depth > 4 || value === null || typeof value !== 'object') return into;
  for (const [field, inner] of Object.entries(value)) {
    if (fields.includes(field) && typeof inner === 'string') into.add(inner);
    else if (typeof inner === 'object') namedSites(inner, fields, into, depth + 1);
  }
  return into;
}

/** The location a scoped list entry belongs to: undefined when the entry names none. */
function entrySite(entry: unknown): string | null | undefined {
  if (entry === null || typeof entry !== 'object') return undefined;
  const fields = entry as Record<string, unknown>;
  for (const field of ['LOCATION_KEY', 'locationKey', 'key']) {
    if (field in fields) return typeof fields[field] === 'string' ? (fields[field] as string) : null;
  }
  return undefined;
}

/** A list answer narrowed to the sites: arrays by each entry's site, records by their values'. */
export function narrowToSites(answer: unknown, sites: ReadonlySet<string>): unknown {
  const keep = (entry: unknown) => {
    const site = entrySite(entry);
    return site === undefined || (site !== null && sites.has(site));
  };
  if (Array.isArray(answer)) return answer.filter(keep);
  if (answer !== null && typeof answer === 'object') {
    return Object.fromEntries(Object.entries(answer).filter(([, entry]) => keep(entry)));
  }
  return answer;
}

/**
 * After `requireAdmin`: refuses (403 `auth/forbidden`) what the caller's role does not include, or
 * a request about a site not theirs (named in the request, or the site of the booking or alert it
 * names); narrows a list answer to their sites.
 */
export function roleGuard(route: ApiRoute, store: Store): RequestHandler {
  return async (req, res, next) => {
    try {
      const identity = adminOf(res);
      if (!roleAllows(identity.role, route)) throw new AppError('auth/forbidden');
      if (key(route) === 'POST /api/admin/users/:id/password' && identity.role !== 'administrator') {
        if (Number(req.params.id) !== identity.userId) throw new AppError('auth/forbidden');
      }
      if (identity.sites && !EVERYONE.has(key(route))) {
        const sites = new Set(identity.sites);
        const fields = route.path.includes('/locations') ? [...SITE_FIELDS, 'id'] : SITE_FIELDS;
        const named = namedSites({ params: req.params, query: req.query, body: req.body }, fields);
        if (typeof req.params.transactionId === 'string') {
          const booking = await store.bookings.get(req.params.transactionId);
          if (booking) named.add(booking.locationKey);
        }
        if (route.path === '/api/admin/alerts/:id/acknowledge') {
          const alert = (await store.alerts.open(500)).find((open) => String(open.id) === req.params.id);
          named.add(alert?.locationKey ?? '');
        }
        // Every site at once (the takings' "all") is for administrators.
        for (const site of named) if (!sites.has(site)) throw new AppError('auth/forbidden');
        if (SCOPED_LISTS.has(key(route))) narrowAnswers(res, sites);
      }
      next();
    } catch (error) {
      next(error);
    }
  };
}

function narrowAnswers(res: Response, sites: ReadonlySet<string>): void {
  narrowAnswer(res, (body) => narrowToSites(body, sites));
}
