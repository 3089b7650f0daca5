import { decryptPaymentRequestSchema, nightRoutes, paymentRoutes } from '@deposito/protocol';
import express, { type Request, type Response } from 'express';
import type { RouteArea } from '../../app-context';
import type { PayerDetails } from '../../services/payment.service';
import { parseRequest } from '../../errors';
import { clientKey } from '../../limits/client-key';
import { PAYMENT_NOTIFICATION_PATH, SANDBOX_PAYMENT_MOUNT_PATH } from '../../payments/payment-gateway';
import { endpoint } from '../endpoint';

/** The payer's details as both create-payment calls carry them (the spec's Italian names). */
function payerOf(body: {
  nome: string;
  cognome: string;
  email: string;
  telefono: string;
  codiceSconto?: string | null;
  note?: string;
}): PayerDetails {
  return {
    firstName: body.nome,
    lastName: body.cognome,
    email: body.email,
    phone: body.telefono,
    discountCode: body.codiceSconto || null,
    note: body.note,
  };
}

function sendPage(res: Response, html: string): void {
  res.status(200).type('html').set('Cache-Control', 'no-store').send(html);
}

/**
 * Payments: the spec's create-payment calls (answering the gateway's page), the visitor's return
 * (decrypt), the gateway's server-to-server notification, and the sandbox gateway's own page.
 */
export const paymentsArea: RouteArea = {
  name: 'payments',

  endpoints({ services }) {
    const { payments, visitorLimits: limits } = services;
    return [
      // `amount` and `price` are only compared with the booking's own total, never charged.
      endpoint(paymentRoutes.createPayment, async ({ body }, req, res) => {
        // A code sent here is checked too: it counts as a discount check against guessing.
        if (body.codiceSconto) await limits.discountCheck(clientKey(req.ip));
        const created = await payments.createPayment(body.transactionId, payerOf(body), {
          amountCents: body.amount,
        });
        sendPage(res, created.html);
      }),

      endpoint(paymentRoutes.retryPayment, async ({ body }, _req, res) => {
        sendPage(res, (await payments.retryPayment(body.transactionId)).html);
      }),

      // The night booking is made here: a hold like the day's, counted against the same limits.
      endpoint(nightRoutes.createPayment, async ({ body }, req, res) => {
        const client = clientKey(req.ip);
        if (body.codiceSconto) await limits.discountCheck(client);
        const created = await limits.hold(client, body.quantita, () =>
          payments.createNightPayment({
            locationKey: body.locationKey,
            size: body.tipoLocker,
            quantity: body.quantita,
            window: { startAt: new Date(body.startTimeIso), endAt: new Date(body.endTimeIso) },
            ...payerOf(body),
          }),
        );
        sendPage(res, created.html);
      }),

      // The visitor's return: verifying the result also settles the booking, so a lost
      // notification never leaves a paid booking pending.
      endpoint(paymentRoutes.decrypt, async ({ body }) => {
        const settlement = await payments.handleResult(body, 'return');
        return { shopTransactionId: settlement.transactionId };
      }),
    ];
  },

  routes(router, { services }) {
    // The gateway's server-to-server call: a and b as a form, JSON or query string.
    const notification = async (req: Request, res: Response) => {
      const source = req.method === 'GET' ? req.query : { ...req.query, ...(req.body ?? {}) };
      const params = parseRequest(decryptPaymentRequestSchema, 'body', source);
      await services.payments.handleResult(params, 'notification');
      res.status(200).type('text').send('OK');
    };
    router.post(
      PAYMENT_NOTIFICATION_PATH,
      express.urlencoded({ extended: false, limit: '16kb' }),
      notification,
    );
    router.get(PAYMENT_NOTIFICATION_PATH, notification);
    router.use(SANDBOX_PAYMENT_MOUNT_PATH, (req, res, next) => {
      const sandbox = services.gateway().sandboxRouter;
      if (sandbox) sandbox(req, res, next);
      else next();
    });
  },

  // The morning scheduler and the e-mail outbox's pass run with the payments that need them.
  jobs: ({ services, jobs }) => [
    ...(services.morningScheduler ? [services.morningScheduler] : []),
    jobs.emailOutbox,
  ],
};
