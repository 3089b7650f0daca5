import { decryptPaymentRequestSchema, nightRoutes, paymentRoutes } from '@deposito/protocol';
import express, { type Request, type Response } from 'express';
import type { AppContext, RouteArea } from '../../app-context';
import type { RefundRun } from '../../services/admin-booking.service';
import type { PayerDetails } from '../../services/payment.service';
import { parseRequest } from '../../errors';
import { clientKey } from '../../limits/client-key';
import { visitorLimitsFor } from '../../limits/visitor-limits';
import { PAYMENT_NOTIFICATION_PATH, SANDBOX_PAYMENT_MOUNT_PATH } from '../../payments/payment-gateway';
import { endpoint } from '../endpoint';
import { buildPaymentModule, type PaymentAreaOptions, type PaymentModule } from './payment-module';

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

// One payment module per app, whichever payments area builds it first, so the admin area's
// "run the morning scheduler" reaches the scheduler of the payments area actually served.
const modules = new WeakMap<AppContext, PaymentModule>();

/** The payment module an app's payments area has built, if any (other areas' e-mails go through it). */
export function builtPaymentModule(context: AppContext): PaymentModule | undefined {
  return modules.get(context);
}

/**
 * Payments: the spec's create-payment calls (answering the gateway's page), the visitor's return
 * (decrypt), the gateway's server-to-server notification, and the sandbox gateway's own page.
 */
export function createPaymentsArea(options: PaymentAreaOptions = {}): RouteArea & {
  moduleFor(context: AppContext): PaymentModule;
} {
  const moduleFor = (context: AppContext) => {
    let module = modules.get(context);
    if (!module) {
      module = buildPaymentModule(context, options);
      modules.set(context, module);
    }
    return module;
  };

  return {
    name: 'payments',
    moduleFor,

    endpoints(context) {
      const { payments } = moduleFor(context);
      const limits = () => visitorLimitsFor(context.store, context.env.limits);
      return [
        // `amount` and `price` are only compared with the booking's own total, never charged.
        endpoint(paymentRoutes.createPayment, async ({ body }, req, res) => {
          // A code sent here is checked too: it counts as a discount check against guessing.
          if (body.codiceSconto) await limits().discountCheck(clientKey(req.ip));
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
          if (body.codiceSconto) await limits().discountCheck(client);
          const created = await limits().hold(client, body.quantita, () =>
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

    router(context) {
      const module = moduleFor(context);
      const router = express.Router();
      // The gateway's server-to-server call: a and b as a form, JSON or query string.
      const notification = async (req: Request, res: Response) => {
        const source = req.method === 'GET' ? req.query : { ...req.query, ...(req.body ?? {}) };
        const params = parseRequest(decryptPaymentRequestSchema, 'body', source);
        await module.payments.handleResult(params, 'notification');
        res.status(200).type('text').send('OK');
      };
      router.post(
        PAYMENT_NOTIFICATION_PATH,
        express.urlencoded({ extended: false, limit: '16kb' }),
        notification,
      );
      router.get(PAYMENT_NOTIFICATION_PATH, notification);
      router.use(SANDBOX_PAYMENT_MOUNT_PATH, (req, res, next) => {
        const sandbox = module.gateway().sandboxRouter;
        if (sandbox) sandbox(req, res, next);
        else next();
      });
      return router;
    },

    jobs: (context) => [moduleFor(context).scheduler, moduleFor(context).emailWorker],
  };
}

export const paymentsArea = createPaymentsArea();

/**
 * The admin area's "run the morning scheduler now" (`createAdminArea({ morningScheduler:
 * morningSchedulerFor })`). Looked up when run, as the admin area is built before this one.
 */
export function morningSchedulerFor(context: AppContext): { runNow(): Promise<{ message: string }> } {
  return {
    async runNow() {
      const module = modules.get(context);
      if (!module) throw new Error('The payments area is not served by this app');
      return module.scheduler.runNow();
    },
  };
}

/**
 * The admin area's "Rimborsa" (`createAdminArea({ refunds: refundsFor })`): the payments area's
 * PaymentService.refund, looked up when run, as the admin area is built before this one.
 */
export function refundsFor(context: AppContext): RefundRun {
  return {
    async refund(transactionId) {
      const module = modules.get(context);
      if (!module) throw new Error('The payments area is not served by this app');
      return module.payments.refund(transactionId);
    },
  };
}
