import { bookingRoutes, errorBodySchema, MIN_AMOUNT_CENTS } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { startAxervePaymentTestApp, startPaymentTestApp } from '../../../test/payment-test-app';
import {
  APOSTROPHE_PAYER as payer,
  notifyPayment,
  payWithCard,
  sealedSandboxResult,
} from '../../../test/payment-visitor';
import { paymentTokenOf } from '../../../test/sandbox-card';
import { holdOverApi, useTestApp } from '../../../test/test-app';
import { STORE_DIALECTS } from '../../../test/test-store';
import { AXERVE_STUB_PATHS } from '../../payments/axerve-stub';
import { centsToGatewayAmount } from '../../payments/gateway-amount';
import { PAYMENT_ERROR_LOG_TYPE } from '../../services/payment.service';
import { TODAY_NOON } from '../../../test/builders';

// What is paid is what is booked (issue 13, items 1–3), through HTTP against the real cloud:
// a hold is frozen once its payment page exists, a booking is confirmed only for exactly its
// total, a declined card leaves a held booking that says so and can be paid again, and the total
// every answer shows is the amount charged. Clock: Friday 27 March 2026, 09:00 in Rome.

const FIFTEEN_DAYS = { startTimeIso: '2026-03-27T11:00:00.000Z', endTimeIso: '2026-04-11T10:00:00.000Z' };

describe.each(STORE_DIALECTS)('what is paid is what is booked, on %s', (dialect) => {
  const { test, api } = useTestApp(() => startPaymentTestApp({ dialect }));

  const hold = (overrides: Record<string, unknown> = {}) => holdOverApi(api, overrides);

  /** The sandbox's notification of a paid result for these fields; the cloud's answer status. */
  const notify = async (fields: Record<string, string>) =>
    (
      await notifyPayment(
        test.url,
        sealedSandboxResult({ shopTransactionID: '', bankTransactionID: '', amount: '', ...fields }),
      )
    ).status;

  const readBack = async (transactionId: string) =>
    bookingRoutes.readBack.response.parse((await api.get(`/api/bookings/${transactionId}`)).body);

  it('freezes a hold once its payment page exists: a larger booking cannot ride on the old checkout', async () => {
    const id = await hold();
    const created = await api.post('/api/payments/create-payment', { ...payer, transactionId: id });
    expect(created.status).toBe(200);
    expect((await test.store.bookings.get(id))?.status).toBe('paying');

    // The attack: the same transaction, now two large lockers for fifteen days.
    const grown = await api.post('/api/lockers/inhibit-multi', {
      locationKey: 'oca',
      dimensione: 'large',
      quantita: 2,
      transactionId: id,
      ...FIFTEEN_DAYS,
    });
    expect(grown.status).toBe(409);
    expect(errorBodySchema.parse(grown.body).error.code).toBe('booking/payment_started');
    // The same request again (a double click on Pay) is no error and changes nothing.
    const same = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'oca',
      dimensione: 'standard',
      quantita: 1,
      transactionId: id,
      ...TODAY_NOON,
    });
    expect(same).toMatchObject({ status: 200, body: { transactionId: id } });
    // Nor through the other doors to a hold: the save call and a new discount code.
    const saved = await api.post('/api/bookings/save', {
      transactionId: id,
      location: 'oca',
      startTimeIso: FIFTEEN_DAYS.startTimeIso,
      endTimeIso: FIFTEEN_DAYS.endTimeIso,
      locker: { lockerId: null, size: 'large', duration: { value: 15, unit: 'g' } },
      quantita: 2,
      note: 'lang:en',
    });
    expect(saved.status).toBe(409);
    const recoded = await api.post('/api/payments/create-payment', {
      ...payer,
      transactionId: id,
      codiceSconto: 'WELCOME10',
    });
    expect(recoded.status).toBe(409);
    expect(errorBodySchema.parse(recoded.body).error.code).toBe('booking/payment_started');

    await payWithCard(created.text);
    const paid = await test.store.bookings.get(id);
    expect(paid).toMatchObject({ status: 'confirmed', size: 'standard', quantity: 1, totalCents: 550 });
    expect(paid?.lockers.filter((locker) => locker.active)).toHaveLength(1);
    // Holding again under the paid booking's id makes a new booking; the paid one is untouched.
    const again = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
      locationKey: 'oca',
      dimensione: 'large',
      quantita: 2,
      transactionId: id,
      ...TODAY_NOON,
    });
    expect(again.status).toBe(200);
    expect(again.body.transactionId).not.toBe(id);
    expect(await test.store.bookings.get(id)).toMatchObject({ status: 'confirmed', totalCents: 550 });
  });

  it('confirms nothing for an amount other than the total: no PIN, lockers back on sale, operators told', async () => {
    const id = await hold({ dimensione: 'large' });
    expect((await api.post('/api/payments/create-payment', { ...payer, transactionId: id })).status).toBe(
      200,
    );
    const booking = (await test.store.bookings.get(id))!;
    expect(booking.totalCents).toBeGreaterThan(100);
    expect(await notify({ shopTransactionID: id, bankTransactionID: 'BANK-SHORT', amount: '1.00' })).toBe(
      200,
    );

    const stored = await test.store.bookings.get(id);
    expect(stored?.status).toBe('failed_after_payment');
    expect(stored?.lockers.every((locker) => !locker.active)).toBe(true);
    expect((await readBack(id)).pin).toBeNull();
    // No confirmation: the visitor is told the money will come back.
    const mails = await test.mails(id);
    expect(mails.map((mail) => mail.kind)).toEqual(['refund']);
    expect(mails[0]!.text).toContain('We will refund');
    // As a word: the booking's random reference in the mail may hold the letters.
    expect(mails[0]!.text).not.toMatch(/\bPIN\b/);
    const entry = (await test.store.errorLog.recent(20)).find((e) => e.message.includes(id));
    expect(entry).toMatchObject({ type: PAYMENT_ERROR_LOG_TYPE, message: expect.stringContaining('refund') });
    expect(entry?.message).toContain('100 cents');
    const events = await test.store.bookings.events(id);
    expect(events.at(-1)).toMatchObject({
      from: 'paying',
      to: 'failed_after_payment',
      actor: 'provider',
      reason: 'amount_mismatch',
    });
    // A replay with the right amount afterwards does not turn it into a confirmed booking.
    expect(
      await notify({
        shopTransactionID: id,
        bankTransactionID: 'BANK-RIGHT',
        amount: centsToGatewayAmount(booking.totalCents),
      }),
    ).toBe(200);
    expect((await test.store.bookings.get(id))?.status).toBe('failed_after_payment');
  });

  it('shows a declined card as declined, keeps the hold, and takes the same total again', async () => {
    const id = await hold();
    const created = await api.post('/api/payments/create-payment', { ...payer, transactionId: id });
    const declined = await payWithCard(created.text, '4000 0000 0000 0002');
    expect((await api.post('/api/payments/decrypt', declined.params)).status).toBe(200);

    const shown = await readBack(id);
    expect(shown).toMatchObject({ status: 'payment_declined', pin: null, total: 5.5 });
    expect(await test.mails(id)).toHaveLength(0);
    expect((await test.store.bookings.get(id))?.lockers.every((locker) => locker.active)).toBe(true);

    const retried = await api.post('/api/payments/retry', { transactionId: id });
    expect(retried.status).toBe(200);
    const { page } = await payWithCard(retried.text);
    expect(page).toContain('€5.50');
    expect(await readBack(id)).toMatchObject({ status: 'confirmed', total: 5.5 });
    expect((await test.mails(id)).map((mail) => mail.kind)).toEqual(['confirmation']);

    // Nothing to retry once paid.
    const late = await api.post('/api/payments/retry', { transactionId: id });
    expect(late.status).toBe(409);
  });

  it('charges, shows and mails one amount when a code takes the price below the minimum charge', async () => {
    const id = await hold({ locationKey: 'areadebug' });
    const created = await api.post('/api/payments/create-payment', {
      ...payer,
      transactionId: id,
      codiceSconto: 'FIVEOFF',
    });
    expect(created.status).toBe(200);
    const stored = (await test.store.bookings.get(id))!;
    expect(stored.totalCents).toBe(MIN_AMOUNT_CENTS);
    expect((await readBack(id)).total).toBe(1);
    const { page } = await payWithCard(created.text);
    expect(page).toContain('€1.00');
    expect(await readBack(id)).toMatchObject({ status: 'confirmed', total: 1 });
    expect((await test.mails(id))[0]!.text).toContain('Total paid: €1.00');
  });
});

describe('what is paid is what is booked, through Axerve', () => {
  const { test, api } = useTestApp(() =>
    startAxervePaymentTestApp({ shopLogin: 'GESPAY65987', apiKey: 'axerve-integrity-key' }),
  );

  it('refuses to confirm when Axerve reports a charge other than the total', async () => {
    const id = await holdOverApi(api);
    const created = await api.post('/api/payments/create-payment', { ...payer, transactionId: id });
    expect(created.status).toBe(200);
    const token = paymentTokenOf(created.text);
    expect(test.stub.requests.some((request) => request.path === AXERVE_STUB_PATHS.create)).toBe(true);
    // The gateway says it charged one euro for this checkout.
    (test.stub.payments.get(token) as { amount: string }).amount = '1.00';
    await test.stub.completePayment(token, { result: 'OK' });

    const stored = await test.store.bookings.get(id);
    expect(stored?.status).toBe('failed_after_payment');
    const entry = (await test.store.errorLog.recent(20)).find((e) => e.message.includes(id));
    expect(entry?.message).toContain('charged 100 cents, the booking costs 550 cents');
  });
});
