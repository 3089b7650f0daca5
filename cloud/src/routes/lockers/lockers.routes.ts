import { lockerRoutes } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { clientKey } from '../../limits/client-key';
import { endpoint } from '../endpoint';
import { useCustomerInhibit } from './customer-inhibit';

/** A visitor blocking the locker it was offered (see customer-inhibit.ts); mounted before the admin guard. */
export const customerInhibitArea: RouteArea = {
  name: 'customer-inhibit',
  routes: useCustomerInhibit,
};

export const lockersArea: RouteArea = {
  name: 'lockers',
  endpoints: ({ services }) => [
    endpoint(lockerRoutes.state, ({ query }) => services.locations.lockerState(query.location)),

    // Holds lockers for the visitor's period and answers with the pending booking that owns them.
    endpoint(lockerRoutes.inhibitMulti, async ({ body }, req) => {
      const booking = await services.visitorLimits.hold(clientKey(req.ip), body.quantita, () =>
        services.bookings.hold({
          locationKey: body.locationKey,
          size: body.dimensione,
          quantity: body.quantita,
          window:
            body.startTimeIso && body.endTimeIso
              ? { startAt: new Date(body.startTimeIso), endAt: new Date(body.endTimeIso) }
              : undefined,
          transactionId: body.transactionId,
        }),
      );
      return {
        success: true as const,
        reservedLockers: booking.lockers.filter((l) => l.active).map((l) => l.number),
        message: `${booking.quantity} locker ${booking.size} bloccati`,
        transactionId: booking.transactionId,
        expiresAt: booking.expiresAt?.toISOString(),
      };
    }),
  ],
};
