import { LIVE_LOCKERS_PATH } from '@deposito/protocol';
import express from 'express';
import { bridgeHubArea } from '../../bridge-hub/bridge-hub.area';
import type { AppContext, RouteArea } from '../../app-context';
import { adminRequestGuard } from '../../auth/require-admin';
import { intervalJob } from '../../jobs/interval-job';
import { ALERT_INTERVAL_MS } from '../../services/alert.service';
import { adminBookingEndpoints } from './admin-bookings.routes';
import { adminDiscountEndpoints } from './admin-discounts.routes';
import { adminLocationEndpoints } from './admin-locations.routes';
import { adminLockerEndpoints } from './admin-lockers.routes';
import { liveLockerStreams, type LiveLockerStreams } from './admin-live.routes';
import { buildAdminModule, type AdminAreaOptions, type AdminModule } from './admin-module';

import { adminSettingsEndpoints } from './admin-settings.routes';
import { adminTakingsEndpoints } from './admin-takings.routes';
import { authEndpoints } from './auth.routes';
import { builtPaymentModule, morningSchedulerFor, refundsFor } from '../payments/payments.routes';

export { processLogRing } from './admin-module';

/**
 * The admin area: login, the operator screens' calls, and the guard. The guard runs in front of
 * every request the catalogue marks `auth: 'admin'` (and anything under /api/admin/ that it does not
 * make public), whichever area answers it, so no admin call is reachable without a valid token.
 */
export function createAdminArea(options: AdminAreaOptions = {}): RouteArea {
  const modules = new WeakMap<AppContext, AdminModule>();
  const moduleFor = (context: AppContext) => {
    let module = modules.get(context);
    if (!module) {
      module = buildAdminModule(context, options);
      modules.set(context, module);
    }
    return module;
  };
  const liveStreams = new WeakMap<AppContext, LiveLockerStreams>();
  const liveFor = (context: AppContext) => {
    let streams = liveStreams.get(context);
    if (!streams) {
      streams = liveLockerStreams(moduleFor(context).lockerControl, context.clock, options.liveIntervalMs);
      liveStreams.set(context, streams);
    }
    return streams;
  };
  return {
    name: 'admin',
    adminGuard: (context) => moduleFor(context).requireAdmin,
    router(context) {
      const router = express.Router();
      router.use(adminRequestGuard(moduleFor(context).requireAdmin));
      router.get(LIVE_LOCKERS_PATH, (req, res) => liveFor(context).handler(req, res));
      return router;
    },
    // Every process looks for alerts; the store raises each once however many look at a time.
    jobs(context) {
      const { alerts } = moduleFor(context);
      return [
        intervalJob({
          intervalMs: options.alertIntervalMs ?? ALERT_INTERVAL_MS,
          pass: () => alerts.evaluate(),
          logger: context.logger,
          failure: 'alerts not evaluated',
        }),
      ];
    },
    drain(context) {
      liveStreams.get(context)?.closeAll();
    },
    endpoints(context) {
      const admin = moduleFor(context);
      return [
        ...authEndpoints(admin),
        ...adminLocationEndpoints(admin),
        ...adminDiscountEndpoints(admin),
        ...adminLockerEndpoints(admin),
        ...adminBookingEndpoints(admin, context),
        ...adminSettingsEndpoints(admin, context),
        ...adminTakingsEndpoints(context),
      ];
    },
  };
}

export const adminArea = createAdminArea({
  morningScheduler: morningSchedulerFor,
  refunds: refundsFor,
  alertMailer: (context) => builtPaymentModule(context)?.mailer ?? null,
  lockerControl: bridgeHubArea.lockerControl,
});

/**
 * Creates the first administrator at start-up when there is none (ADMIN_EMAIL/ADMIN_PASSWORD, or a
 * generated one in demo mode, whose password is printed once).
 */
export async function ensureFirstAdmin(context: AppContext): Promise<void> {
  const { env, logger } = context;
  const outcome = await buildAdminModule(context, {}).auth.ensureFirstAdmin({
    email: env.firstAdmin.email,
    password: env.firstAdmin.password,
    demo: env.demo,
  });
  if (!outcome.created) return;
  if (outcome.generatedPassword) {
    logger.warn({ email: outcome.email }, 'demo administrator created; its password follows on stdout');
    process.stdout.write(
      `\nAdmin login: ${outcome.email} / ${outcome.generatedPassword}\n(shown once; set ADMIN_EMAIL and ADMIN_PASSWORD to choose your own)\n\n`,
    );
  } else {
    logger.info({ email: outcome.email }, 'first administrator created from ADMIN_EMAIL');
  }
}
