import { bookingRoutes, eurosToCents } from '@deposito/protocol';
import type { RouteArea } from '../../app-context';
import { clientKey } from '../../limits/client-key';
import { toDuration } from '../../services/booking.service';
import { endpoint } from '../endpoint';

export const bookingsArea: RouteArea = {
  name: 'bookings',
  endpoints: ({ services }) => [
    endpoint(bookingRoutes.immediate, async ({ query }) => {
      const offer = await services.bookings.fastTrackOffer(query.location);
      return {
        locker: { size: offer.size, lockerId: offer.lockerNumber },
        duration: 3,
        price: offer.priceCents / 100,
      };
    }),

    // The browser's transactionId names its hold; price and PIN fields are ignored (the server's count).
    endpoint(bookingRoutes.save, async ({ body }, req) => {
      const booking = await services.visitorLimits.hold(clientKey(req.ip), body.quantita, () =>
        services.bookings.hold({
          locationKey: body.location,
          size: body.locker.size,
          quantity: body.quantita,
          window: { startAt: new Date(body.startTimeIso), endAt: new Date(body.endTimeIso) },
          duration: toDuration(body.locker.duration),
          transactionId: body.transactionId,
          note: body.note,
        }),
      );
      return {
        success: true as const,
        transactionId: booking.transactionId,
        status: 'pending' as const,
        expiresAt: booking.expiresAt!.toISOString(),
      };
    }),

    endpoint(bookingRoutes.scheduled, async ({ body }, req) => {
      const booking = await services.visitorLimits.hold(clientKey(req.ip), body.quantita, () =>
        services.bookings.holdScheduled({
          locationKey: body.location_key,
          size: body.tipo_locker,
          quantity: body.quantita,
          window: { startAt: new Date(body.startTimeIso), endAt: new Date(body.endTimeIso) },
          transactionId: body.id_transazione,
          sentPriceCents:
            body.prezzo_originale === undefined ? undefined : eurosToCents(body.prezzo_originale),
          sentDiscountedCents:
            body.prezzo_scontato === undefined ? undefined : eurosToCents(body.prezzo_scontato),
        }),
      );
      // Lockers are held from now on but shown to the visitor only on the day.
      return { transactionId: booking.transactionId, lockerId: null };
    }),

    endpoint(bookingRoutes.customerDetails, async ({ params, body }, req) => {
      // A code sent here is checked too: it counts as a discount check against guessing.
      if (body.codice_sconto) await services.visitorLimits.discountCheck(clientKey(req.ip));
      await services.bookings.saveCustomerDetails(params.transactionId, {
        customer: {
          firstName: body.nome,
          lastName: body.cognome,
          email: body.email,
          phonePrefix: body.telefono_prefisso,
          phoneNumber: body.telefono_numero,
        },
        discountCode: body.codice_sconto || null,
        note: body.note,
      });
      return { success: true as const };
    }),

    endpoint(bookingRoutes.cancel, async ({ params }) => {
      await services.bookings.cancel(params.transactionId);
      return { success: true as const };
    }),

    endpoint(bookingRoutes.readBack, ({ params }) => services.bookings.readBack(params.transactionId)),
  ],
};
