import { request as httpRequest } from 'undici';
import { z } from 'zod';
import { centsToGatewayAmount, gatewayAmountToCents } from './gateway-amount';
import {
  BUYER_CANCELLED_ERROR_CODES,
  PaymentProviderError,
  PaymentResultInvalidError,
  type CreatePaymentRequest,
  type CreatedPayment,
  type EncryptedPaymentParams,
  type PaymentLanguage,
  type PaymentOutcome,
  type PaymentProvider,
  type PaymentResult,
  type RefundMade,
  type RefundRequest,
} from './payment-provider';
import { renderPaymentRedirectPage } from './redirect-page';

// Axerve Ecommerce Solutions (formerly GestPay, Banca Sella), REST API v1:
// - POST {base}/api/v1/payment/create/ creates the payment and returns a paymentToken; the visitor
//   then pays on the hosted page {page}?a={shopLogin}&b={paymentToken}.
// - The visitor's return and the server-to-server notification both carry `a` (shop login) and `b`
//   (the payment's token). Neither is trusted: the outcome is read with
//   POST {base}/api/v1/payment/detail/ under our API key, which a forged `b` cannot pass.

export interface AxerveOptions {
  shopLogin: string;
  apiKey: string;
  /** REST API base, e.g. https://sandbox.gestpay.net (no trailing slash needed). */
  baseUrl: string;
  /** Hosted payment page, e.g. https://sandbox.gestpay.net/pagam/pagam.aspx. */
  pageUrl: string;
  timeoutMs?: number;
}

/** Axerve languageId: 1 Italian, 2 English, 3 Spanish; it has no Japanese, English serves best. */
export const AXERVE_LANGUAGE_ID: Record<PaymentLanguage, string> = { it: '1', en: '2', es: '3', jp: '2' };

const errorSchema = z.object({ code: z.coerce.string(), description: z.string().nullish() });

const createAnswerSchema = z.object({
  error: errorSchema,
  payload: z
    .object({
      paymentToken: z.string().min(1),
      paymentID: z.coerce.string().min(1),
    })
    .nullish(),
});

const detailAnswerSchema = z.object({
  error: errorSchema,
  payload: z
    .object({
      transactionResult: z.string(),
      shopTransactionID: z.string().min(1),
      bankTransactionID: z.coerce.string().nullish(),
      paymentID: z.coerce.string().nullish(),
      amount: z.coerce.string().nullish(),
      currency: z.string().nullish(),
      transactionErrorCode: z.coerce.string().nullish(),
      transactionErrorDescription: z.string().nullish(),
      events: z
        .array(
          z.object({ eventtype: z.string().nullish(), eventamount: z.coerce.string().nullish() }).loose(),
        )
        .nullish(),
    })
    .loose()
    .nullish(),
});

const refundAnswerSchema = z.object({
  error: errorSchema,
  payload: z
    .object({
      transactionResult: z.string(),
      bankTransactionID: z.coerce.string().nullish(),
      refundID: z.coerce.string().nullish(),
    })
    .loose()
    .nullish(),
});

/** Older answers spell results OK/KO/XX, newer ones APPROVED/DECLINED/PENDING/WAITING/UNSUBMITTED. */
function toPaymentResult(transactionResult: string): PaymentResult | null {
  switch (transactionResult.toUpperCase()) {
    case 'OK':
    case 'APPROVED':
      return 'OK';
    case 'KO':
    case 'DECLINED':
      return 'KO';
    case 'XX':
    case 'PENDING':
    case 'WAITING':
    case 'UNSUBMITTED':
      return 'XX';
    default:
      return null;
  }
}

/** Axerve error codes meaning the token names no payment of ours: 2011 transaction not found, 1165 token not found. */
const UNKNOWN_PAYMENT_CODES: ReadonlySet<string> = new Set(['2011', '1165']);

/** POSTs one call of the REST API under our key and reads its answer with `schema`. */
async function postToAxerve<T extends z.ZodType>(
  options: AxerveOptions,
  path: string,
  body: unknown,
  schema: T,
  what: string,
): Promise<z.infer<T>> {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? 10_000;
  let statusCode: number;
  let text: string;
  try {
    const response = await httpRequest(`${baseUrl}${path}`, {
      method: 'POST',
      headers: {
        authorization: `apikey ${options.apiKey}`,
        'content-type': 'application/json',
        accept: 'application/json',
      },
      body: JSON.stringify(body),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
      signal: AbortSignal.timeout(timeoutMs),
    });
    statusCode = response.statusCode;
    text = await response.body.text();
  } catch (error) {
    throw new PaymentProviderError(`Axerve ${what}: no answer (${(error as Error).message})`, {
      cause: error,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PaymentProviderError(`Axerve ${what}: HTTP ${statusCode} with a body that is not JSON`);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    throw new PaymentProviderError(
      `Axerve ${what}: HTTP ${statusCode} with an unexpected answer (${z.prettifyError(parsed.error)})`,
    );
  }
  return parsed.data;
}

/** "Axerve payment/create refused: 1131 Shop not recognized". */
function refusal(what: string, error: z.infer<typeof errorSchema>): string {
  return `Axerve ${what} refused: ${error.code} ${error.description ?? ''}`.trim();
}

async function createAxervePayment(
  options: AxerveOptions,
  request: CreatePaymentRequest,
): Promise<CreatedPayment> {
  const answer = await postToAxerve(
    options,
    '/api/v1/payment/create/',
    {
      shopLogin: options.shopLogin,
      amount: centsToGatewayAmount(request.amountCents),
      currency: request.currency,
      shopTransactionID: request.transactionId,
      buyerName: request.buyerName,
      buyerEmail: request.buyerEmail,
      languageId: AXERVE_LANGUAGE_ID[request.language],
      responseURLs: {
        buyerOK: request.urls.buyerOK,
        buyerKO: request.urls.buyerKO,
        serverNotificationURL: request.urls.serverNotificationURL,
      },
    },
    createAnswerSchema,
    'payment/create',
  );
  if (answer.error.code !== '0' || !answer.payload) {
    throw new PaymentProviderError(refusal('payment/create', answer.error));
  }
  const url = new URL(options.pageUrl);
  url.searchParams.set('a', options.shopLogin);
  url.searchParams.set('b', answer.payload.paymentToken);
  const redirectUrl = url.toString();
  return {
    redirectUrl,
    html: renderPaymentRedirectPage(redirectUrl, request.language),
    providerRef: answer.payload.paymentID,
  };
}

type DetailPayload = NonNullable<z.infer<typeof detailAnswerSchema>['payload']>;

/** A payment's detail as our outcome: a result we know, in euros, of the amount authorised. */
function outcomeOfDetail(payload: DetailPayload): PaymentOutcome {
  const result = toPaymentResult(payload.transactionResult);
  if (!result) {
    throw new PaymentProviderError(
      `Axerve payment/detail: unknown transactionResult "${payload.transactionResult}"`,
    );
  }
  if (payload.currency && payload.currency !== 'EUR' && payload.currency !== '242') {
    throw new PaymentProviderError(`Axerve payment/detail: unexpected currency ${payload.currency}`);
  }
  const authorised = payload.events?.find((event) => event.eventtype === 'AUT')?.eventamount;
  const amountText = payload.amount ?? authorised;
  const amountCents = amountText ? gatewayAmountToCents(amountText) : null;
  if (amountText && amountCents === null) {
    throw new PaymentProviderError(`Axerve payment/detail: unreadable amount "${amountText}"`);
  }
  const errorDescription = payload.transactionErrorDescription ?? undefined;
  return {
    transactionId: payload.shopTransactionID,
    result,
    providerTransactionId: payload.bankTransactionID || null,
    cancelledByBuyer: result === 'KO' && BUYER_CANCELLED_ERROR_CODES.has(payload.transactionErrorCode ?? ''),
    ...(amountCents === null ? {} : { amountCents }),
    ...(result === 'KO' && errorDescription ? { errorDescription } : {}),
  };
}

async function readAxerveResult(
  options: AxerveOptions,
  { a, b }: EncryptedPaymentParams,
): Promise<PaymentOutcome> {
  if (a !== options.shopLogin) throw new PaymentResultInvalidError('Unknown shop login in payment result');
  if (!/^[\w.~+/=-]{1,2000}$/.test(b)) throw new PaymentResultInvalidError('Malformed payment token');
  const answer = await postToAxerve(
    options,
    '/api/v1/payment/detail/',
    { shopLogin: options.shopLogin, paymentToken: b },
    detailAnswerSchema,
    'payment/detail',
  );
  if (answer.error.code !== '0' || !answer.payload) {
    const message = refusal('payment/detail', answer.error);
    if (UNKNOWN_PAYMENT_CODES.has(answer.error.code)) throw new PaymentResultInvalidError(message);
    throw new PaymentProviderError(message);
  }
  return outcomeOfDetail(answer.payload);
}

async function refundAxervePayment(options: AxerveOptions, request: RefundRequest): Promise<RefundMade> {
  const answer = await postToAxerve(
    options,
    '/api/v1/payment/refund/',
    {
      shopLogin: options.shopLogin,
      bankTransactionID: request.providerTransactionId,
      shopTransactionID: request.transactionId,
      amount: centsToGatewayAmount(request.amountCents),
      currency: request.currency,
      refundReason: 'Booking cancelled',
    },
    refundAnswerSchema,
    'payment/refund',
  );
  if (answer.error.code !== '0' || toPaymentResult(answer.payload?.transactionResult ?? '') !== 'OK') {
    throw new PaymentProviderError(refusal('payment/refund', answer.error));
  }
  const reference = answer.payload?.refundID ?? answer.payload?.bankTransactionID;
  return { refundReference: reference || request.providerTransactionId };
}

export function createAxervePaymentProvider(options: AxerveOptions): PaymentProvider {
  return {
    name: 'axerve',
    createPayment: (request) => createAxervePayment(options, request),
    readResult: (params) => readAxerveResult(options, params),
    refund: (request) => refundAxervePayment(options, request),
  };
}
