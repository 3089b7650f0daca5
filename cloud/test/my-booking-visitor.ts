// A visitor of the private booking page, over real HTTP against a payment test app: a paid booking
// at `oca` and the token of the link its e-mail carries.
import { expect } from 'vitest';
import type { PaymentTestApp } from './payment-test-app';
import { payOnSandbox } from './sandbox-card';
import { apiClient, holdOverApi } from './test-app';

export const MY_BOOKING_PAYER = {
  currency: 'EUR',
  email: 'giulia@example.com',
  nome: 'Giulia',
  cognome: 'Rossi',
  telefono: '+393331234567',
  note: 'lang:en',
};

export const MY_BOOKING_LINK = /https?:\/\/[^\s"<]+\/my-booking\/([A-Za-z0-9_-]+)/;

export interface HoldWindow {
  startTimeIso: string;
  endTimeIso: string;
}

/** Holds one standard locker at `oca` for the window, opens the payment page and pays with the sandbox's test card. */
export async function bookAndPayAtOca(test: PaymentTestApp, window: HoldWindow): Promise<string> {
  const api = apiClient(test.url);
  const transactionId = await holdOverApi(api, window);
  const created = await api.post('/api/payments/create-payment', { ...MY_BOOKING_PAYER, transactionId });
  const paid = await payOnSandbox(created.text);
  expect(paid.status).toBe(303);
  return transactionId;
}

/** The token of the private link in the booking's e-mail of that kind (the same in text and HTML). */
export async function tokenFromMail(
  test: PaymentTestApp,
  transactionId: string,
  kind: string,
): Promise<string> {
  const mail = (await test.mails(transactionId)).find((m) => m.kind === kind);
  expect(mail, `a ${kind} e-mail`).toBeDefined();
  const inText = MY_BOOKING_LINK.exec(mail!.text);
  const inHtml = MY_BOOKING_LINK.exec(mail!.html);
  expect(inText?.[0]).toBe(`${test.url}/my-booking/${inText?.[1]}`);
  expect(inHtml?.[1]).toBe(inText?.[1]);
  return inText![1]!;
}

/** One day's takings at a location, as the operators' Incassi page reads them (euros). */
export interface DayTakings {
  online: number;
  totem: number;
  total: number;
  refunds?: number;
}

/** The March 2026 takings at `oca` by day (`dd/MM/yyyy`), read afresh by an operator. */
export async function ocaMarchTakings(test: PaymentTestApp): Promise<Record<string, DayTakings>> {
  const response = await fetch(`${test.url}/api/admin/takings?month=2026-03&location=oca&reload=1`, {
    headers: { authorization: `Bearer ${await test.adminToken()}` },
  });
  expect(response.status).toBe(200);
  const { data } = (await response.json()) as { data: Record<string, Record<string, DayTakings>> };
  return data.oca ?? {};
}

/**
 * The booking's last two events after the visitor cancelled a scheduled booking on its page: owed
 * a refund, then refunded by the gateway with `refundDetail` (its refund's reference).
 */
export async function expectRefundedAfterVisitorCancel(
  test: Pick<PaymentTestApp, 'store'>,
  transactionId: string,
  refundDetail: unknown,
): Promise<void> {
  expect((await test.store.bookings.events(transactionId)).slice(-2)).toMatchObject([
    { from: 'scheduled', to: 'refund_due', actor: 'visitor', reason: 'visitor_cancelled' },
    { from: 'refund_due', to: 'refunded', actor: 'provider', reason: 'refund_made', detail: refundDetail },
  ]);
}
