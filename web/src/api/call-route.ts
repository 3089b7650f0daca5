import type { z } from 'zod';
import type { ApiRoute } from '@deposito/protocol/api/route';
import { requestJson, requestPage, type HttpClient, type RequestOptions } from './http';

type Input<Schema> = Schema extends z.ZodType ? z.input<Schema> : undefined;

/** What a caller passes for a route: exactly the pieces the route's request schemas declare. */
export type RouteCall<Route extends ApiRoute> = (Route['request']['params'] extends z.ZodType
  ? { params: Input<Route['request']['params']> }
  : { params?: undefined }) &
  (Route['request']['query'] extends z.ZodType
    ? { query: Input<Route['request']['query']> }
    : { query?: undefined }) &
  (Route['request']['body'] extends z.ZodType
    ? { body: Input<Route['request']['body']> }
    : { body?: undefined }) &
  Pick<RequestOptions, 'timeoutMs' | 'signal'>;

/** `/api/bookings/:transactionId` + `{ transactionId: 'x' }` → `/api/bookings/x`. */
export function routePath(path: string, params: Record<string, unknown> | undefined): string {
  return path.replace(/:(\w+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined || value === null) throw new Error(`Missing path parameter ${name} for ${path}`);
    return encodeURIComponent(String(value));
  });
}

function toQuery(query: unknown): RequestOptions['query'] {
  if (!query || typeof query !== 'object') return undefined;
  const out: Record<string, string | number | undefined> = {};
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null) continue;
    out[key] = typeof value === 'number' ? value : String(value);
  }
  return out;
}

/** A caller of protocol's route table through one client (the visitors' or the admin area's). */
export function routeCaller(client: HttpClient) {
  return function call<Route extends ApiRoute>(
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
    const options: RequestOptions = {
      method: route.method,
      query: toQuery(query),
      body: body ?? (route.method === 'GET' || route.method === 'DELETE' ? undefined : {}),
      timeoutMs,
      signal,
      auth: route.auth,
    };
    const path = routePath(route.path, params);
    const schema = route.response as z.ZodType<z.output<Route['response']>>;
    return route.responseType === 'html'
      ? client.requestPage(path, schema, options)
      : client.requestJson(path, schema, options);
  };
}

/** Calls one endpoint of protocol's route table; the JSON answer is parsed with the route's response schema. */
export const callRoute = routeCaller({ requestJson, requestPage });
