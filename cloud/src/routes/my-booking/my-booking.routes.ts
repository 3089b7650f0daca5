import { myBookingRoutes } from '@deposito/protocol';
import type { Response } from 'express';
import type { RouteArea } from '../../app-context';
import { endpoint } from '../endpoint';

/** A download of a private link's booking: never cached, never named to the next site in a Referer. */
function sendPrivateFile(res: Response, type: string, filename: string, body: string | Buffer): void {
  res
    .set({
      'Content-Type': type,
      'Content-Disposition': `attachment; filename="${filename}"`,
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    })
    .send(body);
}

/** The visitor's own booking page behind a private link, and its calendar file. */
export const myBookingArea: RouteArea = {
  name: 'my-booking',
  endpoints: ({ services, logger }) => {
    const { myBookings, payments, emails, bookings, visitorLimits } = services;
    return [
      endpoint(myBookingRoutes.read, async ({ params }, _req, res) => {
        // A private page: neither shared caches nor the Referer of its outgoing links may keep it.
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
        return myBookings.read(params.token);
      }),
      endpoint(myBookingRoutes.cancel, async ({ params }, _req, res) => {
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
        const cancelled = await myBookings.cancel(params.token);
        // The refunds (the booking's and its extensions') are asked of the gateway at once; one that
        // cannot be made now stays refund_due and the operators' log says to refund it by hand.
        for (const paid of [cancelled, ...cancelled.extensions]) {
          if (paid.status === 'refund_due') await payments.refund(paid.reference);
        }
        return myBookings.read(params.token);
      }),
      endpoint(myBookingRoutes.extend, async ({ params, body }, _req, res) => {
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
        const extension = await myBookings.extend(params.token, body.endIso);
        try {
          const created = await payments.retryPayment(extension.transactionId);
          res.status(200).type('html').send(created.html);
        } catch (error) {
          // No payment page: the lockers go back at once rather than when the hold lapses.
          await bookings.cancel(extension.transactionId).catch(() => undefined);
          throw error;
        }
      }),
      endpoint(myBookingRoutes.resend, async ({ params }, _req, res) => {
        res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
        let transactionId = '';
        const answer = await myBookings.resend(params.token, async (id) => {
          transactionId = id;
          await visitorLimits.resend(id);
        });
        // Queued durably, then sent before answering; a failure is retried by the outbox worker
        // like any booking e-mail.
        await emails
          .deliver(transactionId)
          .catch((error: unknown) => logger.error({ err: error, transactionId }, 'resend not sent yet'));
        return answer;
      }),
      endpoint(myBookingRoutes.link, async ({ params }, _req, res) => {
        res.set('Cache-Control', 'no-store');
        return myBookings.mintForPaidBooking(params.transactionId);
      }),
    ];
  },
  // text/calendar and application/pdf, not JSON: served beside the catalogue (protocol's
  // myBookingCalendarPath and myBookingReceiptPath).
  routes: (router, { services: { myBookings } }) => {
    router.get('/api/my-booking/:token/calendar.ics', async (req, res) => {
      const { filename, ics } = await myBookings.calendar(String(req.params.token));
      sendPrivateFile(res, 'text/calendar; charset=utf-8', filename, ics);
    });
    router.get('/api/my-booking/:token/receipt.pdf', async (req, res) => {
      const { filename, pdf } = await myBookings.receipt(String(req.params.token));
      sendPrivateFile(res, 'application/pdf', filename, Buffer.from(pdf));
    });
  },
};
