import { beforeAll, describe, expect, it } from 'vitest';
import { expectRefundedAfterVisitorCancel } from '../../../test/my-booking-visitor';
import { startAxervePaymentTestApp } from '../../../test/payment-test-app';
import { notifyPayment } from '../../../test/payment-visitor';
import { paymentTokenOf, redirectUrlOf } from '../../../test/sandbox-card';
import { holdOverApi, useTestApp } from '../../../test/test-app';
import { AXERVE_STUB_PATHS, type AxerveStub } from '../../payments/axerve-stub';
import { PAYMENT_NOTIFICATION_PATH } from '../../payments/payment-gateway';

// The same payment path with PAYMENT_PROVIDER=axerve, against the local Axerve stub: the cloud
// creates the payment over its REST API, the stub notifies the cloud and returns the visitor, and
// every result is read back from the stub under the API key.

const SHOP = 'GESPAY65987';
const API_KEY = 'axerve-test-api-key';
/** The payer create-payment carries beside the booking's `transactionId`. */
const YUKI = {
  currency: 'EUR',
  email: 'yuki@example.com',
  nome: 'Yuki',
  cognome: 'Tanaka',
  telefono: '+819012345678',
};

describe('payments through Axerve', () => {
  let stub: AxerveStub;
  const { test, api } = useTestApp(() => startAxervePaymentTestApp({ shopLogin: SHOP, apiKey: API_KEY }));

  beforeAll(async () => {
    stub = test.stub;
  });

  // Large lockers at oca sell three at a time online; later tests use standard ones.
  async function holdAndCreatePayment(amount = 1, size: 'standard' | 'large' = 'large') {
    const id = await holdOverApi(api, { dimensione: size });
    const created = await api.post('/api/payments/create-payment', {
      ...YUKI,
      amount,
      transactionId: id,
      note: 'lang:jp',
    });
    expect(created.status).toBe(200);
    return { id, token: paymentTokenOf(created.text), html: created.text };
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

    const decrypted = await api.post('/api/payments/decrypt', returnParams(returnUrl));
    expect(decrypted).toMatchObject({ status: 200, body: { shopTransactionId: id } });
    const mails = await test.mails(id);
    expect(mails.map((mail) => mail.kind)).toEqual(['confirmation']);
    expect(mails[0]!.subject).toContain('ご予約が確定しました');
  });

  it('settles once when the return and several notifications race', async () => {
    const { id, token } = await holdAndCreatePayment();
    const { returnUrl } = await stub.completePayment(token, { result: 'OK', notify: false });
    const params = returnParams(returnUrl);
    const notification = () => notifyPayment(test.url, params).then((answer) => answer.status);
    const statuses = await Promise.all([
      notification(),
      api.post('/api/payments/decrypt', params).then((answer) => answer.status),
      notification(),
      notification(),
    ]);
    expect(statuses).toEqual([200, 200, 200, 200]);
    expect((await test.store.bookings.get(id))?.status).toBe('confirmed');
    expect(await test.mails(id)).toHaveLength(1);
  });

  it('waits on a pending result, keeps a declined one held, and cancels on a buyer abandon', async () => {
    const pending = await holdAndCreatePayment(1, 'standard');
    await stub.completePayment(pending.token, { result: 'XX' });
    expect((await test.store.bookings.get(pending.id))?.status).toBe('paying');
    await stub.completePayment(pending.token, { result: 'OK' });
    expect((await test.store.bookings.get(pending.id))?.status).toBe('confirmed');

    const declined = await holdAndCreatePayment(1, 'standard');
    await stub.completePayment(declined.token, { result: 'KO' });
    expect((await test.store.bookings.get(declined.id))?.status).toBe('payment_declined');

    const abandoned = await holdAndCreatePayment(1, 'standard');
    await stub.completePayment(abandoned.token, {
      result: 'KO',
      errorCode: '1143',
      errorDescription: 'Transaction abandoned by buyer',
    });
    expect((await test.store.bookings.get(abandoned.id))?.status).toBe('cancelled');
  });

  it('answers provider_error and keeps the hold, frozen at its total, when Axerve fails', async () => {
    const id = await holdOverApi(api);
    stub.answerNext(AXERVE_STUB_PATHS.create, { status: 500, body: '<html>Internal error</html>' });
    const created = await api.post<{ error: { code: string } }>('/api/payments/create-payment', {
      ...YUKI,
      transactionId: id,
    });
    expect(created.status).toBe(502);
    expect(created.body.error.code).toBe('payment/provider_error');
    // The hold is frozen for the page it was about to get: the visitor may try again, same total.
    expect((await test.store.bookings.get(id))?.status).toBe('paying');

    stub.answerNext(AXERVE_STUB_PATHS.detail, {
      status: 200,
      body: { error: { code: '0' }, payload: { odd: 1 } },
    });
    const decrypted = await api.post<{ error: { code: string } }>('/api/payments/decrypt', {
      a: SHOP,
      b: 'whatever',
    });
    expect(decrypted.status).toBe(502);
    expect(decrypted.body.error.code).toBe('payment/provider_error');

    const unknown = await api.post<{ error: { code: string } }>('/api/payments/decrypt', {
      a: SHOP,
      b: 'unknown-token',
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.code).toBe('payment/invalid_parameters');
  });
  /** A paid booking for tomorrow (cancellable online by the default policy) and its private link. */
  async function paidTomorrow(): Promise<{ id: string; link: string }> {
    const id = await holdOverApi(api, {
      startTimeIso: '2026-03-28T10:00:00.000Z',
      endTimeIso: '2026-03-28T13:00:00.000Z',
    });
    const created = await api.post('/api/payments/create-payment', {
      ...YUKI,
      transactionId: id,
      note: 'lang:jp',
    });
    const token = paymentTokenOf(created.text);
    await stub.completePayment(token, { result: 'OK' });
    expect((await test.store.bookings.get(id))!.status).toBe('scheduled');
    const link = await api.post<{ token: string }>(`/api/bookings/${id}/my-booking-link`, {});
    expect(link.status).toBe(201);
    return { id, link: link.body.token };
  }

  it('refunds a visitor cancellation through the Axerve refund call: the booking ends refunded', async () => {
    const { id, link } = await paidTomorrow();
    const booking = (await test.store.bookings.get(id))!;
    const cancelled = await api.post<{ status: string }>(`/api/my-booking/${link}/cancel`, {});
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe('refunded');

    // The gateway was asked for exactly what was paid, for that payment, under our API key.
    const asked = stub.requests.filter((request) => request.path === AXERVE_STUB_PATHS.refund);
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatchObject({
      authorization: `apikey ${API_KEY}`,
      body: {
        shopLogin: SHOP,
        shopTransactionID: id,
        bankTransactionID: booking.providerReference,
        amount: (booking.totalCents / 100).toFixed(2),
        currency: 'EUR',
      },
    });
    const payment = [...stub.payments.values()].find((p) => p.shopTransactionID === id)!;
    expect(payment.refunds).toEqual([{ refundID: expect.any(String), cents: booking.totalCents }]);
    await expectRefundedAfterVisitorCancel(test, id, payment.refunds[0]!.refundID);
    const log = await test.store.errorLog.recent(5);
    expect(log.map((entry) => entry.message)).toContainEqual(
      expect.stringMatching(new RegExp(`Booking ${id}: .* refunded by the gateway`)),
    );
  });

  it('leaves the booking refund_due and tells the operators when Axerve refuses the refund', async () => {
    const { id, link } = await paidTomorrow();
    stub.answerNext(AXERVE_STUB_PATHS.refund, {
      body: {
        error: { code: '1121', description: 'Amount to refund exceeds the amount paid' },
        payload: null,
      },
    });
    const cancelled = await api.post<{ status: string }>(`/api/my-booking/${link}/cancel`, {});
    expect(cancelled.status).toBe(200);
    // Cancelled all the same (lockers freed, PIN withdrawn); the money is owed and the log says so.
    expect(cancelled.body.status).toBe('refund_due');
    expect((await test.store.bookings.get(id))!.status).toBe('refund_due');
    const log = await test.store.errorLog.recent(5);
    expect(log.map((entry) => entry.message)).toContainEqual(
      expect.stringMatching(
        new RegExp(`Booking ${id}: the gateway did not refund .*1121.*refund it by hand`),
      ),
    );
  });
  it('lets an operator retry a refund through the gateway, or record one made by hand', async () => {
    const token = await test.adminToken();
    const refund = (id: string, body: unknown) =>
      fetch(`${test.url}/api/admin/bookings/${id}/refund`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      });
    const refuseNextRefund = () =>
      stub.answerNext(AXERVE_STUB_PATHS.refund, {
        body: { error: { code: '1121', description: 'Refund not possible now' }, payload: null },
      });

    // Refused at cancellation, then made when the operator asks the gateway again.
    const first = await paidTomorrow();
    refuseNextRefund();
    await api.post(`/api/my-booking/${first.link}/cancel`, {});
    expect((await test.store.bookings.get(first.id))!.status).toBe('refund_due');
    // Two operators (or a double click) at once: one refund reaches the gateway, never two.
    const [retried, twin] = await Promise.all([refund(first.id, {}), refund(first.id, {})]);
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({
      success: true,
      status: 'refunded',
      message: 'Rimborso eseguito dal gateway di pagamento',
    });
    expect([200, 409]).toContain(twin.status);
    await twin.text();
    const firstPayment = [...stub.payments.values()].find((p) => p.shopTransactionID === first.id)!;
    expect(firstPayment.refunds).toHaveLength(1);
    // Nothing is owed any more: asking again changes nothing.
    const again = await refund(first.id, {});
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('booking/invalid_state');

    // The gateway refuses again: still owed, said so; the operator refunds by hand and records it.
    const second = await paidTomorrow();
    refuseNextRefund();
    await api.post(`/api/my-booking/${second.link}/cancel`, {});
    refuseNextRefund();
    expect(await (await refund(second.id, {})).json()).toMatchObject({
      success: false,
      status: 'refund_due',
    });
    const byHand = await refund(second.id, { byHand: true });
    expect(await byHand.json()).toMatchObject({ success: true, status: 'refunded' });
    expect((await test.store.bookings.events(second.id)).at(-1)).toMatchObject({
      from: 'refund_due',
      to: 'refunded',
      actor: 'operator',
      reason: 'refund_made',
      detail: expect.stringMatching(/^by hand, recorded by /),
    });
    const payment = [...stub.payments.values()].find((p) => p.shopTransactionID === second.id)!;
    expect(payment.refunds).toEqual([]);
    // The operators read the whole story in the booking's history.
    const history = await fetch(`${test.url}/api/admin/bookings/${second.id}/history`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(history.status).toBe(200);
    expect(
      ((await history.json()) as Array<{ to: string; actor: string; reason: string }>).map(
        (entry) => `${entry.to} by ${entry.actor} (${entry.reason})`,
      ),
    ).toEqual([
      'paying by visitor (payment_opened)',
      'scheduled by provider (paid)',
      'refund_due by visitor (visitor_cancelled)',
      'refunded by operator (refund_made)',
    ]);
    // Without a session: 401, nothing changes.
    const anonymous = await fetch(`${test.url}/api/admin/bookings/${second.id}/refund`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(anonymous.status).toBe(401);
  });
});
