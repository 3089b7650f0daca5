// The contract every card-payment gateway adapter fulfils. The cloud only ever talks to a
// PaymentProvider; which one is chosen by PAYMENT_PROVIDER (see payment-config.ts).

import { LANGUAGES, type Language } from '@deposito/protocol/booking/note';

/** Interface languages of the booking pages; the gateway page and its e-mails follow it where it can. */
export const PAYMENT_LANGUAGES = LANGUAGES;
export type PaymentLanguage = Language;

/** Where the gateway sends the visitor and its server-to-server notification after the payment. */
export interface PaymentResponseUrls {
  /** The visitor's return after an accepted payment (receives `a` and `b`). */
  buyerOK: string;
  /** The visitor's return after a declined payment (receives `a` and `b`). */
  buyerKO: string;
  /** Server-to-server notification of the outcome (receives `a` and `b`). */
  serverNotificationURL: string;
  /** Where a visitor who abandons the payment page goes (no parameters), when the gateway supports it. */
  cancel: string;
}

export interface CreatePaymentRequest {
  /** Our booking's transaction id; the gateway calls it shopTransactionID. */
  transactionId: string;
  /** Always the server's own total for the booking, in integer cents. */
  amountCents: number;
  currency: 'EUR';
  buyerName: string;
  buyerEmail: string;
  language: PaymentLanguage;
  urls: PaymentResponseUrls;
}

export interface CreatedPayment {
  /** The hosted payment page the visitor's top window must open. */
  redirectUrl: string;
  /** A small HTML page that sends the top window to {@link redirectUrl} (the booking pages live in an iframe). */
  html: string;
  /** The gateway's own id for this payment attempt (Axerve paymentID), for logs and support. */
  providerRef: string;
}

/** OK: paid. KO: declined or failed. XX: pending at the gateway; deliver nothing yet. */
export const PAYMENT_RESULTS = ['OK', 'KO', 'XX'] as const;
export type PaymentResult = (typeof PAYMENT_RESULTS)[number];

/** The encrypted parameters a gateway hands back on the visitor's return and in its notification. */
export interface EncryptedPaymentParams {
  a: string;
  b: string;
}

/** The outcome of a payment, as verified with the gateway (never as claimed by the browser). */
export interface PaymentOutcome {
  transactionId: string;
  result: PaymentResult;
  /** The gateway's transaction reference (bankTransactionID); null while none was assigned. */
  providerTransactionId: string | null;
  /** The amount the gateway says it charged, when it says it. */
  amountCents?: number;
  /** A KO because the visitor abandoned or cancelled the payment page (not a declined card). */
  cancelledByBuyer: boolean;
  /** The gateway's reason for a KO, for logs. */
  errorDescription?: string;
}

/** GestPay/Axerve error codes that mean the buyer cancelled or abandoned the payment. */
export const BUYER_CANCELLED_ERROR_CODES: ReadonlySet<string> = new Set(['516', '1140', '1143', '2500']);

/** Money to give back for a paid booking, on the card it came from. */
export interface RefundRequest {
  /** Our booking's transaction id (shopTransactionID). */
  transactionId: string;
  /** The gateway's reference of the payment (bankTransactionID), as recorded when it was paid. */
  providerTransactionId: string;
  amountCents: number;
  currency: 'EUR';
}

export interface RefundMade {
  /** The gateway's reference of the refund, for the booking's history and support. */
  refundReference: string;
}

export interface PaymentProvider {
  readonly name: 'sandbox' | 'axerve';
  createPayment(request: CreatePaymentRequest): Promise<CreatedPayment>;
  /** Verifies `a`/`b` with the gateway; throws {@link PaymentResultInvalidError} for forged or unknown ones. */
  readResult(params: EncryptedPaymentParams): Promise<PaymentOutcome>;
  /** Gives the amount back; throws {@link PaymentProviderError} when the gateway does not (nothing was refunded). */
  refund(request: RefundRequest): Promise<RefundMade>;
}

/**
 * The gateway could not be reached, timed out, or answered something we do not accept.
 * Nothing was changed on our side; the visitor may retry.
 */
export class PaymentProviderError extends Error {
  override readonly name = 'PaymentProviderError';
  readonly status = 502;
  readonly code = 'payment/provider_error';
}

/** The `a`/`b` parameters are forged, tampered with, or unknown to the gateway. */
export class PaymentResultInvalidError extends Error {
  override readonly name: string = 'PaymentResultInvalidError';
  readonly status = 400;
  readonly code = 'payment/invalid_parameters';
}

/** The `a`/`b` parameters were genuine but are too old to be read again (a stale return link). */
export class PaymentResultExpiredError extends PaymentResultInvalidError {
  override readonly name = 'PaymentResultExpiredError';
}
