import { adminRoutes, cleanupRoutes } from '@deposito/protocol';
import { adminOf } from '../../auth/require-admin';
import type { AppContext } from '../../app-context';
import { endpoint, type Endpoint } from '../endpoint';
import { builtPaymentModule } from '../payments/payments.routes';
import type { AdminModule } from './admin-module';

/** Prenotazioni (recent list, Gestione Database) and Strumenti Avanzati. */
export function adminBookingEndpoints(admin: AdminModule, context: AppContext): Endpoint[] {
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
      // Queued durably: sent now when this app sends e-mails; a failure is retried by the outbox
      // worker like any booking e-mail.
      await builtPaymentModule(context)
        ?.emails.deliver(params.transactionId)
        .catch((error: unknown) =>
          context.logger.error({ err: error, transactionId: params.transactionId }, 'resend not sent yet'),
        );
      return answer;
    }),
    endpoint(adminRoutes.moveBookingLocker, ({ params, body }, _req, res) =>
      admin.bookings.moveLocker(adminOf(res), params.transactionId, body),
    ),
    endpoint(adminRoutes.runMorningScheduler, (_input, _req, res) =>
      admin.bookings.runMorningScheduler(adminOf(res)),
    ),
  ];
}
