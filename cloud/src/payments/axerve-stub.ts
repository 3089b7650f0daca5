import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request as httpRequest } from 'undici';
import { z } from 'zod';
import { escapeHtml } from './html';

// A local stand-in for the Axerve (GestPay) REST API and hosted page, speaking the subset the
// adapter uses: POST /api/v1/payment/create/, POST /api/v1/payment/detail/, the hosted page
// /pagam/pagam.aspx?a=&b=, and the server-to-server notification to serverNotificationURL. Tests
// drive payments with completePayment() and provoke bad answers with answerNext().

export const AXERVE_STUB_PATHS = {
  create: '/api/v1/payment/create/',
  detail: '/api/v1/payment/detail/',
  refund: '/api/v1/payment/refund/',
  page: '/pagam/pagam.aspx',
  pagePay: '/pagam/pay',
} as const;

export interface AxerveStubOptions {
  shopLogin: string;
  apiKey: string;
  /** Port to listen on (0, the default, picks a free one). */
  port?: number;
}

export interface AxerveStubPayment {
  paymentToken: string;
  paymentID: string;
  shopTransactionID: string;
  amount: string;
  currency: string;
  buyerName: string;
  buyerEmail: string;
  languageId: string;
  responseURLs: { buyerOK: string; buyerKO: string; serverNotificationURL: string };
  transactionResult: 'OK' | 'KO' | 'XX';
  bankTransactionID: string;
  transactionErrorCode: string;
  transactionErrorDescription: string;
  /** Refunds made, in cents, with their ids. */
  refunds: Array<{ refundID: string; cents: number }>;
}

export interface AxerveStubRequest {
  method: string;
  path: string;
  authorization: string | undefined;
  body: unknown;
}

/** A one-off answer replacing the stub's normal one, to test how the adapter copes. */
export interface CannedAnswer {
  status?: number;
  /** A string is sent as is (e.g. not JSON); anything else as JSON. */
  body?: unknown;
  /** Wait this long before answering (to provoke timeouts). */
  delayMs?: number;
}

export interface PaymentCompletion {
  result: 'OK' | 'KO' | 'XX';
  errorCode?: string;
  errorDescription?: string;
  /** Send the server-to-server notification (default true). */
  notify?: boolean;
}

export interface AxerveStub {
  baseUrl: string;
  pageUrl: string;
  payments: ReadonlyMap<string, AxerveStubPayment>;
  requests: readonly AxerveStubRequest[];
  answerNext(path: string, answer: CannedAnswer): void;
  /**
   * Plays the visitor on the hosted page: records the outcome, notifies serverNotificationURL
   * (a POST carrying a and b) and returns the URL the visitor is sent back to.
   */
  completePayment(
    paymentToken: string,
    completion: PaymentCompletion,
  ): Promise<{ returnUrl: string; notificationStatus: number | null }>;
  close(): Promise<void>;
}

const createBodySchema = z.object({
  shopLogin: z.string(),
  amount: z.string(),
  currency: z.string(),
  shopTransactionID: z.string().min(1),
  buyerName: z.string().optional(),
  buyerEmail: z.string().optional(),
  languageId: z.string().optional(),
  responseURLs: z.object({ buyerOK: z.url(), buyerKO: z.url(), serverNotificationURL: z.url() }),
});

const detailBodySchema = z.object({
  shopLogin: z.string(),
  paymentToken: z.string().optional(),
  paymentID: z.string().optional(),
  bankTransactionID: z.string().optional(),
  shopTransactionID: z.string().optional(),
});

const refundBodySchema = z.object({
  shopLogin: z.string(),
  bankTransactionID: z.string().min(1),
  shopTransactionID: z.string().optional(),
  amount: z.string(),
  currency: z.string(),
  refundReason: z.string().optional(),
});

const answer = (code: string, description: string, payload: unknown = null) => ({
  error: { code, description },
  payload,
});

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  res.end(text);
}

/** What the stub's handlers share: the payments made, the requests seen, the answers queued. */
interface StubState {
  readonly options: AxerveStubOptions;
  readonly payments: Map<string, AxerveStubPayment>;
  readonly requests: AxerveStubRequest[];
  readonly canned: Map<string, CannedAnswer[]>;
  nextPaymentId: number;
  nextBankId: number;
  /** Known once the server listens. */
  baseUrl: string;
}

function findPayment(
  payments: ReadonlyMap<string, AxerveStubPayment>,
  query: z.infer<typeof detailBodySchema>,
): AxerveStubPayment | undefined {
  return [...payments.values()].find(
    (payment) =>
      (query.paymentToken !== undefined && payment.paymentToken === query.paymentToken) ||
      (query.paymentID !== undefined && payment.paymentID === query.paymentID) ||
      (query.bankTransactionID !== undefined &&
        payment.bankTransactionID !== '' &&
        payment.bankTransactionID === query.bankTransactionID) ||
      (query.shopTransactionID !== undefined && payment.shopTransactionID === query.shopTransactionID),
  );
}

const detailPayload = (payment: AxerveStubPayment) => ({
  transactionType: 'detail',
  transactionResult: payment.transactionResult,
  transactionState: payment.transactionResult === 'OK' ? 'AUT' : '',
  transactionErrorCode: payment.transactionErrorCode,
  transactionErrorDescription: payment.transactionErrorDescription,
  bankTransactionID: payment.bankTransactionID,
  shopTransactionID: payment.shopTransactionID,
  authorizationCode: payment.transactionResult === 'OK' ? '123456' : '',
  paymentID: payment.paymentID,
  currency: payment.currency,
  amount: payment.amount,
  buyer: { name: payment.buyerName, email: payment.buyerEmail },
  events: payment.transactionResult === 'OK' ? [{ eventtype: 'AUT', eventamount: payment.amount }] : [],
});

const COMPULSORY_PARAMETER_NOT_SET = answer('1108', 'Compulsory parameter not set');
const SHOP_NOT_RECOGNIZED = answer('1131', 'Shop not recognized');
const TRANSACTION_NOT_FOUND = answer('2011', 'Transaction not found');

/** POST /api/v1/payment/create/: a payment waiting on the hosted page. */
function createPayment(state: StubState, body: unknown, res: ServerResponse): void {
  const parsed = createBodySchema.safeParse(body);
  if (!parsed.success) return send(res, 400, COMPULSORY_PARAMETER_NOT_SET);
  const input = parsed.data;
  if (input.shopLogin !== state.options.shopLogin) return send(res, 200, SHOP_NOT_RECOGNIZED);
  if (!/^\d+\.\d{2}$/.test(input.amount)) return send(res, 200, answer('1113', 'Not numeric amount'));
  if (input.currency !== 'EUR') return send(res, 200, answer('1111', 'Invalid currency code'));
  const payment: AxerveStubPayment = {
    paymentToken: randomBytes(18).toString('base64url'),
    paymentID: String((state.nextPaymentId += 1)),
    shopTransactionID: input.shopTransactionID,
    amount: input.amount,
    currency: input.currency,
    buyerName: input.buyerName ?? '',
    buyerEmail: input.buyerEmail ?? '',
    languageId: input.languageId ?? '1',
    responseURLs: input.responseURLs,
    transactionResult: 'XX',
    bankTransactionID: '',
    transactionErrorCode: '',
    transactionErrorDescription: '',
    refunds: [],
  };
  state.payments.set(payment.paymentToken, payment);
  send(
    res,
    200,
    answer('0', 'request correctly processed', {
      paymentToken: payment.paymentToken,
      paymentID: payment.paymentID,
      userRedirect: {
        href: `${state.baseUrl}${AXERVE_STUB_PATHS.page}?a=${state.options.shopLogin}&b=${payment.paymentToken}`,
      },
    }),
  );
}

/** POST /api/v1/payment/detail/: a payment found by any of its ids. */
function paymentDetail(state: StubState, body: unknown, res: ServerResponse): void {
  const parsed = detailBodySchema.safeParse(body);
  if (!parsed.success) return send(res, 400, COMPULSORY_PARAMETER_NOT_SET);
  if (parsed.data.shopLogin !== state.options.shopLogin) return send(res, 200, SHOP_NOT_RECOGNIZED);
  const payment = findPayment(state.payments, parsed.data);
  if (!payment) return send(res, 200, TRANSACTION_NOT_FOUND);
  send(res, 200, answer('0', 'request correctly processed', detailPayload(payment)));
}

/** POST /api/v1/payment/refund/: part or all of a paid amount, never more than is left. */
function refundPayment(state: StubState, body: unknown, res: ServerResponse): void {
  const parsed = refundBodySchema.safeParse(body);
  if (!parsed.success) return send(res, 400, COMPULSORY_PARAMETER_NOT_SET);
  if (parsed.data.shopLogin !== state.options.shopLogin) return send(res, 200, SHOP_NOT_RECOGNIZED);
  const payment = findPayment(state.payments, {
    shopLogin: parsed.data.shopLogin,
    bankTransactionID: parsed.data.bankTransactionID,
  });
  if (!payment || payment.transactionResult !== 'OK') return send(res, 200, TRANSACTION_NOT_FOUND);
  const cents = Math.round(Number(parsed.data.amount) * 100);
  const paid = Math.round(Number(payment.amount) * 100);
  const refunded = payment.refunds.reduce((sum, refund) => sum + refund.cents, 0);
  if (!/^\d+\.\d{2}$/.test(parsed.data.amount) || cents <= 0 || cents + refunded > paid) {
    return send(res, 200, answer('1121', 'Amount to refund exceeds the amount paid'));
  }
  const refundID = String((state.nextBankId += 1));
  payment.refunds.push({ refundID, cents });
  send(
    res,
    200,
    answer('0', 'request correctly processed', {
      transactionType: 'refund',
      transactionResult: 'OK',
      bankTransactionID: payment.bankTransactionID,
      refundID,
    }),
  );
}

const API_HANDLERS = new Map<string, (state: StubState, body: unknown, res: ServerResponse) => void>([
  [AXERVE_STUB_PATHS.create, createPayment],
  [AXERVE_STUB_PATHS.detail, paymentDetail],
  [AXERVE_STUB_PATHS.refund, refundPayment],
]);

/** A request body as JSON when it is JSON, else as the text sent (recorded either way). */
async function readJsonOrText(req: IncomingMessage): Promise<unknown> {
  const raw = await readBody(req);
  try {
    return raw ? JSON.parse(raw) : null;
  } catch {
    return raw;
  }
}

/** The REST API: every call recorded, a queued answer first, then the API key, then the endpoint. */
async function handleApi(
  state: StubState,
  path: string,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const body = await readJsonOrText(req);
  state.requests.push({ method: req.method ?? '', path, authorization: req.headers.authorization, body });

  const cannedAnswer = state.canned.get(path)?.shift();
  if (cannedAnswer) {
    if (cannedAnswer.delayMs) await new Promise((resolve) => setTimeout(resolve, cannedAnswer.delayMs));
    return send(res, cannedAnswer.status ?? 200, cannedAnswer.body ?? '');
  }
  if (req.headers.authorization !== `apikey ${state.options.apiKey}`) {
    return send(res, 401, answer('9999', 'Unauthorized: wrong api key'));
  }
  const handler = API_HANDLERS.get(path);
  if (handler) return handler(state, body, res);
  send(res, 404, answer('404', 'Not found'));
}

async function completePayment(state: StubState, paymentToken: string, completion: PaymentCompletion) {
  const payment = state.payments.get(paymentToken);
  if (!payment) throw new Error(`The Axerve stub knows no payment ${paymentToken}`);
  payment.transactionResult = completion.result;
  if (completion.result === 'OK' && payment.bankTransactionID === '') {
    payment.bankTransactionID = String((state.nextBankId += 1));
  }
  payment.transactionErrorCode = completion.result === 'KO' ? (completion.errorCode ?? '74') : '0';
  payment.transactionErrorDescription =
    completion.result === 'KO' ? (completion.errorDescription ?? 'Authorization denied') : '';

  const params = new URLSearchParams({ a: state.options.shopLogin, b: payment.paymentToken });
  let notificationStatus: number | null = null;
  if (completion.notify ?? true) {
    const response = await httpRequest(payment.responseURLs.serverNotificationURL, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: params.toString(),
    });
    await response.body.dump();
    notificationStatus = response.statusCode;
  }
  const back = new URL(
    completion.result === 'OK' ? payment.responseURLs.buyerOK : payment.responseURLs.buyerKO,
  );
  for (const [key, value] of params) back.searchParams.set(key, value);
  return { returnUrl: back.toString(), notificationStatus };
}

function hostedPage(state: StubState, url: URL, res: ServerResponse): void {
  const b = url.searchParams.get('b') ?? '';
  const payment = state.payments.get(b);
  if (url.searchParams.get('a') !== state.options.shopLogin || !payment) {
    return send(res, 404, '<!doctype html><title>Axerve stub</title><p>Unknown payment</p>', 'text/html');
  }
  const button = (result: string, label: string) =>
    `<form method="post" action="${AXERVE_STUB_PATHS.pagePay}"><input type="hidden" name="b" value="${escapeHtml(b)}"><input type="hidden" name="result" value="${result}"><button>${label}</button></form>`;
  send(
    res,
    200,
    `<!doctype html><html><head><meta charset="utf-8"><title>Axerve stub</title></head><body>
<h1>Axerve stub payment page</h1><p>${escapeHtml(payment.shopTransactionID)}: ${escapeHtml(payment.amount)} ${escapeHtml(payment.currency)}</p>
${button('OK', 'Pay')}${button('KO', 'Decline')}${button('CANCEL', 'Cancel')}</body></html>`,
    'text/html',
  );
}

async function hostedPagePay(state: StubState, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const form = new URLSearchParams(await readBody(req));
  const b = form.get('b') ?? '';
  if (!state.payments.has(b)) return send(res, 404, 'Unknown payment', 'text/plain');
  const choice = form.get('result');
  const completion: PaymentCompletion =
    choice === 'OK'
      ? { result: 'OK' }
      : choice === 'CANCEL'
        ? { result: 'KO', errorCode: '1143', errorDescription: 'Transaction abandoned by buyer' }
        : { result: 'KO' };
  const { returnUrl } = await completePayment(state, b, completion);
  res.writeHead(303, { location: returnUrl });
  res.end();
}

function handleRequest(state: StubState, req: IncomingMessage, res: ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://stub');
  const route = async () => {
    if (req.method === 'POST' && url.pathname.startsWith('/api/'))
      return handleApi(state, url.pathname, req, res);
    if (req.method === 'GET' && url.pathname === AXERVE_STUB_PATHS.page) return hostedPage(state, url, res);
    if (req.method === 'POST' && url.pathname === AXERVE_STUB_PATHS.pagePay)
      return hostedPagePay(state, req, res);
    send(res, 404, answer('404', 'Not found'));
  };
  route().catch((error: unknown) => {
    if (!res.headersSent) send(res, 500, answer('500', (error as Error).message));
    else res.destroy();
  });
}

export async function startAxerveStub(options: AxerveStubOptions): Promise<AxerveStub> {
  const state: StubState = {
    options,
    payments: new Map(),
    requests: [],
    canned: new Map(),
    nextPaymentId: 1000,
    nextBankId: 5000,
    baseUrl: '',
  };
  const server = createServer((req, res) => handleRequest(state, req, res));
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl: state.baseUrl,
    pageUrl: `${state.baseUrl}${AXERVE_STUB_PATHS.page}`,
    payments: state.payments,
    requests: state.requests,
    answerNext(path, cannedAnswer) {
      state.canned.set(path, [...(state.canned.get(path) ?? []), cannedAnswer]);
    },
    completePayment: (paymentToken, completion) => completePayment(state, paymentToken, completion),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
