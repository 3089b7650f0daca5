import { bookingRoutes, errorBodySchema } from '@deposito/protocol';
import { beforeAll, describe, expect, it } from 'vitest';
import { seedLocation, TEST_NIGHT_PAYER, TODAY_NOON } from '../../../test/builders';
import { startPaymentTestApp } from '../../../test/payment-test-app';
import {
  APOSTROPHE_PAYER,
  notifyPayment,
  payWithCard,
  SANDBOX_SHOP as SHOP,
  sealedSandboxResult,
} from '../../../test/payment-visitor';
import { hiddenField, redirectUrlOf } from '../../../test/sandbox-card';
import { holdOverApi, TEST_NOW, useTestApp } from '../../../test/test-app';
import { STORE_DIALECTS } from '../../../test/test-store';
import { centsToGatewayAmount } from '../../payments/gateway-amount';
import { SandboxTokens, type SandboxResult } from '../../payments/sandbox-tokens';
import { PAYMENT_ERROR_LOG_TYPE } from '../../services/payment.service';

// The payment path against the real cloud and store: holds made over the API, paid on the sandbox
// gateway's page (which notifies the cloud server-to-server), read back by the completion page.
// Clock: Friday 27 March 2026, 09:00 in Rome; holds last 15 minutes.

describe.each(STORE_DIALECTS)('payments on %s', (dialect) => {
  const { test, api } = useTestApp(() => startPaymentTestApp({ dialect }));
  const confirmedEvents: string[] = [];

  beforeAll(async () => {
    await seedLocation(test.store, {
      location: { key: 'tiny', name: 'Tiny', maxOnline: { standard: 1, large: 1 } },
      standard: 1,
      large: 0,
    });
    test.cloud.context.events.on('booking.confirmed', (event) => {
      confirmedEvents.push(event.booking.transactionId);
    });
  });

  const call = <T = unknown>(method: string, path: string, body?: unknown) => api.call<T>(method, path, body);
  const hold = (overrides: Record<string, unknown> = {}) => holdOverApi(api, overrides);

  function createPayment(transactionId: string, overrides: Record<string, unknown> = {}) {
    return api.post('/api/payments/create-payment', {
      ...APOSTROPHE_PAYER,
      amount: 550,
      transactionId,
      ...overrides,
    });
  }

  /** A paid result as the sandbox seals it, for driving notifications directly. */
  function sealedResult(transactionId: string, overrides: Partial<SandboxResult> = {}) {
    return sealedSandboxResult({
      shopTransactionID: transactionId,
      bankTransactionID: `BANK-${transactionId.slice(-6)}`,
      amount: '5.50',
      ...overrides,
    });
  }

  /** The booking's total as the gateway writes amounts: what a correct checkout charges. */
  async function chargedFor(transactionId: string): Promise<string> {
    return centsToGatewayAmount((await test.store.bookings.get(transactionId))!.totalCents);
  }

  const notify = (params: { a: string; b: string }) => notifyPayment(test.url, params);

  const readBack = async (transactionId: string) =>
    bookingRoutes.readBack.response.parse((await call('GET', `/api/bookings/${transactionId}`)).body);

  it('confirms a booking paid on the sandbox page, with a PIN, the gateway reference and an e-mail', async () => {
    const id = await hold();
    const created = await createPayment(id);
    expect(created.status).toBe(200);
    expect(created.headers.get('content-type')).toMatch(/^text\/html/);
    expect(redirectUrlOf(created.text)).toMatch(new RegExp(`^${test.url}/sandbox-pay/pay\\?a=${SHOP}&b=`));

    const { page, back, params } = await payWithCard(created.text);
    expect(page).toContain('Test payment');
    expect(page).toContain('€5.50');
    expect(`${back.origin}${back.pathname}`).toBe(`${test.url}/booking-complete`);

    // The gateway's notification confirmed it before the visitor came back.
    const stored = await test.store.bookings.get(id);
    expect(stored).toMatchObject({ status: 'confirmed', expiresAt: null });
    expect(stored?.pin).toMatch(/^\d{6}$/);
    expect(stored?.providerReference).toMatch(/^\d{15}$/);
    expect(stored?.paidAt?.toISOString()).toBe(TEST_NOW);

    const decrypted = await call('POST', '/api/payments/decrypt', params);
    expect(decrypted).toMatchObject({ status: 200, body: { shopTransactionId: id } });

    const booking = await readBack(id);
    expect(booking).toMatchObject({
      status: 'confirmed',
      pin: stored?.pin,
      nome: 'Giulia',
      email: 'giulia@example.com',
    });
    expect(booking.reservedLockers).toHaveLength(1);

    const mails = await test.mails(id);
    expect(mails.map((mail) => mail.kind)).toEqual(['confirmation']);
    expect(mails[0]).toMatchObject({
      to: 'giulia@example.com',
      subject: expect.stringContaining('Booking confirmed'),
    });
    expect(mails[0]!.text).toContain(`PIN: ${stored?.pin}`);
    expect(mails[0]!.text).toContain(`Locker: ${booking.reservedLockers[0]}`);
    expect(mails[0]!.text).toContain('Total paid: €5.50');
    expect(mails[0]!.text).toContain('Start: Friday, 27 March 2026 at 12:00 CET');
    expect(confirmedEvents.filter((event) => event === id)).toHaveLength(1);
  });

  it('charges the booking total whatever amount the browser sends', async () => {
    for (const amount of [100, 99_999]) {
      const id = await hold();
      const created = await createPayment(id, { amount, price: 0.01 });
      expect(created.status).toBe(200);
      const { page, params } = await payWithCard(created.text);
      expect(page).toContain('€5.50');
      const outcome = await test.payments.gateway().provider.readResult(params);
      expect(outcome).toMatchObject({ transactionId: id, result: 'OK', amountCents: 550 });
      expect(await test.store.bookings.get(id)).toMatchObject({ status: 'confirmed', totalCents: 550 });
    }
  });

  it('confirms once when the notification and the visitor return race, and ignores replays', async () => {
    const id = await hold();
    expect((await createPayment(id)).status).toBe(200);
    const params = sealedResult(id);
    const answers = await Promise.all([
      notify(params),
      call('POST', '/api/payments/decrypt', params),
      notify(params),
      call('POST', '/api/payments/decrypt', params),
      notify(params),
    ]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const confirmed = await test.store.bookings.get(id);
    expect(confirmed).toMatchObject({
      status: 'confirmed',
      providerReference: params.b ? `BANK-${id.slice(-6)}` : '',
    });

    // Replayed later: nothing changes, no second e-mail or PIN.
    expect((await notify(params)).status).toBe(200);
    expect((await call('POST', '/api/payments/decrypt', params)).status).toBe(200);
    expect(await test.store.bookings.get(id)).toMatchObject({ status: 'confirmed', pin: confirmed?.pin });
    expect(await test.mails(id)).toHaveLength(1);
    expect(confirmedEvents.filter((event) => event === id)).toHaveLength(1);

    // A second, different charge for the same booking is left to an operator to refund.
    expect((await notify(sealedResult(id, { bankTransactionID: 'BANK-OTHER' }))).status).toBe(200);
    const log = await test.store.errorLog.recent(5);
    expect(log.find((entry) => entry.message.includes(id))).toMatchObject({
      type: PAYMENT_ERROR_LOG_TYPE,
      message: expect.stringContaining('paid twice'),
    });
    // Replays of that second payment's notification ask for its refund once, not once each.
    for (let replay = 0; replay < 3; replay += 1) {
      expect((await notify(sealedResult(id, { bankTransactionID: 'BANK-OTHER' }))).status).toBe(200);
    }
    const refunds = (await test.store.errorLog.recent(50)).filter(
      (entry) => entry.message.includes(id) && entry.message.includes('paid twice'),
    );
    expect(refunds).toHaveLength(1);
  });

  it('keeps a declined booking held for another try, then confirms it', async () => {
    const id = await hold();
    const created = await createPayment(id);
    const declined = await payWithCard(created.text, '4000 0000 0000 0002');
    expect((await call('POST', '/api/payments/decrypt', declined.params)).body).toEqual({
      shopTransactionId: id,
    });
    const afterDecline = await test.store.bookings.get(id);
    expect(afterDecline?.status).toBe('payment_declined');
    expect(afterDecline?.lockers.every((locker) => locker.active)).toBe(true);
    expect(await test.mails(id)).toHaveLength(0);

    await payWithCard(created.text, '5555 5555 5555 4444');
    expect((await test.store.bookings.get(id))?.status).toBe('confirmed');
  });

  it('cancels the booking and frees its lockers when the visitor cancels on the payment page', async () => {
    const id = await hold();
    const created = await createPayment(id);
    const page = await (await fetch(redirectUrlOf(created.text))).text();
    const response = await fetch(`${test.url}/sandbox-pay/cancel`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ a: hiddenField(page, 'a'), b: hiddenField(page, 'b') }).toString(),
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`${test.url}/booking-complete`);
    const cancelled = await test.store.bookings.get(id);
    expect(cancelled?.status).toBe('cancelled');
    expect(cancelled?.lockers.every((locker) => !locker.active)).toBe(true);
  });

  it('refuses to start paying a hold that has lapsed', async () => {
    const id = await hold();
    test.clock.advanceMinutes(16);
    try {
      const created = await createPayment(id);
      expect(created.status).toBe(409);
      expect(errorBodySchema.parse(created.body).error.code).toBe('BOOKING_EXPIRED');
    } finally {
      test.clock.set(TEST_NOW);
    }
  });

  it('confirms a late payment with its own lockers when they are still free', async () => {
    const id = await hold();
    expect((await createPayment(id)).status).toBe(200);
    const lockersBefore = (await test.store.bookings.get(id))?.lockers.map((locker) => locker.number);
    test.clock.advanceMinutes(20);
    try {
      expect(await test.cloud.expirePendingBookings()).toContain(id);
      expect((await notify(sealedResult(id))).status).toBe(200);
      const late = await test.store.bookings.get(id);
      expect(late).toMatchObject({ status: 'confirmed_late', providerReference: `BANK-${id.slice(-6)}` });
      expect(late?.lockers.filter((locker) => locker.active).map((locker) => locker.number)).toEqual(
        lockersBefore,
      );
      expect((await readBack(id)).pin).toBe(late?.pin);
      expect((await test.mails(id)).map((mail) => mail.kind)).toEqual(['confirmation']);
      expect(confirmedEvents).toContain(id);

      // A hold that lapsed but was not swept yet is settled the same way.
      test.clock.set(TEST_NOW);
      const unswept = await hold();
      expect((await createPayment(unswept)).status).toBe(200);
      test.clock.advanceMinutes(20);
      expect((await notify(sealedResult(unswept))).status).toBe(200);
      expect((await test.store.bookings.get(unswept))?.status).toBe('confirmed_late');
    } finally {
      test.clock.set(TEST_NOW);
    }
  });

  it('gives a late payment back the single-use code its lapsed hold released, or tells an operator it was used meanwhile', async () => {
    const late = await hold({ locationKey: 'vicolo' });
    expect((await createPayment(late, { codiceSconto: 'ONCE20' })).status).toBe(200);
    expect((await test.store.discounts.get('ONCE20'))?.usedBy).toBe(late);
    test.clock.advanceMinutes(20);
    try {
      expect(await test.cloud.expirePendingBookings()).toContain(late);
      // The lapsed hold released the code.
      expect((await test.store.discounts.get('ONCE20'))?.usedBy ?? null).toBeNull();
      expect((await notify(sealedResult(late, { amount: await chargedFor(late) }))).status).toBe(200);
      expect((await test.store.bookings.get(late))?.status).toBe('confirmed_late');
      expect((await test.store.discounts.get('ONCE20'))?.usedBy).toBe(late);

      // Another visitor takes the code while a second paid hold has lapsed.
      test.clock.set(TEST_NOW);
      await test.store.discounts.releaseClaim('ONCE20', late);
      const second = await hold({ locationKey: 'vicolo' });
      expect((await createPayment(second, { codiceSconto: 'ONCE20' })).status).toBe(200);
      test.clock.advanceMinutes(20);
      expect(await test.cloud.expirePendingBookings()).toContain(second);
      const other = await hold({ locationKey: 'vicolo' });
      expect((await createPayment(other, { codiceSconto: 'ONCE20' })).status).toBe(200);
      expect((await notify(sealedResult(second, { amount: await chargedFor(second) }))).status).toBe(200);
      expect((await test.store.bookings.get(second))?.status).toBe('confirmed_late');
      expect((await test.store.discounts.get('ONCE20'))?.usedBy).toBe(other);
      const entry = (await test.store.errorLog.recent(20)).find((e) => e.message.includes(second));
      expect(entry?.message).toContain('ONCE20');
    } finally {
      test.clock.set(TEST_NOW);
    }
  });

  it('ends failed_after_payment and asks an operator to refund when no locker is left', async () => {
    const late = await hold({ locationKey: 'tiny' });
    expect((await createPayment(late)).status).toBe(200);
    test.clock.advanceMinutes(20);
    try {
      // Someone else takes the only locker once the hold has lapsed.
      const other = await hold({ locationKey: 'tiny' });
      expect((await test.store.bookings.get(late))?.status).toBe('expired');

      expect((await notify(sealedResult(late))).status).toBe(200);
      const failed = await test.store.bookings.get(late);
      expect(failed).toMatchObject({
        status: 'failed_after_payment',
        providerReference: `BANK-${late.slice(-6)}`,
      });
      expect(failed?.lockers.every((locker) => !locker.active)).toBe(true);
      expect((await readBack(late)).pin).toBeNull();
      expect((await test.mails(late)).map((mail) => mail.kind)).toEqual(['refund']);
      const entry = (await test.store.errorLog.recent(10)).find((e) => e.message.includes(late));
      expect(entry).toMatchObject({ type: PAYMENT_ERROR_LOG_TYPE, locationKey: 'tiny' });
      expect(entry?.message).toContain('refund');
      expect((await test.store.bookings.get(other))?.lockers.map((locker) => locker.active)).toEqual([true]);

      // Replayed: still one log entry.
      expect((await notify(sealedResult(late))).status).toBe(200);
      const entries = (await test.store.errorLog.recent(50)).filter((e) => e.message.includes(late));
      expect(entries).toHaveLength(1);
    } finally {
      test.clock.set(TEST_NOW);
    }
  });

  it('refuses forged or tampered results and changes nothing', async () => {
    const id = await hold();
    expect((await createPayment(id)).status).toBe(200);
    const { b } = sealedResult(id);
    const tampered = `${b.slice(0, 30)}${b[30] === 'A' ? 'B' : 'A'}${b.slice(31)}`;
    for (const params of [
      { a: SHOP, b: tampered },
      { a: 'OTHER-SHOP', b },
      {
        a: SHOP,
        b: new SandboxTokens('a-different-secret-long-enough-too').sealResult(SHOP, JSON.parse('{}')),
      },
    ]) {
      const decrypted = await call('POST', '/api/payments/decrypt', params);
      expect(decrypted.status).toBe(400);
      expect(errorBodySchema.parse(decrypted.body).error.code).toBe('payment/invalid_parameters');
      expect((await notify(params)).status).toBe(400);
    }
    expect((await call('POST', '/api/payments/decrypt', { a: SHOP })).status).toBe(400);
    expect((await notify({ a: '', b: '' })).status).toBe(400);
    expect((await test.store.bookings.get(id))?.status).toBe('paying');
  });

  it('books and pays a night stay in one call', async () => {
    const created = await call('POST', '/api/night-payments/create-night-payment', {
      locationKey: 'vicolo',
      tipoLocker: 'large',
      quantita: 1,
      ...TODAY_NOON,
      ...TEST_NIGHT_PAYER,
    });
    expect(created.status).toBe(200);
    const { params } = await payWithCard(created.text);
    const { shopTransactionId } = (
      await call<{ shopTransactionId: string }>('POST', '/api/payments/decrypt', params)
    ).body;
    const booking = await test.store.bookings.get(shopTransactionId);
    expect(booking).toMatchObject({
      status: 'confirmed',
      locationKey: 'vicolo',
      size: 'large',
      note: 'lang:es;night',
      lang: 'es',
      customer: { firstName: 'Ana', phonePrefix: '+34', phoneNumber: '612345678' },
    });
    const [mail] = await test.mails(shopTransactionId);
    expect(mail?.subject).toContain('Reserva confirmada');
  });

  it('schedules a later day, then gives it its PIN on the morning of that day', async () => {
    const id = await hold({
      startTimeIso: '2026-04-02T08:00:00.000Z',
      endTimeIso: '2026-04-02T11:00:00.000Z',
    });
    const created = await createPayment(id, { note: 'lang:it' });
    await payWithCard(created.text);
    const scheduled = await test.store.bookings.get(id);
    expect(scheduled?.status).toBe('scheduled');
    expect(await readBack(id)).toMatchObject({ status: 'scheduled', pin: null, reservedLockers: [] });
    const [first] = await test.mails(id);
    expect(first?.kind).toBe('scheduled');
    expect(first?.text).toContain('Il PIN e il locker ti verranno assegnati il giorno della prenotazione');
    expect(first?.text).not.toContain('PIN:');

    // Logged in at the moved clock each time: a session does not last days.
    const run = async () => {
      const token = await test.adminToken();
      const response = await fetch(`${test.url}/api/system/admin/run-morning-scheduler`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      return {
        status: response.status,
        body: (await response.json()) as { success: boolean; message?: string },
      };
    };
    try {
      // The day before, nothing is due yet.
      test.clock.set('2026-04-01T10:00:00.000Z');
      expect((await run()).body).toEqual({
        success: true,
        message: 'Morning Scheduler eseguito: nessuna prenotazione programmata da attivare oggi',
      });
      expect((await test.store.bookings.get(id))?.status).toBe('scheduled');

      // 05:30 in Rome (CEST, after the DST change) on the day.
      test.clock.set('2026-04-02T03:30:00.000Z');
      const answer = await run();
      expect(answer).toMatchObject({ status: 200, body: { success: true } });
      // The operator reads the result in Italian, with the location it happened at.
      expect(answer.body.message).toBe(
        'Morning Scheduler eseguito: 1 prenotazione programmata ha ricevuto il PIN di oggi (oca: 1)',
      );
      const released = await test.store.bookings.get(id);
      expect(released?.status).toBe('confirmed');
      expect(released?.pin).toMatch(/^\d{6}$/);
      expect(await readBack(id)).toMatchObject({ status: 'confirmed', pin: released?.pin });
      const mails = await test.mails(id);
      expect(mails.map((mail) => mail.kind)).toEqual(['scheduled', 'todayPin']);
      expect(mails[1]!.subject).toBe('Il tuo PIN per oggi – Deposito Oca – Piazza del Popolo');
      expect(mails[1]!.text).toContain(`PIN: ${released?.pin}`);

      // Running again hands out nothing twice.
      await run();
      expect(await test.mails(id)).toHaveLength(2);
      expect((await test.store.bookings.get(id))?.pin).toBe(released?.pin);
    } finally {
      test.clock.set(TEST_NOW);
    }
  });

  it('runs each location on its own morning: 05:30 in Rome is 04:30 in London', async () => {
    const day = { startTimeIso: '2026-04-03T09:00:00.000Z', endTimeIso: '2026-04-03T12:00:00.000Z' };
    const rome = await hold(day);
    const london = await hold({ ...day, locationKey: 'campo' });
    for (const id of [rome, london]) await payWithCard((await createPayment(id)).text);
    expect((await test.store.bookings.get(london))?.status).toBe('scheduled');
    const scheduler = test.payments.scheduler;
    try {
      await scheduler.tick(new Date('2026-04-03T03:30:00.000Z'));
      expect((await test.store.bookings.get(rome))?.status).toBe('confirmed');
      expect((await test.store.bookings.get(london))?.status).toBe('scheduled');
      await scheduler.tick(new Date('2026-04-03T04:05:00.000Z'));
      expect((await test.store.bookings.get(london))?.status).toBe('confirmed');
      const [, today] = await test.mails(london);
      expect(today?.text).toContain('Start: Friday, 3 April 2026 at 10:00 BST');
    } finally {
      test.clock.set(TEST_NOW);
    }
  });
});
