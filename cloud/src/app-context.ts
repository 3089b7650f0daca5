// What every route area and job is built from, apart from app.ts and composition.ts that build it:
// areas import these types from here, so no area depends on the modules that import every area.
import type http from 'node:http';
import type { RequestHandler, Router } from 'express';
import type { Logger } from 'pino';
import type { BridgeHub } from './bridge-hub/bridge-hub';
import type { BookingCommandsDeps } from './bridge-hub/booking-commands';
import type { Clock } from './clock';
import type { DomainEvents } from './domain-events';
import type { Env } from './env';
import type { BackgroundJob } from './jobs/background-job';
import type { PendingBookingExpiry } from './jobs/expire-pending-bookings';
import type { MorningScheduler } from './jobs/morning-scheduler';
import type { VisitorLimits } from './limits/visitor-limits';
import type { Mailer } from './mail/mailer';
import type { CloudMetrics } from './observability/metrics';
import type { PaymentGateway } from './payments/payment-gateway';
import type { LiveLockerStreams } from './routes/admin/admin-live.routes';
import type { Endpoint } from './routes/endpoint';
import type { AdminActivityLog } from './services/admin-activity.service';
import type { AdminBookingService } from './services/admin-booking.service';
import type { AdminLogService } from './services/admin-log.service';
import type { AdminUserService } from './services/admin-user.service';
import type { AlertService } from './services/alert.service';
import type { AdminAuthService } from './services/auth.service';
import type { AvailabilityService } from './services/availability.service';
import type { BookingEmailService } from './services/booking-email.service';
import type { BookingExtensionService } from './services/booking-extension.service';
import type { BookingService } from './services/booking.service';
import type { CleanupService } from './services/cleanup.service';
import type { DiscountAdminService } from './services/discount-admin.service';
import type { DiscountService } from './services/discount.service';
import type { LocationAdminService } from './services/location-admin.service';
import type { LocationService } from './services/location.service';
import type { LockerActionService } from './services/locker-action.service';
import type { LockerControl } from './services/locker-control';
import type { LockerHistoryService } from './services/locker-history.service';
import type { MyBookingService } from './services/my-booking.service';
import type { PaymentService } from './services/payment.service';
import type { SettingsService } from './services/settings.service';
import type { TakingsService } from './services/takings.service';
import type { Store } from './store/store';

export type { BackgroundJob } from './jobs/background-job';

/** The operators' services, shared by the admin guard and every admin endpoint. */
export interface AdminServices {
  auth: AdminAuthService;
  /** The admin guard: a valid session, or 401. */
  requireAdmin: RequestHandler;
  activity: AdminActivityLog;
  users: AdminUserService;
  locations: LocationAdminService;
  discounts: DiscountAdminService;
  cleanup: CleanupService;
  bookings: AdminBookingService;
  logs: AdminLogService;
  /** Gestione Locker's view of the sites: through the bridge hub, or a stand-in for the sites (tests). */
  lockerControl: LockerControl;
  /** Gestione Locker's actions, with the bookings they cancel. */
  lockerActions: LockerActionService;
  /** One locker's history, for Gestione Locker. */
  lockerHistory: LockerHistoryService;
  /** The operators' alerts: looked for by the alerts job, listed and acknowledged on the dashboard. */
  alerts: AlertService;
  /** Incassi: its cache of monthly reports lives as long as the app. */
  takings: TakingsService;
  /** The live locker grid's open event streams (ended when the app drains). */
  liveLockers: LiveLockerStreams;
}

/** The bridge hub and what its PIN commands need (`syncAllPins(pins)` is the periodic pass). */
export interface BridgeHubServices {
  hub: BridgeHub;
  pins: BookingCommandsDeps;
}

/** Every service of one app, each built once by composition.ts in dependency order. */
export interface Services {
  settings: SettingsService;
  locations: LocationService;
  availability: AvailabilityService;
  discounts: DiscountService;
  bookings: BookingService;
  /** What one anonymous client may do on the public booking API, counted for every visitor area. */
  visitorLimits: VisitorLimits;
  /** A stay's extensions: the visitor's (my-booking) and the operators' (admin). */
  extensions: BookingExtensionService;
  /** The visitor's private link to their booking; its links go into the booking e-mails too. */
  myBookings: MyBookingService;
  /** The app's e-mail: the visitors' booking e-mails and the operators' alerts. */
  mailer: Mailer;
  /** The booking e-mails, sent from the durable outbox. */
  emails: BookingEmailService;
  payments: PaymentService;
  /** The payment gateway, built on first use: its URLs are the cloud's public ones. */
  gateway(): PaymentGateway;
  /** Scheduled bookings' PINs on their day; null in an app built without it. */
  morningScheduler: MorningScheduler | null;
  bridgeHub: BridgeHubServices;
  admin: AdminServices;
}

/**
 * The background jobs, built with the services and not started: the app starts the expiry and the
 * jobs its areas name (`RouteArea.jobs`) when it starts, and stops them when it stops.
 */
export interface BackgroundJobs {
  /** Lapsed holds expired and their lockers freed. */
  expiry: PendingBookingExpiry;
  /** The e-mail outbox's periodic pass (the one that sends after a crash). */
  emailOutbox: BackgroundJob;
  /** The hub's start (LISTEN, heartbeat, sweep) and stop. */
  bridgeHub: BackgroundJob;
  /** Bookings whose turn on a locker came with time (the one before them ended). */
  pinSync: BackgroundJob;
  /** The operators' alerts looked for (every process; the store raises each once). */
  alerts: BackgroundJob;
}

/** What every service is built from. */
export interface AppBase {
  env: Env;
  store: Store;
  clock: Clock;
  logger: Logger;
  events: DomainEvents;
  /** The Prometheus figures; the bridge hub area adds its own with `metrics.useBridgeSource(hub)`. */
  metrics: CloudMetrics;
}

/** What every route area and job is built from. */
export interface AppContext extends AppBase {
  services: Services;
  jobs: BackgroundJobs;
}

/**
 * One area of the API: `routes/<area>/<area>.routes.ts`. `endpoints` answer routes of protocol's
 * catalogue (parsed with their schemas, admin ones behind the admin guard); `routes` adds anything
 * outside it to the cloud's one router of such routes (a router per area cost every request a
 * dispatch in each: nine were about 3 % of an availability call's time); `jobs` names the jobs
 * that run while the server is up; `adminGuard` is supplied by the area that authenticates
 * administrators. Each is called once per app.
 */
export interface RouteArea {
  name: string;
  endpoints?(context: AppContext): Endpoint[];
  routes?(router: Router, context: AppContext): void;
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
