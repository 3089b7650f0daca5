import { LIVE_LOCKERS_PATH } from '@deposito/protocol';
import type { AppContext, RouteArea } from '../../app-context';
import { adminRequestGuard } from '../../auth/require-admin';
import { adminBookingEndpoints } from './admin-bookings.routes';
import { adminDiscountEndpoints } from './admin-discounts.routes';
import { adminLocationEndpoints } from './admin-locations.routes';
import { adminLockerEndpoints } from './admin-lockers.routes';
import { adminSettingsEndpoints } from './admin-settings.routes';
import { adminTakingsEndpoints } from './admin-takings.routes';
import { authEndpoints } from './auth.routes';

/**
 * The admin area: login, the operator screens' calls, and the guard. The guard runs in front of
 * every request the catalogue marks `auth: 'admin'` (and anything under /api/admin/ that it does not
 * make public), whichever area answers it, so no admin call is reachable without a valid token.
 */
export const adminArea: RouteArea = {
  name: 'admin',
  adminGuard: ({ services }) => services.admin.requireAdmin,
  routes(router, { services }) {
    router.use(adminRequestGuard(services.admin.requireAdmin));
    router.get(LIVE_LOCKERS_PATH, (req, res) => services.admin.liveLockers.handler(req, res));
  },
  // Every process looks for alerts; the store raises each once however many look at a time.
  jobs: ({ jobs }) => [jobs.alerts],
  drain({ services }) {
    services.admin.liveLockers.closeAll();
  },
  endpoints(context) {
    const { admin } = context.services;
    return [
      ...authEndpoints(admin),
      ...adminLocationEndpoints(admin),
      ...adminDiscountEndpoints(admin),
      ...adminLockerEndpoints(admin),
      ...adminBookingEndpoints(admin, context),
      ...adminSettingsEndpoints(admin, context),
      ...adminTakingsEndpoints(admin),
    ];
  },
};

/**
 * Creates the first administrator at start-up when there is none (ADMIN_EMAIL/ADMIN_PASSWORD, or a
 * generated one in demo mode, whose password is printed once).
 */
export async function ensureFirstAdmin(context: AppContext): Promise<void> {
  const { env, logger } = context;
  const outcome = await context.services.admin.auth.ensureFirstAdmin({
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
