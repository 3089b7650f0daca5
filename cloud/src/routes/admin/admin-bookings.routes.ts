import { adminRoutes, cleanupRoutes } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { adminOf } from '../../auth/require-admin';
import type { AdminServices, AppContext } from '../../app-context';
import { endpoint, type Endpoint } from '../endpoint';
import { AppError } from '../../errors';
import { extensionOfferAnswer, readStay } from '../../services/booking-extension.service';

/** Prenotazioni (recent list, Gestione Database) and Strumenti Avanzati. */
export function adminBookingEndpoints(admin: AdminServices, context: AppContext): Endpoint[] {
  const { store, logger } = context;
  const { extensions, emails } = context.services;
  /** The stay a booking belongs to (from any of its bookings) and its location. */
  const stayOf = async (transactionId: string) => {
    const booking = await store.bookings.get(transactionId);
    const stay = booking ? await readStay(store, booking) : null;
    const location = stay ? await store.locations.get(stay.root.locationKey) : null;
    if (!stay || !location) throw new AppError('BOOKING_NOT_FOUND');
    return { stay, location };
  };
  return [
    endpoint(adminRoutes.recentBookings, ({ query }) => admin.bookings.recent(query.limit, query.q)),

    endpoint(cleanupRoutes.stats, async () => ({ success: true, data: await admin.cleanup.stats() })),
    endpoint(cleanupRoutes.preview, async ({ query }) => ({
      success: true,
      data: await admin.cleanup.preview(query),
    })),
    endpoint(cleanupRoutes.execute, async ({ body }, _req, res) => ({
      success: true,
      data: await admin.cleanup.execute(adminOf(res), body),
    })),

    endpoint(adminRoutes.createTestBooking, async ({ body }, _req, res) => {
      const { transactionId } = await admin.bookings.createTestBooking(adminOf(res), body);
      return {
        success: true as const,
        message: `Prenotazione di test creata: ${transactionId}`,
        transactionId,
      };
    }),
    endpoint(adminRoutes.bookingHistory, ({ params }) => admin.bookings.history(params.transactionId)),
    endpoint(adminRoutes.refundBooking, ({ params, body }, _req, res) =>
      admin.bookings.refund(adminOf(res), params.transactionId, body.byHand),
    ),
    endpoint(adminRoutes.resendBookingEmail, async ({ params }, _req, res) => {
      const answer = await admin.bookings.resendEmail(adminOf(res), params.transactionId);
      // Queued durably, then sent now; a failure is retried by the outbox worker like any booking
      // e-mail.
      await emails
        .deliver(params.transactionId)
        .catch((error: unknown) =>
          logger.error({ err: error, transactionId: params.transactionId }, 'resend not sent yet'),
        );
      return answer;
    }),
    endpoint(adminRoutes.moveBookingLocker, ({ params, body }, _req, res) =>
      admin.bookings.moveLocker(adminOf(res), params.transactionId, body),
    ),
    endpoint(adminRoutes.bookingExtension, async ({ params }) => {
      const { stay, location } = await stayOf(params.transactionId);
      return extensionOfferAnswer(await extensions.offer(stay, location));
    }),
    endpoint(adminRoutes.extendBooking, async ({ params, body }, _req, res) => {
      const actor = adminOf(res);
      const { stay, location } = await stayOf(params.transactionId);
      const extension = await extensions.grant(stay, location, new Date(body.endIso), {
        email: actor.email,
        reason: body.reason,
      });
      // The new end as the operators read times: the site's own clock.
      const until = DateTime.fromISO(body.endIso, { zone: location.zone }).toFormat('dd/MM/yyyy HH:mm');
      const message = `Prenotazione ${stay.root.transactionId} prolungata fino al ${until} senza addebito (${extension.transactionId}). Motivo: ${body.reason}`;
      await admin.activity.record(actor, 'admin/booking_extended', message, {
        locationKey: stay.root.locationKey,
        lockerId: stay.root.lockers.find((locker) => locker.active)?.number ?? null,
      });
      // The visitor's "extended" e-mail was queued with the confirmation: sent now, else by the
      // outbox worker.
      await emails
        .deliver(extension.transactionId)
        .catch((error: unknown) =>
          logger.error(
            { err: error, transactionId: extension.transactionId },
            'extension e-mail not sent yet',
          ),
        );
      return { success: true as const, message, extension: extension.transactionId, endIso: body.endIso };
    }),
    endpoint(adminRoutes.runMorningScheduler, (_input, _req, res) =>
      admin.bookings.runMorningScheduler(adminOf(res)),
    ),
  ];
}
