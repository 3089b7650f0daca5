import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPaymentTestApp, TEST_SANDBOX, type PaymentTestApp } from '../../test/payment-test-app';
import { STORE_DIALECTS } from '../../test/test-store';
import { createMailer, type Mailer } from '../mail/mailer';
import { PAYMENT_NOTIFICATION_PATH } from '../payments/payment-gateway';
import { centsToGatewayAmount } from '../payments/gateway-amount';
import { SandboxTokens } from '../payments/sandbox-tokens';
import { EMAIL_LEASE_MS, GONE_SENDER_GRACE_MS } from './booking-email.service';

// Confirmation e-mails are rows written with the payment's commit (issue 19, item 5): a mail
// server that fails, a process that dies between the commit and the send, or two senders at once
// still give every paid booking exactly one confirmation.

const TODAY_NOON = { startTimeIso: '2026-03-27T11:00:00.000Z', endTimeIso: '2026-03-27T14:00:00.000Z' };
const SHOP = TEST_SANDBOX.provider === 'sandbox' ? TEST_SANDBOX.shopLogin : '';
const SECRET = TEST_SANDBOX.provider === 'sandbox' ? TEST_SANDBOX.secret : '';

describe.each(STORE_DIALECTS)('the e-mail outbox on %s', (dialect) => {
  let test: PaymentTestApp;
  /** Sends that fail before the real outbox mailer is reached, counted down. */
  let failures = 0;

  beforeAll(async () => {
    test = await startPaymentTestApp({
      dialect,
      mailer: (outboxDir): Mailer => {
        const real = createMailer({
          from: 'Deposito <no-reply@deposito.test>',
          transport: { kind: 'outbox', directory: outboxDir },
        });
        return {
          send(mail) {
            if (failures > 0) {
              failures -= 1;
              return Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:25'));
            }
            return real.send(mail);
          },
          close: () => real.close(),
        };
      },
    });
  });
  afterAll(() => test?.close());

  async function paidHold(): Promise<string> {
    const held = await fetch(`${test.url}/api/lockers/inhibit-multi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ locationKey: 'oca', dimensione: 'standard', quantita: 1, ...TODAY_NOON }),
    });
    const id = ((await held.json()) as { transactionId: string }).transactionId;
    const created = await fetch(`${test.url}/api/payments/create-payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        currency: 'EUR',
        transactionId: id,
        email: 'anna@example.com',
        nome: 'Anna',
        cognome: 'Bianchi',
        telefono: '+393331234567',
      }),
    });
    expect(created.status).toBe(200);
    await created.text();
    return id;
  }

  async function notifyPaid(id: string): Promise<number> {
    const total = (await test.store.bookings.get(id))!.totalCents;
    const b = new SandboxTokens(SECRET).sealResult(SHOP, {
      shopTransactionID: id,
      transactionResult: 'OK',
      bankTransactionID: `BANK-${id.slice(-6)}`,
      paymentID: 'SBX-outbox',
      amount: centsToGatewayAmount(total),
      currency: 'EUR',
      errorCode: '0',
      errorDescription: '',
    });
    const response = await fetch(`${test.url}${PAYMENT_NOTIFICATION_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ a: SHOP, b }).toString(),
    });
    await response.text();
    return response.status;
  }

  /** A paid hold confirmed as the payment path commits it, its confirmation e-mail queued, not sent. */
  async function confirmedWithEmail(pin: string): Promise<string> {
    const id = await paidHold();
    await test.store.bookings.transition(id, {
      from: ['paying'],
      to: 'confirmed',
      actor: 'provider',
      reason: 'paid',
      now: test.clock.now(),
      pin,
      email: 'confirmation',
    });
    return id;
  }

  it('keeps the confirmation when the mail server fails, and sends it once when it is back', async () => {
    const id = await paidHold();
    failures = 2;
    expect(await notifyPaid(id)).toBe(200);
    expect((await test.store.bookings.get(id))?.status).toBe('confirmed');
    expect(await test.mails(id)).toHaveLength(0);

    // Too early for the retry: nothing is due.
    expect(await test.payments.emails.deliver()).toBe(0);
    test.clock.advanceMinutes(1);
    expect(await test.payments.emails.deliver()).toBe(0); // the second failure
    test.clock.advanceMinutes(2);
    expect(await test.payments.emails.deliver()).toBe(1);
    expect((await test.mails(id)).map((mail) => mail.kind)).toEqual(['confirmation']);

    // Replays of the notification and later passes send nothing more.
    expect(await notifyPaid(id)).toBe(200);
    test.clock.advanceMinutes(10);
    expect(await test.payments.emails.deliver()).toBe(0);
    expect(await test.mails(id)).toHaveLength(1);
  });

  it('sends the confirmation of a payment committed by a process that died before sending it', async () => {
    const id = await paidHold();
    // What the payment path commits, in one transaction: the status and the e-mail to send.
    const confirmed = await test.store.bookings.transition(id, {
      from: ['paying'],
      to: 'confirmed',
      actor: 'provider',
      reason: 'paid',
      now: test.clock.now(),
      paidAt: test.clock.now(),
      pin: '482915',
      email: 'confirmation',
    });
    expect(confirmed?.status).toBe('confirmed');
    expect(await test.mails(id)).toHaveLength(0);

    // The next process's worker finds it at start.
    const worker = test.payments.emails.worker(50);
    worker.start();
    try {
      await expect.poll(async () => (await test.mails(id)).length).toBe(1);
    } finally {
      await worker.stop();
    }
    expect((await test.mails(id))[0]!.text).toContain('482915');
  });

  it('sends within seconds what a sender that died had claimed, and never what a running one holds', async () => {
    const claimFor = (by: string, id: string) => {
      const now = test.clock.now();
      const until = new Date(now.getTime() + EMAIL_LEASE_MS);
      return test.store.emailOutbox.claimDue(now, { by, until, goneSendersUntil: until }, 10, id);
    };
    const running = {
      processId: 'running-sender',
      host: 'other-host',
      pid: 4242,
      startedAt: test.clock.now(),
    };
    await test.store.bridge.heartbeatProcess(running, test.clock.now());
    // Each claimed by a cloud process in the middle of sending it; one of them is then killed.
    const orphaned = await confirmedWithEmail('604217');
    const held = await confirmedWithEmail('715328');
    expect(await claimFor('dead-sender', orphaned)).toHaveLength(1);
    expect(await claimFor(running.processId, held)).toHaveLength(1);

    // Claimed a moment ago: a process just starting may not be recorded yet, so nothing is taken.
    test.clock.advanceMinutes(GONE_SENDER_GRACE_MS / 2 / 60_000);
    expect(await test.payments.emails.deliver()).toBe(0);
    // Past the grace, the dead sender's e-mail goes out, long before its lease would have ended.
    test.clock.advanceMinutes(GONE_SENDER_GRACE_MS / 60_000);
    await test.store.bridge.heartbeatProcess(running, test.clock.now());
    expect(await test.payments.emails.deliver()).toBe(1);
    expect((await test.mails(orphaned)).map((mail) => mail.kind)).toEqual(['confirmation']);
    expect(await test.mails(held)).toHaveLength(0);
    // The running sender's lease holds to its end, then its e-mail is anybody's.
    test.clock.advanceMinutes(EMAIL_LEASE_MS / 60_000);
    expect(await test.payments.emails.deliver()).toBe(1);
    expect(await test.mails(held)).toHaveLength(1);
    expect(await test.mails(orphaned)).toHaveLength(1);
  });

  it('sends once when two senders reach the same e-mail at the same time', async () => {
    const id = await confirmedWithEmail('193847');
    const sent = await Promise.all([
      test.payments.emails.deliver(id),
      test.payments.emails.deliver(),
      test.payments.emails.deliver(id),
    ]);
    expect(sent.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await test.mails(id)).toHaveLength(1);
    // A crash mid-send re-sends the same message (same Message-ID, same outbox file): still one.
    const mail = (await test.mails(id))[0]!;
    expect(mail.headers['message-id']).toMatch(/^<booking-\d+-confirmation@deposito>$/);
  });
});
