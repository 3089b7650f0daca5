import { afterEach, describe, expect, it } from 'vitest';
import { startPaymentTestApp, type PaymentTestApp } from '../../../test/payment-test-app';
import { sealedSandboxResult } from '../../../test/payment-visitor';
import { TEST_PAYER } from '../../../test/builders';
import { apiClient, holdOverApi } from '../../../test/test-app';

// The visitor's return link (`/booking-complete?a=…&b=…`) names the booking, whose id opens its PIN.
// A link left in a browser's history or on a shared screen must stop doing so: the cloud answers an
// expired one 410 `payment/result_expired`, names no booking and changes nothing.

/** A declined card's result, as the sandbox seals it, readable until `expiresAt`. */
const declinedResult = (transactionId: string, expiresAt: Date) =>
  sealedSandboxResult(
    {
      shopTransactionID: transactionId,
      transactionResult: 'KO',
      bankTransactionID: '000000000000042',
      paymentID: 'SBX-return-link',
      amount: '5.50',
      errorCode: '74',
      errorDescription: 'Authorization denied',
    },
    expiresAt,
  );

describe.each(['sqlite', 'postgres'] as const)('the payment return link on %s', (dialect) => {
  let app: PaymentTestApp | undefined;
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('is refused 410 once expired, naming no booking and changing nothing; a live one still reads', async () => {
    app = await startPaymentTestApp({ dialect });
    const api = apiClient(app.url);
    const transactionId = await holdOverApi(api);
    const opened = await api.post('/api/payments/create-payment', { ...TEST_PAYER, transactionId });
    expect(opened.status).toBe(200);

    const expired = await api.post(
      '/api/payments/decrypt',
      declinedResult(transactionId, new Date(Date.now() - 1)),
    );
    expect(expired.status).toBe(410);
    expect(expired.body).toMatchObject({ error: { code: 'payment/result_expired' } });
    expect(JSON.stringify(expired.body)).not.toContain(transactionId);
    expect((await app.store.bookings.get(transactionId))?.status).toBe('paying');

    const live = await api.post(
      '/api/payments/decrypt',
      declinedResult(transactionId, new Date(Date.now() + 60_000)),
    );
    expect(live).toMatchObject({ status: 200, body: { shopTransactionId: transactionId } });
    expect((await app.store.bookings.get(transactionId))?.status).toBe('payment_declined');
  });

  it('answers a declined result for a hold whose payment never opened, and leaves the hold as it is', async () => {
    app = await startPaymentTestApp({ dialect });
    const api = apiClient(app.url);
    const transactionId = await holdOverApi(api);
    const answer = await api.post(
      '/api/payments/decrypt',
      declinedResult(transactionId, new Date(Date.now() + 60_000)),
    );
    expect(answer).toMatchObject({ status: 200, body: { shopTransactionId: transactionId } });
    expect((await app.store.bookings.get(transactionId))?.status).toBe('pending');
  });
});
