import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { request as httpRequest } from 'undici';
import { z } from 'zod';
import { centsToGatewayAmount } from './gateway-amount';
import type { EncryptedPaymentParams, PaymentLanguage } from './payment-provider';
import { renderSandboxCheckoutPage, renderSandboxInvalidLinkPage } from './sandbox-payment-page';
import type { SandboxGatewayOptions } from './sandbox-payment-provider';
import { checkCardForm, SANDBOX_TEST_CARDS, type CardForm } from './sandbox-test-cards';
import { SandboxTokenError, SandboxTokens, type SandboxCheckout, type SandboxResult } from './sandbox-tokens';

export interface SandboxPaymentRouterOptions extends SandboxGatewayOptions {
  logger?: Logger;
  /** How long one server-to-server notification may take. */
  notificationTimeoutMs?: number;
  /** Delays of the retries after a failed notification (a real gateway retries too). */
  notificationRetryDelaysMs?: readonly number[];
  /** Language of the error page when the link itself is unreadable. */
  defaultLanguage?: PaymentLanguage;
}

const ABANDONED_BY_BUYER = { code: '1143', description: 'Transaction abandoned by buyer' };

const pageParamsSchema = z.object({ a: z.string().min(1).max(200), b: z.string().min(1).max(8000) });
const text = z.string().max(200).catch('');
const payFormSchema = pageParamsSchema.extend({
  cardholder: text,
  cardNumber: text,
  expiry: text,
  cvc: text,
});

function originOf(url: string): string {
  return new URL(url).origin;
}

/** The page is shown in the top window only, never framed; the form may post here and be redirected back. */
function setPageHeaders(res: Response, checkout?: SandboxCheckout): void {
  const formTargets = checkout
    ? [...new Set([originOf(checkout.urls.buyerOK), originOf(checkout.urls.buyerKO)])].join(' ')
    : '';
  res.set({
    'Content-Security-Policy':
      `default-src 'none'; style-src 'unsafe-inline'; base-uri 'none'; frame-ancestors 'none'; form-action 'self' ${formTargets}`.trim(),
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
    'X-Content-Type-Options': 'nosniff',
  });
  res.type('html');
}

/**
 * The sandbox gateway's hosted page: GET shows the card form, POST "charges" a test card, notifies
 * the cloud server-to-server and sends the visitor back with `a` and `b`, as a hosted-page gateway
 * does. Mount it where `pageBaseUrl` points (e.g. `/sandbox-pay`).
 */
export function createSandboxPaymentRouter(options: SandboxPaymentRouterOptions): Router {
  const tokens = new SandboxTokens(options.secret);
  const now = options.now ?? (() => new Date());
  const notificationTimeoutMs = options.notificationTimeoutMs ?? 5_000;
  const retryDelaysMs = options.notificationRetryDelaysMs ?? [1_000, 5_000, 30_000];
  const defaultLanguage = options.defaultLanguage ?? 'it';
  const logger = options.logger;
  const router = express.Router();

  const openCheckout = (params: EncryptedPaymentParams): SandboxCheckout | null => {
    if (params.a !== options.shopLogin) return null;
    try {
      return tokens.openCheckout(params.b, now());
    } catch (error) {
      if (error instanceof SandboxTokenError) return null;
      throw error;
    }
  };

  const invalidLink = (res: Response) => {
    setPageHeaders(res);
    res.status(400).send(renderSandboxInvalidLinkPage(defaultLanguage));
  };

  const checkoutPage = (
    res: Response,
    checkout: SandboxCheckout,
    params: EncryptedPaymentParams,
    form?: Partial<CardForm>,
    errors?: Parameters<typeof renderSandboxCheckoutPage>[0]['errors'],
  ) => {
    setPageHeaders(res, checkout);
    res.send(
      renderSandboxCheckoutPage({
        checkout,
        merchantName: options.merchantName,
        a: params.a,
        b: params.b,
        form,
        errors,
        testCards: SANDBOX_TEST_CARDS,
      }),
    );
  };

  async function notifyOnce(url: string, params: EncryptedPaymentParams): Promise<void> {
    const response = await httpRequest(url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ a: params.a, b: params.b }).toString(),
      headersTimeout: notificationTimeoutMs,
      bodyTimeout: notificationTimeoutMs,
    });
    await response.body.dump();
    if (response.statusCode < 200 || response.statusCode >= 300) {
      throw new Error(`Notification answered HTTP ${response.statusCode}`);
    }
  }

  /** The first attempt is awaited (so the cloud usually knows before the visitor is back); retries run later. */
  async function notify(url: string, params: EncryptedPaymentParams, transactionId: string): Promise<void> {
    const attempt = async (index: number): Promise<void> => {
      try {
        await notifyOnce(url, params);
        logger?.info({ transactionId, attempt: index + 1 }, 'sandbox payment notification delivered');
      } catch (error) {
        const delay = retryDelaysMs[index];
        logger?.warn(
          { transactionId, attempt: index + 1, err: error, retryInMs: delay ?? null },
          'sandbox payment notification failed',
        );
        if (delay !== undefined) setTimeout(() => void attempt(index + 1), delay).unref();
      }
    };
    await attempt(0);
  }

  /** Seals the outcome as `b` and notifies the cloud; returns the `a`/`b` for the visitor's return. */
  async function report(
    checkout: SandboxCheckout,
    outcome: Pick<
      SandboxResult,
      'transactionResult' | 'bankTransactionID' | 'errorCode' | 'errorDescription'
    >,
  ): Promise<EncryptedPaymentParams> {
    const result: SandboxResult = {
      shopTransactionID: checkout.transactionId,
      paymentID: checkout.paymentId,
      amount: centsToGatewayAmount(checkout.amountCents),
      currency: checkout.currency,
      ...outcome,
    };
    const params = { a: options.shopLogin, b: tokens.sealResult(options.shopLogin, result) };
    await notify(checkout.urls.serverNotificationURL, params, checkout.transactionId);
    return params;
  }

  router.get('/pay', (req: Request, res: Response) => {
    const params = pageParamsSchema.safeParse(req.query);
    const checkout = params.success ? openCheckout(params.data) : null;
    if (!params.success || !checkout) return invalidLink(res);
    checkoutPage(res, checkout, params.data);
  });

  router.post('/pay', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    const form = payFormSchema.safeParse(req.body ?? {});
    const checkout = form.success ? openCheckout(form.data) : null;
    if (!form.success || !checkout) return invalidLink(res);
    const params = { a: form.data.a, b: form.data.b };

    const check = checkCardForm(form.data, now());
    if (!check.ok) {
      res.status(422);
      return checkoutPage(res, checkout, params, form.data, check.errors);
    }

    const transactionResult = check.card.outcome === 'approved' ? 'OK' : 'KO';
    const resultParams = await report(checkout, {
      transactionResult,
      bankTransactionID: tokens.bankTransactionId(checkout.paymentId, transactionResult),
      errorCode: check.card.errorCode ?? '0',
      errorDescription: check.card.errorDescription ?? '',
    });
    const back = new URL(transactionResult === 'OK' ? checkout.urls.buyerOK : checkout.urls.buyerKO);
    back.searchParams.set('a', resultParams.a);
    back.searchParams.set('b', resultParams.b);
    res.redirect(303, back.toString());
  });

  // Abandoning the page is reported like a gateway does (KO, "abandoned by buyer") so the cloud can
  // release the lockers; the visitor lands on the cancel URL without parameters. A POST, so no link
  // prefetcher can cancel a booking.
  router.post('/cancel', express.urlencoded({ extended: false, limit: '16kb' }), async (req, res) => {
    const params = pageParamsSchema.safeParse(req.body ?? {});
    const checkout = params.success ? openCheckout(params.data) : null;
    if (!params.success || !checkout) return invalidLink(res);
    await report(checkout, {
      transactionResult: 'KO',
      bankTransactionID: '',
      errorCode: ABANDONED_BY_BUYER.code,
      errorDescription: ABANDONED_BY_BUYER.description,
    });
    res.redirect(303, checkout.urls.cancel);
  });

  return router;
}
