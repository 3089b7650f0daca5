import type { AppContext } from '../../app-context';
import type { ScryptCost } from '../../auth/password';
import type { LoginLimitSettings } from '../../limits/limits-config';
import { requireAdmin } from '../../auth/require-admin';
import { AdminActivityLog } from '../../services/admin-activity.service';
import { AlertService } from '../../services/alert.service';
import { LockerHistoryService } from '../../services/locker-history.service';
import type { Mailer } from '../../mail/mailer';
import {
  AdminBookingService,
  type MorningSchedulerRun,
  type RefundRun,
} from '../../services/admin-booking.service';
import { AdminLogService } from '../../services/admin-log.service';
import { ProcessLogRing } from '../../services/admin-process-log';
import { AdminUserService } from '../../services/admin-user.service';
import { AdminAuthService } from '../../services/auth.service';
import { CleanupService } from '../../services/cleanup.service';
import { DiscountAdminService } from '../../services/discount-admin.service';
import { LocationAdminService } from '../../services/location-admin.service';
import { LockerActionService } from '../../services/locker-action.service';
import { StoreLockerControl, type LockerControl } from '../../services/locker-control';
import type { RequestHandler } from 'express';

/** The server's own log lines for "PM2 Logs"; main.ts adds it to the logger's destinations. */
export const processLogRing = new ProcessLogRing();

/** What the admin area can be given instead of its defaults (tests, the bridge hub, the scheduler). */
export interface AdminAreaOptions {
  /** The bridge hub's implementation; without it, state from the store and commands answer bridge/offline. */
  lockerControl?: (context: AppContext) => LockerControl;
  /** How often the live locker grid's streams recompute their state (1 s by default). */
  liveIntervalMs?: number;
  /** The morning scheduler job; without it, running it answers { success: false, error }. */
  morningScheduler?: (context: AppContext) => MorningSchedulerRun | null;
  /** Refunds through the payment gateway (the payments area's), for "Rimborsa". */
  refunds?: (context: AppContext) => RefundRun | null;
  /** Where the operators' alerts are e-mailed from (the payments area's mailer); none: not e-mailed. */
  alertMailer?: (context: AppContext) => Mailer | null;
  /** How often the alerts are looked for (ALERT_INTERVAL_MS by default). */
  alertIntervalMs?: number;
  processLog?: ProcessLogRing;
  sessionTtlMs?: number;
  idleTimeoutMs?: number;
  scryptCost?: ScryptCost;
  /** Failed-login limits; the environment's (LIMIT_LOGIN_FAILURES_*) by default. */
  loginLimits?: LoginLimitSettings;
  /** How throttled logins wait; tests pass a fast one. */
  wait?: (ms: number) => Promise<unknown>;
}

/** The admin services of one app, built once and shared by the guard and every admin endpoint. */
export interface AdminModule {
  auth: AdminAuthService;
  requireAdmin: RequestHandler;
  activity: AdminActivityLog;
  users: AdminUserService;
  locations: LocationAdminService;
  discounts: DiscountAdminService;
  cleanup: CleanupService;
  bookings: AdminBookingService;
  logs: AdminLogService;
  lockerControl: LockerControl;
  /** Gestione Locker's actions, with the bookings they cancel. */
  lockerActions: LockerActionService;
  /** The operators' alerts: looked for by the area's job, listed and acknowledged on the dashboard. */
  alerts: AlertService;
  /** One locker's history, for Gestione Locker. */
  lockerHistory: LockerHistoryService;
}

export function buildAdminModule(context: AppContext, options: AdminAreaOptions): AdminModule {
  const { store, clock, logger } = context;
  const auth = new AdminAuthService(store, clock, logger, {
    sessionTtlMs: options.sessionTtlMs,
    idleTimeoutMs: options.idleTimeoutMs,
    scryptCost: options.scryptCost,
    limits: options.loginLimits ?? context.env.limits.login,
    wait: options.wait,
  });
  const activity = new AdminActivityLog(store, clock, logger);
  const lockerControl = options.lockerControl?.(context) ?? new StoreLockerControl(store, clock);
  return {
    auth,
    requireAdmin: requireAdmin(auth),
    activity,
    users: new AdminUserService(store, clock, auth, activity),
    locations: new LocationAdminService(store, clock, activity),
    discounts: new DiscountAdminService(store, clock, activity),
    cleanup: new CleanupService(store, clock, activity, context.events),
    bookings: new AdminBookingService(
      store,
      clock,
      context.services.settings,
      activity,
      options.morningScheduler?.(context) ?? null,
      options.refunds?.(context) ?? null,
      context.events,
    ),
    logs: new AdminLogService(store, options.processLog ?? processLogRing),
    lockerControl,
    lockerActions: new LockerActionService(store, clock, lockerControl, context.services.bookings),
    lockerHistory: new LockerHistoryService(store),
    alerts: new AlertService({
      store,
      clock,
      logger,
      settings: context.services.settings,
      lockerControl,
      mailer: () => options.alertMailer?.(context) ?? null,
    }),
  };
}
