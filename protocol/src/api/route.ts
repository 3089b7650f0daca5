import { z } from 'zod';

export const API_AREAS = [
  'auth',
  'users',
  'locations',
  'lockers',
  'bookings',
  'availability',
  'night',
  'payments',
  'discounts',
  'settings',
  'cleanup',
  'logs',
  'takings',
  'system',
  'locales',
] as const;
export type ApiArea = (typeof API_AREAS)[number];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * One endpoint of the HTTP API. `auth` is what the server enforces: 'admin' needs a valid admin
 * token, whatever the path looks like (`/api/admin/login` and `/api/admin/frontend-overrides` are
 * public). `responseType: 'html'` marks the payment calls that answer with a page.
 */
export interface ApiRoute {
  method: HttpMethod;
  /** Express-style path with `:params`. */
  path: string;
  area: ApiArea;
  auth: 'public' | 'admin';
  request: {
    params?: z.ZodType;
    query?: z.ZodType;
    body?: z.ZodType;
  };
  response: z.ZodType;
  responseType?: 'json' | 'html';
  /** Status of a successful answer; 200 when absent. */
  successStatus?: 200 | 201 | 202 | 204;
  /** Other success statuses the same answer may come with (e.g. 202 when a command is only queued). */
  alsoStatuses?: readonly (200 | 201 | 202)[];
  summary: string;
}

/** Keeps each route's literal types (path, schemas) for typed handlers and clients. */
export function defineRoute<const Route extends ApiRoute>(route: Route): Route {
  return route;
}

/** Request body type of a route. */
export type RouteBody<Route extends ApiRoute> = Route['request']['body'] extends z.ZodType
  ? z.input<Route['request']['body']>
  : never;
/** Response type of a route, as parsed. */
export type RouteResponse<Route extends ApiRoute> = z.output<Route['response']>;
