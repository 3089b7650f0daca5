import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiRoutes, type ApiRoute } from '@deposito/protocol';
import express, { type RequestHandler, type Router } from 'express';
import type { Logger } from 'pino';
import { bridgeHubArea } from './bridge-hub/bridge-hub.area';
import { systemClock, type Clock } from './clock';
import { DomainEvents } from './domain-events';
import type { Env } from './env';
import { AppError, errorHandler, notFoundHandler } from './errors';
import { createPendingBookingExpiry } from './jobs/expire-pending-bookings';
import type { CloudMetrics } from './observability/metrics';
import { createObservability, storeReadinessChecks } from './observability/observability';
import { requestLogging } from './observability/request-logging';
import { apiReferenceArea } from './openapi/api-reference.routes';
import { adminArea } from './routes/admin/admin.routes';
import { availabilityArea } from './routes/availability/availability.routes';
import { bookingsArea } from './routes/bookings/bookings.routes';
import { discountsArea } from './routes/discounts/discounts.routes';
import type { Endpoint } from './routes/endpoint';
import { healthArea } from './routes/health/health.routes';
import { locationsArea } from './routes/locations/locations.routes';
import { customerInhibitArea, lockersArea } from './routes/lockers/lockers.routes';
import { nightArea } from './routes/night/night.routes';
import { paymentsArea } from './routes/payments/payments.routes';
import { settingsArea } from './routes/settings/settings.routes';
import { webArea } from './routes/web/web.routes';
import { AvailabilityService } from './services/availability.service';
import { BookingService, type RandomSource } from './services/booking.service';
import { DiscountService } from './services/discount.service';
import { LocationService } from './services/location.service';
import { SettingsService } from './services/settings.service';
import type { Store } from './store/store';

/** JSON bodies larger than this are refused with `request/too_large` before any parsing. */
export const JSON_BODY_LIMIT = '32kb';

export interface Services {
  settings: SettingsService;
  locations: LocationService;
  availability: AvailabilityService;
  discounts: DiscountService;
  bookings: BookingService;
}

/** What every route area and job is built from. */
export interface AppContext {
  env: Env;
  store: Store;
  clock: Clock;
  logger: Logger;
  events: DomainEvents;
  services: Services;
  /** The Prometheus figures; the bridge hub adds its own with `metrics.useBridgeSource(hub)`. */
  metrics: CloudMetrics;
}

/** Something that runs in the background while the server is up (expiry, schedulers, hubs). */
export interface BackgroundJob {
  start(): void;
  stop(): Promise<void> | void;
}

/**
 * One area of the API: `routes/<area>/<area>.routes.ts`. `endpoints` answer routes of protocol's
 * catalogue (parsed with their schemas, admin ones behind the admin guard); `router` carries
 * anything outside it; `jobs` run while the server is up; `adminGuard` is supplied by the area
 * that authenticates administrators.
 */
export interface RouteArea {
  name: string;
  endpoints?(context: AppContext): Endpoint[];
  router?(context: AppContext): Router;
  jobs?(context: AppContext): BackgroundJob[];
  adminGuard?(context: AppContext): RequestHandler;
  /** Called once the HTTP server exists, e.g. to accept WebSocket upgrades on it. */
  attach?(server: http.Server, context: AppContext): void;
  /**
   * Called when the app stops, with or without its jobs, before the server closes: what `attach`
   * took over (upgraded sockets are no HTTP connections any more) must be let go here.
   */
  stop?(context: AppContext): Promise<void>;
}

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
  // Last: the built web app, /locales, and index.html for every other page path (SPA fallback).
  webArea,
];

/** Polled every few seconds by load balancers and Prometheus: not worth a log line each. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** Until an area authenticates administrators, admin endpoints are closed to everyone. */
const denyAdmin: RequestHandler = (_req, _res, next) => next(new AppError('auth/unauthorized'));

export interface CreateAppOptions {
  env: Env;
  store: Store;
  clock?: Clock;
  logger: Logger;
  /** Randomness for ids and PINs; crypto by default. */
  random?: RandomSource;
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
  /** Stops the jobs and the server; the store stays open (its owner closes it). */
  stop(): Promise<void>;
}

export function createServices(context: Omit<AppContext, 'services'>, random?: RandomSource): Services {
  const { store, clock, events } = context;
  const settings = new SettingsService(store, clock);
  const locations = new LocationService(store, clock);
  const availability = new AvailabilityService(store, clock, locations);
  const discounts = new DiscountService(store, clock);
  const bookings = new BookingService({
    store,
    clock,
    events,
    settings,
    locations,
    availability,
    discounts,
    random,
  });
  return { settings, locations, availability, discounts, bookings };
}

/** Catalogue order puts fixed paths before the `:param` paths that would swallow them. */
function catalogueOrder(route: ApiRoute): number {
  const index = apiRoutes.findIndex((r) => r.method === route.method && r.path === route.path);
  return index === -1 ? Number.MAX_SAFE_INTEGER : index;
}

export function createApp(options: CreateAppOptions): CloudApp {
  const { env, store, logger } = options;
  const clock = options.clock ?? systemClock;
  const events = new DomainEvents(logger);
  // /readyz, /metrics, request timing and ids (cloud/src/observability/README.md).
  const observability = createObservability({
    logger,
    bookings: store.bookings,
    readiness: storeReadinessChecks(store),
    metricsToken: env.metricsToken,
  });
  const base = { env, store, clock, logger, events, metrics: observability.metrics };
  const context: AppContext = { ...base, services: createServices(base, options.random) };
  const areas = options.areas ?? ROUTE_AREAS;

  const app = express();
  app.disable('x-powered-by');
  app.use(
    requestLogging({
      logger,
      ignore: (req) => PROBE_PATHS.has(req.url ?? ''),
      levelOf: (res, error) =>
        error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info',
    }),
  );
  app.use(observability.metrics.recordHttpRequests);
  const parseJson = express.json({ limit: JSON_BODY_LIMIT });
  // GET and HEAD carry no body here: skipping the parser saves its checks on the busiest calls.
  app.use((req, res, next) =>
    req.method === 'GET' || req.method === 'HEAD' ? next() : parseJson(req, res, next),
  );

  const adminGuard = areas.find((area) => area.adminGuard)?.adminGuard?.(context) ?? denyAdmin;
  const endpoints = areas
    .flatMap((area) => area.endpoints?.(context) ?? [])
    .sort((a, b) => catalogueOrder(a.route) - catalogueOrder(b.route));
  const api = express.Router();
  for (const { route, handler } of endpoints) {
    const method = route.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete';
    if (route.auth === 'admin') api[method](route.path, adminGuard, handler);
    else api[method](route.path, handler);
  }
  app.use(observability.router);
  for (const area of areas) {
    const router = area.router?.(context);
    if (router) app.use(router);
  }
  app.use(api);
  app.use('/api', notFoundHandler);
  app.use(errorHandler(logger));

  const server = http.createServer(app);
  for (const area of areas) area.attach?.(server, context);
  const expiry = createPendingBookingExpiry({ store, clock, events, logger });
  const jobs: BackgroundJob[] = [expiry, ...areas.flatMap((area) => area.jobs?.(context) ?? [])];
  let jobsRunning = false;

  return {
    app,
    server,
    context,
    expirePendingBookings: expiry.expirePendingBookings,
    async start({ port = env.port, host, jobs: runJobs = true } = {}) {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          resolve();
        });
      });
      if (runJobs) {
        for (const job of jobs) job.start();
        jobsRunning = true;
      }
      const address = server.address() as AddressInfo;
      const shownHost = host && host !== '0.0.0.0' && host !== '::' ? host : '127.0.0.1';
      return { port: address.port, url: `http://${shownHost}:${address.port}` };
    },
    async stop() {
      if (jobsRunning) {
        await Promise.all(jobs.map((job) => job.stop()));
        jobsRunning = false;
      }
      await Promise.all(areas.map((area) => area.stop?.(context)));
      if (!server.listening) return;
      await new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeIdleConnections();
      });
    },
  };
}
