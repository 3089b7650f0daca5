// What every route area and job is built from, apart from app.ts that builds it: areas import these
// types from here, so no area depends on the module that imports every area.
import type http from 'node:http';
import type { RequestHandler, Router } from 'express';
import type { Logger } from 'pino';
import type { Clock } from './clock';
import type { DomainEvents } from './domain-events';
import type { Env } from './env';
import type { BackgroundJob } from './jobs/background-job';
import type { CloudMetrics } from './observability/metrics';
import type { Endpoint } from './routes/endpoint';
import type { AvailabilityService } from './services/availability.service';
import type { BookingService } from './services/booking.service';
import type { DiscountService } from './services/discount.service';
import type { LocationService } from './services/location.service';
import type { SettingsService } from './services/settings.service';
import type { Store } from './store/store';

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

export type { BackgroundJob } from './jobs/background-job';

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
  /**
   * Called when the app stops taking new connections, before it waits for the requests under way:
   * long-lived answers (event streams) end here so the stop need not wait for them.
   */
  drain?(context: AppContext): void;
}
