import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { redirectUrlOf, startPaymentTestApp, type PaymentTestApp } from '../../../test/payment-test-app';
import { AXERVE_STUB_PATHS, startAxerveStub, type AxerveStub } from '../../payments/axerve-stub';
import { PAYMENT_NOTIFICATION_PATH } from '../../payments/payment-gateway';

// The same payment path with PAYMENT_PROVIDER=axerve, against the local Axerve stub: the cloud
// creates the payment over its REST API, the stub notifies the cloud and returns the visitor, and
// every result is read back from the stub under the API key.

const TODAY_NOON = { startTimeIso: '2026-03-27T11:00:00.000Z', endTimeIso: '2026-03-27T14:00:00.000Z' };
const SHOP = 'GESPAY65987';
const API_KEY = 'axerve-test-api-key';

describe('payments through Axerve', () => {
  let stub: AxerveStub;
  let test: PaymentTestApp;

  beforeAll(async () => {
    stub = await startAxerveStub({ shopLogin: SHOP, apiKey: API_KEY });
    test = await startPaymentTestApp({
      payment: {
        provider: 'axerve',
        merchantName: 'Deposito Test',
        timeoutMs: 2_000,
        shopLogin: SHOP,
        apiKey: API_KEY,
        baseUrl: stub.baseUrl,
        pageUrl: stub.pageUrl,
      },
    });
  });
  afterAll(async () => {
    await test?.close();
    await stub?.close();
  });

  async function post<T = unknown>(path: string, body: unknown) {
    const response = await fetch(`${test.url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      // The HTML page.
    }
    return { status: response.status, body: parsed as T, text };
  }

  // Large lockers at oca sell three at a time online; later tests use standard ones.
  async function holdAndCreatePayment(amount = 1, size: 'standard' | 'large' = 'large') {
    const held = await post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'oca',
      dimensione: size,
      quantita: 1,
      ...TODAY_NOON,
    });
    const id = held.body.transactionId;
    const created = await post('/api/payments/create-payment', {
      currency: 'EUR',
      amount,
      transactionId: id,
      email: 'yuki@example.com',
      nome: 'Yuki',
      cognome: 'Tanaka',
      telefono: '+819012345678',
      note: 'lang:jp',
    });
    expect(created.status).toBe(200);
    const token = new URL(redirectUrlOf(created.text)).searchParams.get('b')!;
    return { id, token, html: created.text };
  }

  const returnParams = (returnUrl: string) => {
    const url = new URL(returnUrl);
    return { a: url.searchParams.get('a')!, b: url.searchParams.get('b')! };
  };

  it('creates the payment for the server total and confirms the booking from the notification', async () => {
    const { id, token, html } = await holdAndCreatePayment(1);
    expect(redirectUrlOf(html)).toBe(`${stub.pageUrl}?a=${SHOP}&b=${encodeURIComponent(token)}`);
    const create = stub.requests.findLast((request) => request.path === AXERVE_STUB_PATHS.create)!;
    expect(create.body).toMatchObject({
      shopLogin: SHOP,
      amount: '7.50',
      currency: 'EUR',
      shopTransactionID: id,
      buyerName: 'Yuki Tanaka',
      buyerEmail: 'yuki@example.com',
      languageId: '2',
      responseURLs: {
        buyerOK: `${test.url}/booking-complete`,
        buyerKO: `${test.url}/booking-complete`,
        serverNotificationURL: `${test.url}${PAYMENT_NOTIFICATION_PATH}`,
      },
    });

    const { returnUrl, notificationStatus } = await stub.completePayment(token, { result: 'OK' });
    expect(notificationStatus).toBe(200);
    const booking = await test.store.bookings.get(id);
    expect(booking).toMatchObject({
      status: 'confirmed',
      providerReference: stub.payments.get(token)!.bankTransactionID,
    });
    expect(booking?.pin).toMatch(/^\d{6}$/);

    const decrypted = await post('/api/payments/decrypt', returnParams(returnUrl));
    expect(decrypted).toMatchObject({ status: 200, body: { shopTransactionId: id } });
    const mails = await test.mails(id);
    expect(mails.map((mail) => mail.kind)).toEqual(['confirmation']);
    expect(mails[0]!.subject).toContain('ご予約が確定しました');
  });

  it('settles once when the return and several notifications race', async () => {
    const { id, token } = await holdAndCreatePayment();
    const { returnUrl } = await stub.completePayment(token, { result: 'OK', notify: false });
    const params = returnParams(returnUrl);
    const notification = () =>
      fetch(`${test.url}${PAYMENT_NOTIFICATION_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(params).toString(),
      }).then((response) => response.status);
    const statuses = await Promise.all([
      notification(),
      post('/api/payments/decrypt', params).then((answer) => answer.status),
      notification(),
      notification(),
    ]);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect((await test.store.bookings.get(id))?.status).toBe('confirmed');
    expect(await test.mails(id)).toHaveLength(1);
  });

  it('waits on a pending result, keeps a declined one pending, and cancels on a buyer abandon', async () => {
    const pending = await holdAndCreatePayment(1, 'standard');
    await stub.completePayment(pending.token, { result: 'XX' });
    expect((await test.store.bookings.get(pending.id))?.status).toBe('pending');
    await stub.completePayment(pending.token, { result: 'OK' });
    expect((await test.store.bookings.get(pending.id))?.status).toBe('confirmed');

    const declined = await holdAndCreatePayment(1, 'standard');
    await stub.completePayment(declined.token, { result: 'KO' });
    expect((await test.store.bookings.get(declined.id))?.status).toBe('pending');

    const abandoned = await holdAndCreatePayment(1, 'standard');
    await stub.completePayment(abandoned.token, {
      result: 'KO',
      errorCode: '1143',
      errorDescription: 'Transaction abandoned by buyer',
    });
    expect((await test.store.bookings.get(abandoned.id))?.status).toBe('cancelled');
  });

  it('answers provider_error and changes nothing when Axerve fails', async () => {
    const held = await post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'oca',
      dimensione: 'standard',
      quantita: 1,
      ...TODAY_NOON,
    });
    stub.answerNext(AXERVE_STUB_PATHS.create, { status: 500, body: '<html>Internal error</html>' });
    const created = await post<{ error: { code: string } }>('/api/payments/create-payment', {
      currency: 'EUR',
      transactionId: held.body.transactionId,
      email: 'yuki@example.com',
      nome: 'Yuki',
      cognome: 'Tanaka',
      telefono: '+819012345678',
    });
    expect(created.status).toBe(502);
    expect(created.body.error.code).toBe('payment/provider_error');
    expect((await test.store.bookings.get(held.body.transactionId))?.status).toBe('pending');

    stub.answerNext(AXERVE_STUB_PATHS.detail, {
      status: 200,
      body: { error: { code: '0' }, payload: { odd: 1 } },
    });
    const decrypted = await post<{ error: { code: string } }>('/api/payments/decrypt', {
      a: SHOP,
      b: 'whatever',
    });
    expect(decrypted.status).toBe(502);
    expect(decrypted.body.error.code).toBe('payment/provider_error');

    const unknown = await post<{ error: { code: string } }>('/api/payments/decrypt', {
      a: SHOP,
      b: 'unknown-token',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('payment/invalid_parameters');
  });
});
