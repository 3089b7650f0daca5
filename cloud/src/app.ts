import { roleGuard } from './auth/roles';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoutes, type ApiRoute } from '@deposito/protocol';
import express, { type RequestHandler } from 'express';
import type { Logger } from 'pino';
import { bridgeHubArea } from './bridge-hub/bridge-hub.area';
import { systemClock, type Clock } from './clock';
import { composeApp, type CompositionOptions } from './composition';
import { DomainEvents } from './domain-events';
import type { Env } from './env';
import { AppError, errorHandler, notFoundHandler } from './errors';
import { createObservability, storeReadinessChecks } from './observability/observability';
import { requestLogging } from './observability/request-logging';
import { apiReferenceArea } from './openapi/api-reference.routes';
import { adminArea } from './routes/admin/admin.routes';
import { availabilityArea } from './routes/availability/availability.routes';
import { bookingsArea } from './routes/bookings/bookings.routes';
import { discountsArea } from './routes/discounts/discounts.routes';
import { healthArea } from './routes/health/health.routes';
import { locationsArea } from './routes/locations/locations.routes';
import { myBookingArea } from './routes/my-booking/my-booking.routes';
import { customerInhibitArea, lockersArea } from './routes/lockers/lockers.routes';
import { nightArea } from './routes/night/night.routes';
import { paymentsArea } from './routes/payments/payments.routes';
import { settingsArea } from './routes/settings/settings.routes';
import { webArea } from './routes/web/web.routes';
import { jsonBodyParser, refuseControlCharactersInUrl } from './request-input';
import { noStoreApiAnswers, strictTransportSecurity } from './security-headers';
import type { Store } from './store/store';

export { JSON_BODY_LIMIT } from './request-input';

import type { AppContext, BackgroundJob, RouteArea } from './app-context';

export type { AppContext, BackgroundJob, RouteArea, Services } from './app-context';

/** Every area the cloud serves. Add new areas here; registration order is handled below. */
export const ROUTE_AREAS: readonly RouteArea[] = [
  healthArea,
  // GET /api/openapi.json and /api/docs, generated from protocol's catalogue.
  apiReferenceArea,
  // Before the admin guard: the legacy customer page's POST /api/lockers/inhibit (no token, a
  // duration) is a visitor's hold; everything else on that path goes on to the guarded endpoint.
  customerInhibitArea,
  // Early: its guard must run before any other area's router could answer an admin path.
  adminArea,
  locationsArea,
  lockersArea,
  availabilityArea,
  bookingsArea,
  discountsArea,
  settingsArea,
  nightArea,
  // The edge bridges' WebSocket (/bridge), PIN commands for bookings, bridge-token rotation.
  bridgeHubArea,
  paymentsArea,
  // The visitor's own booking page behind a private link (GET /api/my-booking/:token, its .ics).
  myBookingArea,
  // Last: the built web app, /locales, and index.html for every other page path (SPA fallback).
  webArea,
];

/** Polled every few seconds by load balancers and Prometheus: not worth a log line each. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Until an area authenticates administrators, admin endpoints are closed to everyone. */
const denyAdmin: RequestHandler = (_req, _res, next) => next(new AppError('auth/unauthorized'));

/** The app's parts, and what its services may be given instead of their defaults (composition.ts). */
export interface CreateAppOptions extends CompositionOptions {
  env: Env;
  store: Store;
  clock?: Clock;
  logger: Logger;
  /** Areas to serve; all of them by default. */
  areas?: readonly RouteArea[];
}

export interface CloudApp {
  app: express.Express;
  server: http.Server;
  context: AppContext;
  /** The expiry job's sweep, for tests and tools that drive time themselves. */
  expirePendingBookings(now?: Date): Promise<string[]>;
  /** Listens (port 0 picks a free one) and starts the background jobs unless `jobs: false`. */
  start(options?: { port?: number; host?: string; jobs?: boolean }): Promise<{ port: number; url: string }>;
  /**
   * Stops the server and the jobs; the store stays open (its owner closes it). Draining first:
   * `/readyz` answers 503 for `drainMs` while requests are still served, then new connections are
   * refused, requests under way get up to `requestsWithinMs` to finish, and only then do the jobs
   * and areas stop (bridges are closed with 1001 "going away" and reconnect to another process).
   */
  stop(options?: { drainMs?: number; requestsWithinMs?: number }): Promise<void>;
}

/** Catalogue order puts fixed paths before the `:param` paths that would swallow them. */
function catalogueOrder(route: ApiRoute): number {
  const index = apiRoutes.findIndex((r) => r.method === route.method && r.path === route.path);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

/** Requests being answered, so a drain can wait for them (payment notifications included). */
function requestsUnderWay() {
  let inFlight = 0;
  const idleWaiters: Array<() => void> = [];
  const count: RequestHandler = (_req, res, next) => {
    inFlight++;
    res.once('close', () => {
      inFlight--;
      if (inFlight === 0) for (const wake of idleWaiters.splice(0)) wake();
    });
    next();
  };
  /** Resolves when no request is under way, or after `withinMs` at the most. */
  async function finished(withinMs: number): Promise<void> {
    if (inFlight === 0) return;
    await Promise.race([
      new Promise<void>((resolve) => idleWaiters.push(resolve)),
      new Promise((resolve) => setTimeout(resolve, withinMs).unref()),
    ]);
  }
  return { count, finished };
}

/** What every request passes through before any area sees it. */
function useRequestPipeline(
  app: express.Express,
  {
    env,
    logger,
    metrics,
    countRequest,
  }: Pick<AppContext, 'env' | 'logger' | 'metrics'> & { countRequest: RequestHandler },
): void {
  app.disable('x-powered-by');
  // Whose address `req.ip` is (the abuse limits count per client): the socket's unless TRUST_PROXY
  // names the balancers whose X-Forwarded-For may be believed.
  app.set('trust proxy', env.limits.trustProxy);
  // HSTS on answers that came over HTTPS (our TLS, or X-Forwarded-Proto from a trusted balancer).
  app.use(strictTransportSecurity);
  app.use(noStoreApiAnswers);
  app.use(countRequest);
  app.use(
    requestLogging({
      logger,
      ignore: (req) => PROBE_PATHS.has(req.url ?? ''),
      levelOf: (res, error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    }),
  );
  app.use(metrics.recordHttpRequests);
  // Bounded JSON bodies, unreadable ones a 400, and no control characters in text, path or query.
  app.use(refuseControlCharactersInUrl);
  app.use(jsonBodyParser());
}

/** The catalogue's endpoints of every area, behind the admin guard where the catalogue says so. */
function apiRouter(areas: readonly RouteArea[], context: AppContext): express.Router {
  const adminGuard = areas.find((area) => area.adminGuard)?.adminGuard?.(context) ?? denyAdmin;
  const endpoints = areas
    .flatMap((area) => area.endpoints?.(context) ?? [])
    .sort((a, b) => catalogueOrder(a.route) - catalogueOrder(b.route));
  const api = express.Router();
  for (const { route, handler } of endpoints) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    if (route.auth === 'admin') api[method](route.path, adminGuard, roleGuard(route, context.store), handler);
    else api[method](route.path, handler);
  }
  return api;
}

/** The areas' own routes, then the catalogue's endpoints, then the answers for everything else. */
function useAreas(
  app: express.Express,
  areas: readonly RouteArea[],
  context: AppContext,
  observabilityRoutes: (router: express.Router) => void,
): void {
  // The endpoints are built before the routers, as each area expects.
  const api = apiRouter(areas, context);
  // One router for the routes outside the catalogue, every area's in turn, as if each had its own.
  const routes = express.Router();
  observabilityRoutes(routes);
  for (const area of areas) area.routes?.(routes, context);
  app.use(routes);
  app.use(api);
  app.use('/api', notFoundHandler);
  app.use(errorHandler(context.logger));
}

/**
 * How long the cloud keeps an idle keep-alive connection: longer than whatever sits in front keeps
 * one idle before reusing it (HAProxy holds a server connection up to its `timeout server`, 60 s;
 * browsers and HTTP clients reuse theirs after pauses of seconds). Node's default of 5 s closed
 * connections the other side could be sending on at that very moment, and that request met a reset:
 * a 502 through the balancer, "socket hang up" for the npm start story's login after a 6-second pause.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

async function listen(
  server: http.Server,
  port: number,
  host: string | undefined,
): Promise<{ port: number; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = host && host !== '0.0.0.0' && host !== '::' ? host : '127.0.0.1';
  return { port: address.port, url: `http://${shownHost}:${address.port}` };
}

export function createApp(options: CreateAppOptions): CloudApp {
  const { env, store, logger } = options;
  const clock = options.clock ?? systemClock;
  let draining = false;
  const requests = requestsUnderWay();
  const events = new DomainEvents(logger);
  // /readyz, /metrics, request timing and ids (cloud/src/observability/README.md).
  const observability = createObservability({
    logger,
    bookings: store.bookings,
    readiness: [
      ...storeReadinessChecks(store),
      // Draining after SIGTERM: the balancer must stop sending requests here.
      {
        name: 'accepting',
        check: async () => {
          if (draining) throw new Error('draining: shutting down');
        },
      },
    ],
    metricsToken: env.metricsToken,
    demo: env.demo,
  });
  const base = { env, store, clock, logger, events, metrics: observability.metrics };
  // Every service and job of this app, each built once; the areas take theirs from the context.
  const context: AppContext = { ...base, ...composeApp(base, options) };
  const areas = options.areas ?? ROUTE_AREAS;

  const app = express();
  useRequestPipeline(app, { ...context, countRequest: requests.count });
  useAreas(app, areas, context, observability.routes);

  const server = http.createServer({ keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, app);
  // A request's headers may take up to a minute (Node's default) after it starts, however long the
  // connection idled before it.
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1_000;
  for (const area of areas) area.attach?.(server, context);
  const { expiry } = context.jobs;
  const jobs: BackgroundJob[] = [expiry, ...areas.flatMap((area) => area.jobs?.(context) ?? [])];
  let jobsRunning = false;

  return {
    app,
    server,
    context,
    expirePendingBookings: expiry.expirePendingBookings,
    async start({ port = env.port, host, jobs: runJobs = true } = {}) {
      const address = await listen(server, port, host);
      if (runJobs) {
        for (const job of jobs) job.start();
        jobsRunning = true;
      }
      return address;
    },
    async stop({ drainMs = 0, requestsWithinMs = 8_000 } = {}) {
      // 1. Unready, still serving, while the balancer notices (its health checks).
      draining = true;
      if (drainMs > 0 && server.listening) await new Promise((resolve) => setTimeout(resolve, drainMs));
      // 2. No new connections; the requests under way finish with everything they need.
      const closed = server.listening
        ? new Promise<void>((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())))
        : null;
      server.closeIdleConnections();
      for (const area of areas) area.drain?.(context);
      await requests.finished(requestsWithinMs);
      // 3. Then the jobs and the areas (the bridge hub closes its sockets with "going away").
      if (jobsRunning) {
        await Promise.all(jobs.map((job) => job.stop()));
        jobsRunning = false;
      }
      await Promise.all(areas.map((area) => area.stop?.(context)));
      server.closeAllConnections();
      await closed;
    },
  };
}
