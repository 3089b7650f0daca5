// The payment path as the booking pages and the sandbox gateway walk it, over real HTTP against a
// payment test app: hold lockers, pay on the sandbox page, and the gateway's own notification.
import { PAYMENT_NOTIFICATION_PATH } from '../src/payments/payment-gateway';
import { SandboxTokens, type SandboxResult } from '../src/payments/sandbox-tokens';
import { TEST_SANDBOX } from './payment-test-app';
import { payOnSandbox, SANDBOX_TEST_CARD } from './sandbox-card';

export const SANDBOX_SHOP = TEST_SANDBOX.provider === 'sandbox' ? TEST_SANDBOX.shopLogin : '';
const SANDBOX_SECRET = TEST_SANDBOX.provider === 'sandbox' ? TEST_SANDBOX.secret : '';

/** The payer the payment tests send to create-payment (an apostrophe in the surname, in English). */
export const APOSTROPHE_PAYER = {
  currency: 'EUR',
  email: 'giulia@example.com',
  nome: 'Giulia',
  cognome: "D'Angelo",
  telefono: '+393331234567',
  note: 'lang:en',
};

/** Submits a card on the sandbox page the payment HTML leads to; the visitor's return parameters. */
export async function payWithCard(html: string, cardNumber = SANDBOX_TEST_CARD.cardNumber) {
  const paid = await payOnSandbox(html, { cardholder: 'Giulia D Angelo', cardNumber });
  return { ...paid, back: paid.back! };
}

/** A payment result sealed as the sandbox gateway seals it (paid unless told), for notifying directly. */
export function sealedSandboxResult(
  result: Pick<SandboxResult, 'shopTransactionID' | 'bankTransactionID' | 'amount'> & Partial<SandboxResult>,
  expiresAt?: Date,
): { a: string; b: string } {
  const b = new SandboxTokens(SANDBOX_SECRET).sealResult(
    SANDBOX_SHOP,
    {
      transactionResult: 'OK',
      paymentID: 'SBX-test',
      currency: 'EUR',
      errorCode: '0',
      errorDescription: '',
      ...result,
    },
    expiresAt,
  );
  return { a: SANDBOX_SHOP, b };
}

/** The gateway's server-to-server notification of `a`/`b` to the cloud at `baseUrl`. */
export async function notifyPayment(
  baseUrl: string,
  params: { a: string; b: string },
): Promise<{ status: number; text: string }> {
  const response = await fetch(`${baseUrl}${PAYMENT_NOTIFICATION_PATH}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(params).toString(),
  });
  return { status: response.status, text: await response.text() };
}
