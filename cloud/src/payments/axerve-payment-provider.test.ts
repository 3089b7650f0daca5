import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createAxervePaymentProvider } from './axerve-payment-provider';
import { AXERVE_STUB_PATHS, startAxerveStub, type AxerveStub } from './axerve-stub';
import {
  PaymentProviderError,
  PaymentResultInvalidError,
  type EncryptedPaymentParams,
  type PaymentProvider,
} from './payment-provider';

// The Axerve adapter against the local stub over real HTTP, with a small server playing the cloud's
// notification endpoint.

const SHOP = 'GESPAY12345';
const API_KEY = 'stub-api-key';

let stub: AxerveStub;
let provider: PaymentProvider;
let notifyServer: Server;
let cloudUrl: string;
const notifications: EncryptedPaymentParams[] = [];

beforeAll(async () => {
  stub = await startAxerveStub({ shopLogin: SHOP, apiKey: API_KEY });
  notifyServer = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      notifications.push({ a: form.get('a') ?? '', b: form.get('b') ?? '' });
      res.writeHead(200).end('OK');
    });
  });
  await new Promise<void>((resolve) => notifyServer.listen(0, '127.0.0.1', resolve));
  cloudUrl = `http://127.0.0.1:${(notifyServer.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await stub.close();
  notifyServer.closeAllConnections();
  await new Promise((resolve) => notifyServer.close(resolve));
});

beforeEach(() => {
  notifications.length = 0;
  provider = createAxervePaymentProvider({
    shopLogin: SHOP,
    apiKey: API_KEY,
    baseUrl: `${stub.baseUrl}/`,
    pageUrl: stub.pageUrl,
    timeoutMs: 500,
  });
});

function createPayment(
  overrides: { amountCents?: number; language?: 'it' | 'en' | 'es' | 'jp'; transactionId?: string } = {},
) {
  return provider.createPayment({
    transactionId: overrides.transactionId ?? `BOOKING-${Date.now()}${Math.floor(Math.random() * 1000)}`,
    amountCents: overrides.amountCents ?? 1250,
    currency: 'EUR',
    buyerName: 'Mario Rossi',
    buyerEmail: 'mario@example.com',
    language: overrides.language ?? 'it',
    urls: {
      buyerOK: `${cloudUrl}/booking-complete`,
      buyerKO: `${cloudUrl}/booking-complete`,
      serverNotificationURL: `${cloudUrl}/api/payments/notification`,
      cancel: `${cloudUrl}/booking-complete`,
    },
  });
}

function tokenOf(redirectUrl: string): string {
  return new URL(redirectUrl).searchParams.get('b')!;
}

function paramsOf(returnUrl: string): EncryptedPaymentParams {
  const url = new URL(returnUrl);
  return { a: url.searchParams.get('a')!, b: url.searchParams.get('b')! };
}

describe('Axerve payment provider', () => {
  it('creates the payment with the documented body and sends the visitor to the hosted page', async () => {
    const created = await createPayment({
      amountCents: 1250,
      language: 'es',
      transactionId: 'BOOKING-1700000000001',
    });
    const call = stub.requests.at(-1)!;
    expect(call.path).toBe(AXERVE_STUB_PATHS.create);
    expect(call.authorization).toBe(`apikey ${API_KEY}`);
    expect(call.body).toEqual({
      shopLogin: SHOP,
      amount: '12.50',
      currency: 'EUR',
      shopTransactionID: 'BOOKING-1700000000001',
      buyerName: 'Mario Rossi',
      buyerEmail: 'mario@example.com',
      languageId: '3',
      responseURLs: {
        buyerOK: `${cloudUrl}/booking-complete`,
        buyerKO: `${cloudUrl}/booking-complete`,
        serverNotificationURL: `${cloudUrl}/api/payments/notification`,
      },
    });
    const payment = stub.payments.get(tokenOf(created.redirectUrl))!;
    expect(created.redirectUrl).toBe(
      `${stub.pageUrl}?a=${SHOP}&b=${encodeURIComponent(payment.paymentToken)}`,
    );
    expect(created.providerRef).toBe(payment.paymentID);
    expect(created.html).toContain('window.top');
  });

  it('asks for English on the hosted page for Japanese visitors (Axerve has no Japanese)', async () => {
    await createPayment({ language: 'jp' });
    expect(stub.requests.at(-1)!.body).toMatchObject({ languageId: '2' });
  });

  it('reads an accepted payment from the notification and from the visitor return alike', async () => {
    const created = await createPayment({ amountCents: 990, transactionId: 'BOOKING-1700000000002' });
    const { returnUrl, notificationStatus } = await stub.completePayment(tokenOf(created.redirectUrl), {
      result: 'OK',
    });
    expect(notificationStatus).toBe(200);
    expect(notifications).toHaveLength(1);
    expect(paramsOf(returnUrl)).toEqual(notifications[0]);

    const outcome = await provider.readResult(notifications[0]!);
    expect(outcome).toEqual({
      transactionId: 'BOOKING-1700000000002',
      result: 'OK',
      providerTransactionId: expect.stringMatching(/^\d+$/),
      amountCents: 990,
      cancelledByBuyer: false,
    });
    const detailCall = stub.requests.at(-1)!;
    expect(detailCall.path).toBe(AXERVE_STUB_PATHS.detail);
    expect(detailCall.authorization).toBe(`apikey ${API_KEY}`);
    expect(detailCall.body).toEqual({ shopLogin: SHOP, paymentToken: notifications[0]!.b });
  });

  it('reads declined, cancelled and pending payments', async () => {
    const declined = await createPayment();
    await stub.completePayment(tokenOf(declined.redirectUrl), { result: 'KO' });
    expect(await provider.readResult(notifications.at(-1)!)).toMatchObject({
      result: 'KO',
      providerTransactionId: null,
      cancelledByBuyer: false,
      errorDescription: 'Authorization denied',
    });

    const cancelled = await createPayment();
    await stub.completePayment(tokenOf(cancelled.redirectUrl), {
      result: 'KO',
      errorCode: '1143',
      errorDescription: 'Transaction abandoned by buyer',
    });
    expect(await provider.readResult(notifications.at(-1)!)).toMatchObject({
      result: 'KO',
      cancelledByBuyer: true,
    });

    const pending = await createPayment();
    await stub.completePayment(tokenOf(pending.redirectUrl), { result: 'XX' });
    expect(await provider.readResult(notifications.at(-1)!)).toMatchObject({ result: 'XX' });
    // The same token later settles: the gateway notifies again and the result is now OK.
    await stub.completePayment(tokenOf(pending.redirectUrl), { result: 'OK' });
    expect(await provider.readResult(notifications.at(-1)!)).toMatchObject({
      result: 'OK',
      amountCents: 1250,
    });
  });

  it('accepts the newer APPROVED/DECLINED spelling and an amount given only in the events', async () => {
    stub.answerNext(AXERVE_STUB_PATHS.detail, {
      body: {
        error: { code: '0', description: 'request correctly processed' },
        payload: {
          transactionResult: 'APPROVED',
          shopTransactionID: 'BOOKING-1700000000003',
          bankTransactionID: 777,
          currency: 'EUR',
          events: [{ eventtype: 'AUT', eventamount: '4.50' }],
        },
      },
    });
    expect(await provider.readResult({ a: SHOP, b: 'any-token' })).toEqual({
      transactionId: 'BOOKING-1700000000003',
      result: 'OK',
      providerTransactionId: '777',
      amountCents: 450,
      cancelledByBuyer: false,
    });
  });

  it('plays the hosted page: paying redirects the visitor back with a and b after notifying', async () => {
    const created = await createPayment();
    const page = await request(created.redirectUrl);
    expect(page.statusCode).toBe(200);
    await page.body.dump();
    const paid = await request(`${stub.baseUrl}${AXERVE_STUB_PATHS.pagePay}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ b: tokenOf(created.redirectUrl), result: 'OK' }).toString(),
    });
    await paid.body.dump();
    expect(paid.statusCode).toBe(303);
    const params = paramsOf(paid.headers.location as string);
    expect(params).toEqual(notifications.at(-1));
    expect((await provider.readResult(params)).result).toBe('OK');
  });

  it('rejects a result for another shop or a token the gateway does not know', async () => {
    const created = await createPayment();
    await stub.completePayment(tokenOf(created.redirectUrl), { result: 'OK' });
    const { b } = notifications.at(-1)!;
    await expect(provider.readResult({ a: 'OTHERSHOP', b })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
    await expect(provider.readResult({ a: SHOP, b: `${b}x` })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
    await expect(provider.readResult({ a: SHOP, b: 'has spaces<>' })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
  });

  describe('bad provider answers become clear errors', () => {
    const cases: {
      name: string;
      path: string;
      answer: Parameters<AxerveStub['answerNext']>[1];
      message: RegExp;
    }[] = [
      {
        name: 'a refusal of the create call',
        path: AXERVE_STUB_PATHS.create,
        answer: { body: { error: { code: '1131', description: 'Shop not recognized' }, payload: null } },
        message: /refused: 1131 Shop not recognized/,
      },
      {
        name: 'an HTML error page',
        path: AXERVE_STUB_PATHS.create,
        answer: { status: 503, body: '<html>Service Unavailable</html>' },
        message: /HTTP 503 with a body that is not JSON/,
      },
      {
        name: 'a success without a payment token',
        path: AXERVE_STUB_PATHS.create,
        answer: { body: { error: { code: '0', description: 'ok' }, payload: { paymentID: '1' } } },
        message: /unexpected answer/,
      },
      {
        name: 'no answer in time',
        path: AXERVE_STUB_PATHS.create,
        answer: { delayMs: 1_500, body: { error: { code: '0' } } },
        message: /no answer/,
      },
    ];
    for (const testCase of cases) {
      it(`create: ${testCase.name}`, async () => {
        stub.answerNext(testCase.path, testCase.answer);
        const attempt = createPayment();
        await expect(attempt).rejects.toBeInstanceOf(PaymentProviderError);
        await expect(attempt).rejects.toThrow(testCase.message);
      });
    }

    it('detail: an unknown result, an unreadable amount, another currency or a system error', async () => {
      const detail = (payload: Record<string, unknown>) => ({
        body: {
          error: { code: '0', description: 'ok' },
          payload: { shopTransactionID: 'BOOKING-1', bankTransactionID: '1', ...payload },
        },
      });
      stub.answerNext(AXERVE_STUB_PATHS.detail, detail({ transactionResult: 'MAYBE' }));
      await expect(provider.readResult({ a: SHOP, b: 't' })).rejects.toThrow(
        /unknown transactionResult "MAYBE"/,
      );
      stub.answerNext(AXERVE_STUB_PATHS.detail, detail({ transactionResult: 'OK', amount: '12,345.6.7' }));
      await expect(provider.readResult({ a: SHOP, b: 't' })).rejects.toThrow(/unreadable amount/);
      stub.answerNext(AXERVE_STUB_PATHS.detail, detail({ transactionResult: 'OK', currency: 'USD' }));
      await expect(provider.readResult({ a: SHOP, b: 't' })).rejects.toThrow(/unexpected currency USD/);
      stub.answerNext(AXERVE_STUB_PATHS.detail, {
        body: { error: { code: '4103', description: 'Technical error' }, payload: null },
      });
      await expect(provider.readResult({ a: SHOP, b: 't' })).rejects.toBeInstanceOf(PaymentProviderError);
      stub.answerNext(AXERVE_STUB_PATHS.detail, { status: 200, body: 'null' });
      await expect(provider.readResult({ a: SHOP, b: 't' })).rejects.toBeInstanceOf(PaymentProviderError);
    });

    it('an unreachable gateway', async () => {
      const offline = createAxervePaymentProvider({
        shopLogin: SHOP,
        apiKey: API_KEY,
        baseUrl: 'http://127.0.0.1:1',
        pageUrl: stub.pageUrl,
        timeoutMs: 500,
      });
      await expect(offline.readResult({ a: SHOP, b: 'token' })).rejects.toBeInstanceOf(PaymentProviderError);
    });

    it('a wrong API key', async () => {
      const wrongKey = createAxervePaymentProvider({
        shopLogin: SHOP,
        apiKey: 'wrong',
        baseUrl: stub.baseUrl,
        pageUrl: stub.pageUrl,
      });
      await expect(wrongKey.readResult({ a: SHOP, b: 'token' })).rejects.toThrow(
        /refused: 9999 Unauthorized/,
      );
    });
  });
});
