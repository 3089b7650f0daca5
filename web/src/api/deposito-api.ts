import type { z } from 'zod';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { wireDuration } from '@deposito/protocol/pricing/price-table';
import type * as CustomerRoutes from './customer-routes';
import { callRoute, routePath } from './call-route';
import { ApiError, CLIENT_ERROR_CODES, requestJson } from './http';
import { frontendOverridesRoute, publicLocationRoute } from './location-answers';

// One function per endpoint the customer pages call; every answer is parsed with protocol's schema
// (the location page's first two with their zod/mini mirrors, see location-answers.ts).

type Body<Route extends { request: { body?: z.ZodType } }> = z.input<NonNullable<Route['request']['body']>>;

let routesModule: Promise<typeof CustomerRoutes> | undefined;

/** The full route definitions, loaded once; a failed load counts as a network failure and is retried on the next call. */
function customerRoutes(): Promise<typeof CustomerRoutes> {
  routesModule ??= import('./customer-routes').catch((error: unknown) => {
    routesModule = undefined;
    throw new ApiError(CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : 'Network error');
  });
  return routesModule;
}

/** Starts loading the route definitions when the visitor starts booking, so the first call does not wait for them. */
export function preloadCustomerRoutes(): void {
  customerRoutes().catch(() => undefined);
}

export const loadLocation = (location: string) =>
  requestJson(routePath(publicLocationRoute.path, { location }), publicLocationRoute.answer, {
    method: publicLocationRoute.method,
  });

export const loadFrontendOverrides = (location: string) =>
  requestJson(frontendOverridesRoute.path, frontendOverridesRoute.answer, {
    method: frontendOverridesRoute.method,
    query: { location },
  });

/** Free lockers per day: `today` for a booking starting today, `future` for later days. */
export const loadAvailability = async (
  when: 'today' | 'future',
  query: { location: string; startDate: string; endDate: string },
) => {
  const { availabilityRoutes } = await customerRoutes();
  return callRoute(when === 'today' ? availabilityRoutes.today : availabilityRoutes.future, { query });
};

export const loadFastTrackOffer = async (location: string) =>
  callRoute((await customerRoutes()).bookingRoutes.immediate, { query: { location } });

export const holdLockers = async (body: Body<typeof CustomerRoutes.lockerRoutes.inhibitMulti>) =>
  callRoute((await customerRoutes()).lockerRoutes.inhibitMulti, { body });

export const saveCustomerDetails = async (
  transactionId: string,
  body: Body<typeof CustomerRoutes.bookingRoutes.customerDetails>,
) => callRoute((await customerRoutes()).bookingRoutes.customerDetails, { params: { transactionId }, body });

export const saveBooking = async (body: Body<typeof CustomerRoutes.bookingRoutes.save>) =>
  callRoute((await customerRoutes()).bookingRoutes.save, { body });

export const cancelBooking = async (transactionId: string) =>
  callRoute((await customerRoutes()).bookingRoutes.cancel, { params: { transactionId } });

export const readBooking = async (transactionId: string) =>
  callRoute((await customerRoutes()).bookingRoutes.readBack, { params: { transactionId } });

/** The provider's page can take a while to prepare; the button itself gives up after 3 minutes. */
export const createPayment = async (
  body: Body<typeof CustomerRoutes.paymentRoutes.createPayment>,
  signal?: AbortSignal,
) => callRoute((await customerRoutes()).paymentRoutes.createPayment, { body, signal, timeoutMs: 180_000 });

/** The provider's page again for a hold whose payment was declined (or left open), while the hold lives. */
export const retryPayment = async (transactionId: string) =>
  callRoute((await customerRoutes()).paymentRoutes.retryPayment, {
    body: { transactionId },
    timeoutMs: 180_000,
  });

export const decryptPaymentReturn = async (a: string, b: string) =>
  callRoute((await customerRoutes()).paymentRoutes.decrypt, { body: { a, b } });

export const validateDiscount = async (code: string, duration: Duration | null, location?: string) =>
  callRoute((await customerRoutes()).discountRoutes.validate, {
    body: { code: code.trim(), duration: duration ? wireDuration(duration) : undefined, location },
  });

export const checkNightAvailability = async (body: Body<typeof CustomerRoutes.nightRoutes.check>) =>
  callRoute((await customerRoutes()).nightRoutes.check, { body });

export const checkNightRange = async (body: Body<typeof CustomerRoutes.nightRoutes.checkRange>) =>
  callRoute((await customerRoutes()).nightRoutes.checkRange, { body });

export const createNightPayment = async (body: Body<typeof CustomerRoutes.nightRoutes.createPayment>) =>
  callRoute((await customerRoutes()).nightRoutes.createPayment, { body, timeoutMs: 180_000 });
