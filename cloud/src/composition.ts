// The composition root: every service and background job of one app, each built once, in
// dependency order, from the app's environment, store, clock, logger and events. app.ts puts them
// in the context every route area is built from (typed in app-context.ts): no area builds a service
// or looks one up elsewhere, and what several areas use (the booking e-mails, the locker control,
// the extensions) is one object. Nothing here starts a timer or touches the network: the jobs start
// with the app, the gateway is built on first use, the hub listens when its area attaches it.
import type { AdminServices, AppBase, BackgroundJobs, BridgeHubServices, Services } from './app-context';
import type { ScryptCost } from './auth/password';
import { requireAdmin } from './auth/require-admin';
import { PIN_SYNC_INTERVAL_MS, syncAllPins } from './bridge-hub/booking-commands';
import { BridgeHub, newCloudProcessId, type BridgeHubOptions } from './bridge-hub/bridge-hub';
import { HubLockerControl } from './bridge-hub/hub-locker-control';
import { createPendingBookingExpiry } from './jobs/expire-pending-bookings';
import { intervalJob } from './jobs/interval-job';
import { MorningScheduler } from './jobs/morning-scheduler';
import type { LoginLimitSettings } from './limits/limits-config';
import { VisitorLimits } from './limits/visitor-limits';
import type { MailConfig } from './mail/mail-config';
import { createMailer, type Mailer } from './mail/mailer';
import type { PaymentConfig } from './payments/payment-config';
import { bookingPaymentUrls, createPaymentGateway, type PaymentGateway } from './payments/payment-gateway';
import { liveLockerStreams } from './routes/admin/admin-live.routes';
import { AdminActivityLog } from './services/admin-activity.service';
import { AdminBookingService } from './services/admin-booking.service';
import { AdminLogService } from './services/admin-log.service';
import { processLogRing, type ProcessLogRing } from './services/admin-process-log';
import { AdminUserService } from './services/admin-user.service';
import { ALERT_INTERVAL_MS, AlertService } from './services/alert.service';
import { AdminAuthService } from './services/auth.service';
import { AvailabilityService } from './services/availability.service';
import { BookingEmailService } from './services/booking-email.service';
import { BookingExtensionService } from './services/booking-extension.service';
import { BookingService, cryptoRandom, type RandomSource } from './services/booking.service';
import { CleanupService } from './services/cleanup.service';
import { DiscountAdminService } from './services/discount-admin.service';
import { DiscountService } from './services/discount.service';
import { LocationAdminService } from './services/location-admin.service';
import { LocationService } from './services/location.service';
import { LockerActionService } from './services/locker-action.service';
import type { LockerControl } from './services/locker-control';
import { LockerHistoryService } from './services/locker-history.service';
import { MyBookingService, myBookingPath } from './services/my-booking.service';
import { PaymentService } from './services/payment.service';
import { SettingsService } from './services/settings.service';
import { TakingsService } from './services/takings.service';
import { PromotecClient, PromotecTakings } from './takings/promotec-client';

/** The operators' side, tuned by tests (cheap hashing, no waits, long sessions, fast streams). */
export interface AdminOptions {
  sessionTtlMs?: number;
  idleTimeoutMs?: number;
  scryptCost?: ScryptCost;
  /** Failed-login limits; the environment's (LIMIT_LOGIN_FAILURES_*) by default. */
  loginLimits?: LoginLimitSettings;
  /** How throttled logins wait; tests pass a fast one. */
  wait?: (ms: number) => Promise<unknown>;
  /** The lines "PM2 Logs" shows; this process's ring by default. */
  processLog?: ProcessLogRing;
  /** How often the live locker grid's streams recompute their state (1 s by default). */
  liveIntervalMs?: number;
  /** How often the alerts are looked for (ALERT_INTERVAL_MS by default). */
  alertIntervalMs?: number;
}

/** The hub's timings (tests make them fast); the rest comes from the app. */
export type BridgeHubTuning = Omit<BridgeHubOptions, 'store' | 'logger' | 'database' | 'clock'> & {
  /** How long a locker action waits for the controller before answering. */
  answerWithinMs?: number;
  /** How often the lockers are checked for a booking whose PIN's turn has come. */
  pinSyncIntervalMs?: number;
};

/** What an app can be given instead of what its environment says and its defaults (tests, tools). */
export interface CompositionOptions {
  /** Randomness for ids and PINs; crypto by default. */
  random?: RandomSource;
  /** The payment gateway's configuration; the environment's by default. */
  payment?: PaymentConfig;
  /** Where e-mail goes; the environment's by default. */
  mail?: MailConfig;
  /** The app's e-mail itself (instead of one built from `mail`). */
  mailer?: Mailer;
  /** Where the cloud is reachable from browsers and the gateway; env PUBLIC_URL by default. */
  publicUrl?: () => string;
  /** False: an app without the morning scheduler (no job; the operators' "run now" says so). */
  morningScheduler?: boolean;
  /**
   * Gestione Locker's view of the sites: the bridge hub's (`hub`) by default. The sites are outside
   * our system, so tests may stand in for them.
   */
  lockerControl?: (base: AppBase, hub: LockerControl) => LockerControl;
  admin?: AdminOptions;
  bridgeHub?: BridgeHubTuning;
}

type CoreServices = Pick<
  Services,
  'settings' | 'locations' | 'availability' | 'discounts' | 'bookings' | 'visitorLimits' | 'extensions'
>;

/** What every booking path reads and writes through. */
function coreServices(base: AppBase, random: RandomSource): CoreServices {
  const { env, store, clock, events } = base;
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
  return {
    settings,
    locations,
    availability,
    discounts,
    bookings,
    visitorLimits: new VisitorLimits(store, env.limits),
    extensions: new BookingExtensionService({ store, clock, events, settings, bookings }),
  };
}

type VisitorServices = Pick<
  Services,
  'myBookings' | 'mailer' | 'emails' | 'payments' | 'gateway' | 'morningScheduler'
>;

/** The visitor's page, e-mails and payments, and the scheduler that gives later days their PIN. */
function visitorServices(
  base: AppBase,
  core: CoreServices,
  random: RandomSource,
  options: CompositionOptions,
  processId: string,
): VisitorServices {
  const { env, store, clock, logger, events } = base;
  const publicUrl = options.publicUrl ?? (() => env.publicUrl);
  const mailer = options.mailer ?? createMailer(options.mail ?? env.mail);
  // Built on first use: its URLs are the cloud's public ones (a test's is known once it listens).
  let gateway: PaymentGateway | null = null;
  const gatewayOnce = () =>
    (gateway ??= createPaymentGateway(options.payment ?? env.payment, { publicUrl: publicUrl(), logger }));

  const myBookings = new MyBookingService(store, clock, core.settings, core.bookings, core.extensions);
  const emails = new BookingEmailService({
    mailer,
    logger,
    store,
    clock,
    settings: core.settings,
    myBookingUrl: async (booking) => `${publicUrl()}${myBookingPath((await myBookings.mint(booking)).token)}`,
    processId,
  });
  const payments = new PaymentService({
    store,
    clock,
    logger,
    events,
    bookings: core.bookings,
    locations: core.locations,
    emails,
    provider: () => gatewayOnce().provider,
    responseUrls: () => bookingPaymentUrls(publicUrl()),
    random,
  });
  const morningScheduler =
    options.morningScheduler === false
      ? null
      : new MorningScheduler({ store, clock, logger, bookings: core.bookings, emails, random });
  return { myBookings, mailer, emails, payments, gateway: gatewayOnce, morningScheduler };
}

/** The app's bridge hub and Gestione Locker through it; the hub listens once its area attaches it. */
function bridgeHubServices(
  base: AppBase,
  tuning: BridgeHubTuning = {},
): BridgeHubServices & { lockerControl: LockerControl } {
  const { env, store, clock, logger, events } = base;
  const { answerWithinMs, pinSyncIntervalMs: _interval, ...hubOptions } = tuning;
  const hub = new BridgeHub({ ...hubOptions, store, clock, logger, database: env.database });
  const pins = { hub, store, events, clock, logger: logger.child({ component: 'bridge-hub' }) };
  return { hub, pins, lockerControl: new HubLockerControl(hub, store, clock, answerWithinMs) };
}

/** The operators' services over the visitors' ones and the sites' locker control. */
function adminServices(
  base: AppBase,
  shared: CoreServices & VisitorServices,
  lockerControl: LockerControl,
  options: AdminOptions = {},
): AdminServices {
  const { env, store, clock, logger, events } = base;
  const auth = new AdminAuthService(store, clock, logger, {
    sessionTtlMs: options.sessionTtlMs,
    idleTimeoutMs: options.idleTimeoutMs,
    scryptCost: options.scryptCost,
    limits: options.loginLimits ?? env.limits.login,
    wait: options.wait,
  });
  const activity = new AdminActivityLog(store, clock, logger);
  const { settings, bookings, mailer } = shared;
  return {
    auth,
    requireAdmin: requireAdmin(auth),
    activity,
    users: new AdminUserService(store, clock, auth, activity),
    locations: new LocationAdminService(store, clock, activity),
    discounts: new DiscountAdminService(store, clock, activity),
    cleanup: new CleanupService(store, clock, activity, events),
    bookings: new AdminBookingService(
      store,
      clock,
      settings,
      activity,
      shared.morningScheduler,
      shared.payments,
      events,
    ),
    logs: new AdminLogService(store, options.processLog ?? processLogRing),
    lockerControl,
    lockerActions: new LockerActionService(store, clock, lockerControl, bookings),
    lockerHistory: new LockerHistoryService(store),
    alerts: new AlertService({ store, clock, logger, settings, lockerControl, mailer: () => mailer }),
    takings: new TakingsService({
      store,
      clock,
      promotec: new PromotecTakings({
        client: new PromotecClient({ scheme: env.promotecScheme }),
        errorLog: store.errorLog,
        now: () => clock.now(),
      }),
    }),
    liveLockers: liveLockerStreams(lockerControl, clock, auth, options.liveIntervalMs),
  };
}

/** The periodic passes, not started: the app starts them (see `BackgroundJobs`). */
function backgroundJobs(base: AppBase, services: Services, options: CompositionOptions): BackgroundJobs {
  const { store, clock, logger, events } = base;
  const { hub, pins } = services.bridgeHub;
  return {
    expiry: createPendingBookingExpiry({ store, clock, events, logger }),
    emailOutbox: services.emails.worker(),
    bridgeHub: {
      start: () =>
        void hub
          .start()
          .catch((error: unknown) => logger.error({ err: error }, 'bridge hub failed to start')),
      stop: () => hub.stop(),
    },
    pinSync: intervalJob({
      intervalMs: options.bridgeHub?.pinSyncIntervalMs ?? PIN_SYNC_INTERVAL_MS,
      pass: () => syncAllPins(pins),
      logger,
      failure: 'PIN sync failed',
    }),
    alerts: intervalJob({
      intervalMs: options.admin?.alertIntervalMs ?? ALERT_INTERVAL_MS,
      pass: () => services.admin.alerts.evaluate(),
      logger,
      failure: 'alerts not evaluated',
    }),
  };
}

/** Every service and job of one app, each built once. */
export function composeApp(
  base: AppBase,
  options: CompositionOptions = {},
): { services: Services; jobs: BackgroundJobs } {
  const random = options.random ?? cryptoRandom;
  const core = coreServices(base, random);
  // The process as its hub records it while it runs: the e-mail sender's leases go by it too.
  const processId = options.bridgeHub?.processId ?? newCloudProcessId();
  const visitor = visitorServices(base, core, random, options, processId);
  const { lockerControl: hubLockerControl, ...bridgeHub } = bridgeHubServices(base, {
    ...options.bridgeHub,
    processId,
  });
  const lockerControl = options.lockerControl?.(base, hubLockerControl) ?? hubLockerControl;
  const admin = adminServices(base, { ...core, ...visitor }, lockerControl, options.admin);
  const services: Services = { ...core, ...visitor, bridgeHub, admin };
  return { services, jobs: backgroundJobs(base, services, options) };
}
