import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { request } from 'undici';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  PaymentResultExpiredError,
  PaymentResultInvalidError,
  type EncryptedPaymentParams,
  type PaymentProvider,
} from './payment-provider';
import { createSandboxPaymentProvider } from './sandbox-payment-provider';
import { createSandboxPaymentRouter } from './sandbox-payment-router';

// The sandbox gateway over real HTTP: its router mounted in a tiny express app that also plays the
// cloud's notification endpoint, exactly as the cloud mounts it.

const SECRET = 'test-secret-that-is-long-enough-for-the-sandbox';
const SHOP = 'DEPOSITO-SANDBOX';

interface Harness {
  baseUrl: string;
  provider: PaymentProvider;
  notifications: EncryptedPaymentParams[];
  notificationStatuses: number[];
  clock: { now: Date };
  server: Server;
}

async function startHarness(options: { retryDelaysMs?: number[] } = {}): Promise<Harness> {
  const app = express();
  const notifications: EncryptedPaymentParams[] = [];
  const notificationStatuses: number[] = [];
  app.post('/api/payments/notification', express.urlencoded({ extended: false }), (req, res) => {
    notifications.push({ a: String(req.body.a), b: String(req.body.b) });
    res.sendStatus(notificationStatuses.shift() ?? 200);
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clock = { now: new Date('2025-03-30T08:00:00Z') };
  const gatewayOptions = {
    secret: SECRET,
    shopLogin: SHOP,
    merchantName: 'Deposito Roma',
    pageBaseUrl: `${baseUrl}/sandbox-pay`,
    now: () => clock.now,
  };
  app.use(
    '/sandbox-pay',
    createSandboxPaymentRouter({ ...gatewayOptions, notificationRetryDelaysMs: options.retryDelaysMs ?? [] }),
  );
  return {
    baseUrl,
    provider: createSandboxPaymentProvider(gatewayOptions),
    notifications,
    notificationStatuses,
    clock,
    server,
  };
}

function urlsFor(baseUrl: string) {
  return {
    buyerOK: `${baseUrl}/booking-complete`,
    buyerKO: `${baseUrl}/booking-complete?declined=1`,
    serverNotificationURL: `${baseUrl}/api/payments/notification`,
    cancel: `${baseUrl}/booking-complete`,
  };
}

function hiddenInput(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  if (!match) throw new Error(`No hidden input ${name}`);
  return match[1]!;
}

const VALID_FORM = { cardholder: 'Mario Rossi', expiry: '12/30', cvc: '123' };

describe('sandbox payment gateway', () => {
  let harness: Harness;

  beforeEach(async () => {
    harness = await startHarness();
  });
  afterEach(async () => {
    harness.server.closeAllConnections();
    await new Promise((resolve) => harness.server.close(resolve));
  });

  async function createPayment(amountCents = 1250, language: 'it' | 'en' | 'es' | 'jp' = 'it') {
    return harness.provider.createPayment({
      transactionId: 'BOOKING-1743321600000',
      amountCents,
      currency: 'EUR',
      buyerName: 'Mario Rossi',
      buyerEmail: 'mario@example.com',
      language,
      urls: urlsFor(harness.baseUrl),
    });
  }

  async function openPage(redirectUrl: string) {
    const response = await request(redirectUrl);
    return { status: response.statusCode, headers: response.headers, page: await response.body.text() };
  }

  async function submit(path: 'pay' | 'cancel', fields: Record<string, string>) {
    const response = await request(`${harness.baseUrl}/sandbox-pay/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    return {
      status: response.statusCode,
      location: response.headers.location as string | undefined,
      page: await response.body.text(),
    };
  }

  async function pay(redirectUrl: string, cardNumber: string) {
    const { page } = await openPage(redirectUrl);
    return submit('pay', { a: hiddenInput(page, 'a'), b: hiddenInput(page, 'b'), cardNumber, ...VALID_FORM });
  }

  it('creates a payment whose HTML sends the top window to the hosted page', async () => {
    const created = await createPayment();
    const url = new URL(created.redirectUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${harness.baseUrl}/sandbox-pay/pay`);
    expect(url.searchParams.get('a')).toBe(SHOP);
    expect(url.searchParams.get('b')).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(created.providerRef).toMatch(/^SBX-[0-9a-f]{16}$/);
    const escapedUrl = created.redirectUrl.replace(/&/g, '&amp;');
    expect(created.html).toContain(`<meta http-equiv="refresh" content="0;url=${escapedUrl}"`);
    expect(created.html).toContain(`<a href="${escapedUrl}" target="_top">`);
    expect(created.html).toContain(
      `(window.top || window).location.href = ${JSON.stringify(created.redirectUrl)}`,
    );
  });

  it('shows a test payment page with the merchant, the amount and the test cards', async () => {
    const { status, headers, page } = await openPage((await createPayment(1250, 'it')).redirectUrl);
    expect(status).toBe(200);
    expect(headers['content-type']).toMatch(/^text\/html/);
    expect(headers['cache-control']).toBe('no-store');
    expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page).toContain('<html lang="it">');
    expect(page).toContain('Pagamento di prova');
    expect(page).toContain('nessuna carta viene addebitata');
    expect(page).toContain('Deposito Roma');
    expect(page).toContain('12,50\u00a0€');
    expect(page).toContain('BOOKING-1743321600000');
    expect(page).toContain('4242 4242 4242 4242');
    expect(page).toContain('4000 0000 0000 0002');
    expect(page).toContain('name="viewport"');
    // Entities are not decoded inside <style>: an escaped quote there drops the whole declaration
    // (the page then fell back to a serif font).
    const style = /<style>([\s\S]*?)<\/style>/.exec(page)?.[1] ?? '';
    expect(style).toContain('font-family:system-ui');
    expect(style).not.toMatch(/&(?:quot|#39|#x27|lt|gt|amp);/);

    const english = await openPage((await createPayment(990, 'en')).redirectUrl);
    expect(english.page).toContain('Test payment');
    expect(english.page).toContain('€9.90');
    const japanese = await openPage((await createPayment(990, 'jp')).redirectUrl);
    expect(japanese.page).toContain('<html lang="ja">');
    expect(japanese.page).toContain('テスト決済');
  });

  it('charges a succeeding test card: notifies the cloud, then returns the visitor with a and b', async () => {
    const { status, location } = await pay((await createPayment(1250)).redirectUrl, '4242 4242 4242 4242');
    expect(status).toBe(303);
    const back = new URL(location!);
    expect(`${back.origin}${back.pathname}`).toBe(`${harness.baseUrl}/booking-complete`);
    const params = { a: back.searchParams.get('a')!, b: back.searchParams.get('b')! };
    expect(params.a).toBe(SHOP);

    expect(harness.notifications).toEqual([params]);
    const outcome = await harness.provider.readResult(params);
    expect(outcome).toEqual({
      transactionId: 'BOOKING-1743321600000',
      result: 'OK',
      providerTransactionId: expect.stringMatching(/^\d{15}$/),
      amountCents: 1250,
      cancelledByBuyer: false,
    });
  });

  it('declines the declining test card and says so in b', async () => {
    const { status, location } = await pay((await createPayment()).redirectUrl, '4000000000000002');
    expect(status).toBe(303);
    const back = new URL(location!);
    expect(back.searchParams.get('declined')).toBe('1');
    const outcome = await harness.provider.readResult({
      a: back.searchParams.get('a')!,
      b: back.searchParams.get('b')!,
    });
    expect(outcome).toMatchObject({
      result: 'KO',
      cancelledByBuyer: false,
      errorDescription: 'Authorization denied',
    });
    expect(harness.notifications).toHaveLength(1);
  });

  it('reports the same bank transaction when the same page is paid twice', async () => {
    const { redirectUrl } = await createPayment();
    const first = await pay(redirectUrl, '4242424242424242');
    const second = await pay(redirectUrl, '4242424242424242');
    const refs = await Promise.all(
      [first, second].map(async ({ location }) => {
        const back = new URL(location!);
        const outcome = await harness.provider.readResult({
          a: back.searchParams.get('a')!,
          b: back.searchParams.get('b')!,
        });
        return outcome.providerTransactionId;
      }),
    );
    expect(refs[0]).toBe(refs[1]);
  });

  it('re-renders the form with errors and charges nothing when the card form is wrong', async () => {
    const { page } = await openPage((await createPayment()).redirectUrl);
    const a = hiddenInput(page, 'a');
    const b = hiddenInput(page, 'b');
    const wrong = await submit('pay', {
      a,
      b,
      cardholder: ' ',
      cardNumber: '4242 4242 4242 4241',
      expiry: '13/30',
      cvc: '1',
    });
    expect(wrong.status).toBe(422);
    expect(wrong.page).toContain('Inserisci il nome del titolare.');
    expect(wrong.page).toContain('Il numero della carta non è valido.');
    expect(wrong.page).toContain('Inserisci la scadenza come MM/AA.');
    expect(wrong.page).toContain('Il CVV ha 3 o 4 cifre.');
    expect(wrong.page).toContain('value="4242 4242 4242 4241"');

    const expired = await submit('pay', {
      a,
      b,
      cardNumber: '4242424242424242',
      ...VALID_FORM,
      expiry: '02/25',
    });
    expect(expired.status).toBe(422);
    expect(expired.page).toContain('La carta è scaduta.');

    const realCard = await submit('pay', { a, b, cardNumber: '4111 1111 1111 1111', ...VALID_FORM });
    expect(realCard.status).toBe(422);
    expect(realCard.page).toContain('usa una delle carte di prova');
    expect(harness.notifications).toHaveLength(0);
  });

  it('escapes what it shows', async () => {
    const { page } = await openPage((await createPayment()).redirectUrl);
    const wrong = await submit('pay', {
      a: hiddenInput(page, 'a'),
      b: hiddenInput(page, 'b'),
      cardholder: '"><script>alert(1)</script>',
      cardNumber: '1',
      expiry: '',
      cvc: '',
    });
    expect(wrong.page).not.toContain('<script>alert(1)</script>');
    expect(wrong.page).toContain('&quot;&gt;&lt;script&gt;');
  });

  it('cancels: reports a buyer cancellation and sends the visitor to the cancel URL without parameters', async () => {
    const { page } = await openPage((await createPayment()).redirectUrl);
    const { status, location } = await submit('cancel', {
      a: hiddenInput(page, 'a'),
      b: hiddenInput(page, 'b'),
    });
    expect(status).toBe(303);
    expect(location).toBe(`${harness.baseUrl}/booking-complete`);
    expect(harness.notifications).toHaveLength(1);
    const outcome = await harness.provider.readResult(harness.notifications[0]!);
    expect(outcome).toMatchObject({ result: 'KO', cancelledByBuyer: true, providerTransactionId: null });
  });

  it('refuses a changed, expired or foreign payment link', async () => {
    const { redirectUrl } = await createPayment();
    const url = new URL(redirectUrl);
    const b = url.searchParams.get('b')!;
    const tampered = new URL(redirectUrl);
    tampered.searchParams.set('b', `${b.slice(0, 20)}${b[20] === 'A' ? 'B' : 'A'}${b.slice(21)}`);
    expect((await openPage(tampered.toString())).status).toBe(400);

    const otherShop = new URL(redirectUrl);
    otherShop.searchParams.set('a', 'SOMEONE-ELSE');
    expect((await openPage(otherShop.toString())).status).toBe(400);

    expect((await openPage(`${harness.baseUrl}/sandbox-pay/pay`)).status).toBe(400);

    const forged = await submit('pay', { a: SHOP, b: 'AAAA', cardNumber: '4242424242424242', ...VALID_FORM });
    expect(forged.status).toBe(400);
    expect(forged.page).toContain('Link di pagamento non valido');

    harness.clock.now = new Date(harness.clock.now.getTime() + 31 * 60_000);
    expect((await openPage(redirectUrl)).status).toBe(400);
    expect(harness.notifications).toHaveLength(0);
  });

  it("reads the visitor's return link for an hour after the payment, then refuses it as expired", async () => {
    const { location } = await pay((await createPayment(1250)).redirectUrl, '4242424242424242');
    const back = new URL(location!);
    const params = { a: back.searchParams.get('a')!, b: back.searchParams.get('b')! };
    const paidAt = harness.clock.now.getTime();

    harness.clock.now = new Date(paidAt + 59 * 60_000);
    expect((await harness.provider.readResult(params)).transactionId).toBe('BOOKING-1743321600000');

    harness.clock.now = new Date(paidAt + 60 * 60_000);
    await expect(harness.provider.readResult(params)).rejects.toBeInstanceOf(PaymentResultExpiredError);
  });

  it('rejects forged or tampered results: changed b, changed a, or a checkout token passed off as a result', async () => {
    const { location } = await pay((await createPayment(1250)).redirectUrl, '4242424242424242');
    const back = new URL(location!);
    const a = back.searchParams.get('a')!;
    const b = back.searchParams.get('b')!;
    const flipped = `${b.slice(0, -3)}${b.at(-3) === 'A' ? 'B' : 'A'}${b.slice(-2)}`;

    await expect(harness.provider.readResult({ a, b: flipped })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
    await expect(harness.provider.readResult({ a: 'OTHER', b })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
    await expect(harness.provider.readResult({ a, b: 'not a token!' })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
    const checkoutToken = new URL((await createPayment()).redirectUrl).searchParams.get('b')!;
    await expect(harness.provider.readResult({ a, b: checkoutToken })).rejects.toBeInstanceOf(
      PaymentResultInvalidError,
    );
    const otherSecret = createSandboxPaymentProvider({
      secret: 'another-secret-that-is-long-enough-too',
      shopLogin: SHOP,
      merchantName: 'x',
      pageBaseUrl: harness.baseUrl,
    });
    await expect(otherSecret.readResult({ a, b })).rejects.toBeInstanceOf(PaymentResultInvalidError);
  });

  it('refuses to create a payment for a non-positive or fractional amount', async () => {
    await expect(createPayment(0)).rejects.toThrow(RangeError);
    await expect(createPayment(12.5)).rejects.toThrow(RangeError);
  });
});

describe('sandbox notification delivery', () => {
  it('retries a notification the cloud did not accept', async () => {
    const harness = await startHarness({ retryDelaysMs: [20, 20] });
    try {
      harness.notificationStatuses.push(500, 503);
      const created = await harness.provider.createPayment({
        transactionId: 'BOOKING-2',
        amountCents: 400,
        currency: 'EUR',
        buyerName: 'Ann Lee',
        buyerEmail: 'ann@example.com',
        language: 'en',
        urls: urlsFor(harness.baseUrl),
      });
      const pageResponse = await request(created.redirectUrl);
      const page = await pageResponse.body.text();
      const response = await request(`${harness.baseUrl}/sandbox-pay/pay`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          a: hiddenInput(page, 'a'),
          b: hiddenInput(page, 'b'),
          cardNumber: '5555 5555 5555 4444',
          ...VALID_FORM,
        }).toString(),
      });
      await response.body.dump();
      // The visitor is not held back by a failing notification.
      expect(response.statusCode).toBe(303);
      await expect.poll(() => harness.notifications.length, { timeout: 2_000 }).toBe(3);
      const [first, , third] = harness.notifications;
      expect(third).toEqual(first);
    } finally {
      harness.server.closeAllConnections();
      await new Promise((resolve) => harness.server.close(resolve));
    }
  });
});
