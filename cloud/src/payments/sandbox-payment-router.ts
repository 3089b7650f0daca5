import express, { type Request, type Response, type Router } from 'express';
import type { Logger } from 'pino';
import { request as httpRequest } from 'undici';
import { z } from 'zod';
import { centsToGatewayAmount } from './gateway-amount';
import type { EncryptedPaymentParams, PaymentLanguage } from './payment-provider';
import { renderSandboxCheckoutPage, renderSandboxInvalidLinkPage } from './sandbox-payment-page';
import type { SandboxGatewayOptions } from './sandbox-payment-provider';
import { checkCardForm, SANDBOX_TEST_CARDS, type CardForm } from './sandbox-test-cards';
import {
  SANDBOX_RESULT_TTL_MS,
  SandboxTokenError,
  SandboxTokens,
  type SandboxCheckout,
  type SandboxResult,
} from './sandbox-tokens';

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

/** What the page's handlers share, with the options' defaults applied. */
interface SandboxGateway {
  readonly options: SandboxPaymentRouterOptions;
  readonly tokens: SandboxTokens;
  readonly now: () => Date;
  readonly notificationTimeoutMs: number;
  readonly retryDelaysMs: readonly number[];
  readonly defaultLanguage: PaymentLanguage;
}

/** The checkout `a`/`b` name, or null when they are not ours, tampered with or expired. */
function openCheckout(gateway: SandboxGateway, params: EncryptedPaymentParams): SandboxCheckout | null {
  if (params.a !== gateway.options.shopLogin) return null;
  try {
    return gateway.tokens.openCheckout(params.b, gateway.now());
  } catch (error) {
    if (error instanceof SandboxTokenError) return null;
    throw error;
  }
}

function invalidLink(gateway: SandboxGateway, res: Response): void {
  setPageHeaders(res);
  res.status(400).send(renderSandboxInvalidLinkPage(gateway.defaultLanguage));
}

function checkoutPage(
  gateway: SandboxGateway,
  res: Response,
  checkout: SandboxCheckout,
  params: EncryptedPaymentParams,
  form?: Partial<CardForm>,
  errors?: Parameters<typeof renderSandboxCheckoutPage>[0]['errors'],
): void {
  setPageHeaders(res, checkout);
  res.send(
    renderSandboxCheckoutPage({
      checkout,
      merchantName: gateway.options.merchantName,
      a: params.a,
      b: params.b,
      form,
      errors,
      testCards: SANDBOX_TEST_CARDS,
    }),
  );
}

async function notifyOnce(
  gateway: SandboxGateway,
  url: string,
  params: EncryptedPaymentParams,
): Promise<void> {
  const response = await httpRequest(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ a: params.a, b: params.b }).toString(),
    headersTimeout: gateway.notificationTimeoutMs,
    bodyTimeout: gateway.notificationTimeoutMs,
  });
  await response.body.dump();
  if (response.statusCode < 200 || response.statusCode >= 300) {
    throw new Error(`Notification answered HTTP ${response.statusCode}`);
  }
}

/** The first attempt is awaited (so the cloud usually knows before the visitor is back); retries run later. */
async function notify(
  gateway: SandboxGateway,
  url: string,
  params: EncryptedPaymentParams,
  transactionId: string,
): Promise<void> {
  const logger = gateway.options.logger;
  const attempt = async (index: number): Promise<void> => {
    try {
      await notifyOnce(gateway, url, params);
      logger?.info({ transactionId, attempt: index + 1 }, 'sandbox payment notification delivered');
    } catch (error) {
      const delay = gateway.retryDelaysMs[index];
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
  gateway: SandboxGateway,
  checkout: SandboxCheckout,
  outcome: Pick<SandboxResult, 'transactionResult' | 'bankTransactionID' | 'errorCode' | 'errorDescription'>,
): Promise<EncryptedPaymentParams> {
  const result: SandboxResult = {
    shopTransactionID: checkout.transactionId,
    paymentID: checkout.paymentId,
    amount: centsToGatewayAmount(checkout.amountCents),
    currency: checkout.currency,
    ...outcome,
  };
  const { shopLogin } = gateway.options;
  const expiresAt = new Date(gateway.now().getTime() + SANDBOX_RESULT_TTL_MS);
  const params = { a: shopLogin, b: gateway.tokens.sealResult(shopLogin, result, expiresAt) };
  await notify(gateway, checkout.urls.serverNotificationURL, params, checkout.transactionId);
  return params;
}

/** GET /pay: the card form. */
function showCheckout(gateway: SandboxGateway, req: Request, res: Response): void {
  const params = pageParamsSchema.safeParse(req.query);
  const checkout = params.success ? openCheckout(gateway, params.data) : null;
  if (!params.success || !checkout) return invalidLink(gateway, res);
  checkoutPage(gateway, res, checkout, params.data);
}

/** POST /pay: the card form again with its errors, or the outcome reported and the visitor sent back. */
async function payWithCard(gateway: SandboxGateway, req: Request, res: Response): Promise<void> {
  const form = payFormSchema.safeParse(req.body ?? {});
  const checkout = form.success ? openCheckout(gateway, form.data) : null;
  if (!form.success || !checkout) return invalidLink(gateway, res);
  const params = { a: form.data.a, b: form.data.b };

  const check = checkCardForm(form.data, gateway.now());
  if (!check.ok) {
    res.status(422);
    return checkoutPage(gateway, res, checkout, params, form.data, check.errors);
  }

  const transactionResult = check.card.outcome === 'approved' ? 'OK' : 'KO';
  const resultParams = await report(gateway, checkout, {
    transactionResult,
    bankTransactionID: gateway.tokens.bankTransactionId(checkout.paymentId, transactionResult),
    errorCode: check.card.errorCode ?? '0',
    errorDescription: check.card.errorDescription ?? '',
  });
  const back = new URL(transactionResult === 'OK' ? checkout.urls.buyerOK : checkout.urls.buyerKO);
  back.searchParams.set('a', resultParams.a);
  back.searchParams.set('b', resultParams.b);
  res.redirect(303, back.toString());
}

// Abandoning the page is reported like a gateway does (KO, "abandoned by buyer") so the cloud can
// release the lockers; the visitor lands on the cancel URL without parameters. A POST, so no link
// prefetcher can cancel a booking.
async function cancelPayment(gateway: SandboxGateway, req: Request, res: Response): Promise<void> {
  const params = pageParamsSchema.safeParse(req.body ?? {});
  const checkout = params.success ? openCheckout(gateway, params.data) : null;
  if (!params.success || !checkout) return invalidLink(gateway, res);
  await report(gateway, checkout, {
    transactionResult: 'KO',
    bankTransactionID: '',
    errorCode: ABANDONED_BY_BUYER.code,
    errorDescription: ABANDONED_BY_BUYER.description,
  });
  res.redirect(303, checkout.urls.cancel);
}

/**
 * The sandbox gateway's hosted page: GET shows the card form, POST "charges" a test card, notifies
 * the cloud server-to-server and sends the visitor back with `a` and `b`, as a hosted-page gateway
 * does. Mount it where `pageBaseUrl` points (e.g. `/sandbox-pay`).
 */
export function createSandboxPaymentRouter(options: SandboxPaymentRouterOptions): Router {
  const gateway: SandboxGateway = {
    options,
    tokens: new SandboxTokens(options.secret),
    now: options.now ?? (() => new Date()),
    notificationTimeoutMs: options.notificationTimeoutMs ?? 5_000,
    retryDelaysMs: options.notificationRetryDelaysMs ?? [1_000, 5_000, 30_000],
    defaultLanguage: options.defaultLanguage ?? 'it',
  };
  const form = express.urlencoded({ extended: false, limit: '16kb' });
  const router = express.Router();
  router.get('/pay', (req, res) => showCheckout(gateway, req, res));
  router.post('/pay', form, (req, res) => payWithCard(gateway, req, res));
  router.post('/cancel', form, (req, res) => cancelPayment(gateway, req, res));
  return router;
}
