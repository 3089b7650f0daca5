import { adminRoutes } from './admin';
import { authRoutes } from './auth';
import { availabilityRoutes } from './availability';
import { bookingRoutes } from './bookings';
import { cleanupRoutes } from './cleanup';
import { discountRoutes } from './discounts';
import { localeRoutes } from './locales';
import { locationRoutes } from './locations';
import { lockerRoutes } from './lockers';
import { myBookingRoutes } from './my-booking';
import { nightRoutes } from './night';
import { paymentRoutes } from './payments';
import type { ApiRoute } from './route';
import { settingsRoutes } from './settings';
import { takingsRoutes } from './takings';

/** Every route by area and name, for typed handlers and clients: `apiRouteGroups.bookings.save`. */
export const apiRouteGroups = {
  auth: authRoutes,
  locations: locationRoutes,
  lockers: lockerRoutes,
  bookings: bookingRoutes,
  myBooking: myBookingRoutes,
  availability: availabilityRoutes,
  night: nightRoutes,
  payments: paymentRoutes,
  discounts: discountRoutes,
  settings: settingsRoutes,
  cleanup: cleanupRoutes,
  takings: takingsRoutes,
  admin: adminRoutes,
  locales: localeRoutes,
} as const;

/** 0 for a fixed segment, 1 for a `:param`: fixed paths sort before the patterns that would match them. */
const segmentKinds = (path: string) => path.split('/').map((segment) => (segment.startsWith(':') ? 1 : 0));

function fixedBeforeParams(a: ApiRoute, b: ApiRoute): number {
  const kindsA = segmentKinds(a.path);
  const kindsB = segmentKinds(b.path);
  for (let index = 0; index < Math.min(kindsA.length, kindsB.length); index += 1) {
    if (kindsA[index] !== kindsB[index]) return kindsA[index] - kindsB[index];
  }
  return kindsA.length - kindsB.length;
}

/**
 * The catalogue of every HTTP endpoint. Register them in this order: a fixed path such as
 * `/api/bookings/availability` comes before `/api/bookings/:transactionId`, which would match it.
 */
export const apiRoutes: readonly ApiRoute[] = Object.values(apiRouteGroups)
  .flatMap((group): ApiRoute[] => Object.values(group))
  .sort(fixedBeforeParams);

/** The route with this method and path, if any. */
export function findApiRoute(method: string, path: string): ApiRoute | undefined {
  return apiRoutes.find((route) => route.method === method.toUpperCase() && route.path === path);
}
