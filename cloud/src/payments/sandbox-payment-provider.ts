import { randomBytes } from 'node:crypto';
import { gatewayAmountToCents } from './gateway-amount';
import {
  BUYER_CANCELLED_ERROR_CODES,
  PaymentResultExpiredError,
  PaymentResultInvalidError,
  type CreatePaymentRequest,
  type CreatedPayment,
  type EncryptedPaymentParams,
  type PaymentOutcome,
  type PaymentProvider,
  type RefundMade,
  type RefundRequest,
} from './payment-provider';
import { renderPaymentRedirectPage } from './redirect-page';
import { SandboxResultExpiredError, SandboxTokenError, SandboxTokens } from './sandbox-tokens';

/** What both halves of the sandbox gateway (the provider and the router) share. */
export interface SandboxGatewayOptions {
  /** Seals the checkout and result tokens; the provider and the router must use the same one. */
  secret: string;
  /** Handed back as `a`. */
  shopLogin: string;
  /** Shown on the payment page. */
  merchantName: string;
  /** Absolute URL where the sandbox router is mounted, e.g. `https://deposito.example/sandbox-pay`. */
  pageBaseUrl: string;
  /** How long a created payment stays payable. Longer than a booking hold, so late payments can be tried. */
  checkoutTtlMs?: number;
  now?: () => Date;
}

const DEFAULT_CHECKOUT_TTL_MS = 30 * 60_000;

/** The built-in test gateway: no card is charged; the page lives in this very cloud. */
export function createSandboxPaymentProvider(options: SandboxGatewayOptions): PaymentProvider {
  const tokens = new SandboxTokens(options.secret);
  const now = options.now ?? (() => new Date());
  const ttlMs = options.checkoutTtlMs ?? DEFAULT_CHECKOUT_TTL_MS;
  const pageUrl = `${options.pageBaseUrl.replace(/\/+$/, '')}/pay`;

  return {
    name: 'sandbox',

    async createPayment(request: CreatePaymentRequest): Promise<CreatedPayment> {
      if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
        throw new RangeError(`Cannot charge ${request.amountCents} cents`);
      }
      const paymentId = `SBX-${randomBytes(8).toString('hex')}`;
      const b = tokens.sealCheckout({
        paymentId,
        transactionId: request.transactionId,
        amountCents: request.amountCents,
        currency: request.currency,
        buyerName: request.buyerName,
        buyerEmail: request.buyerEmail,
        language: request.language,
        urls: request.urls,
        expiresAt: new Date(now().getTime() + ttlMs).toISOString(),
      });
      const url = new URL(pageUrl);
      url.searchParams.set('a', options.shopLogin);
      url.searchParams.set('b', b);
      const redirectUrl = url.toString();
      return {
        redirectUrl,
        html: renderPaymentRedirectPage(redirectUrl, request.language),
        providerRef: paymentId,
      };
    },

    async readResult({ a, b }: EncryptedPaymentParams): Promise<PaymentOutcome> {
      if (a !== options.shopLogin)
        throw new PaymentResultInvalidError('Unknown shop login in payment result');
      let result;
      try {
        result = tokens.openResult(a, b, now());
      } catch (error) {
        if (error instanceof SandboxResultExpiredError) {
          throw new PaymentResultExpiredError('Payment result has expired', { cause: error });
        }
        if (error instanceof SandboxTokenError) {
          throw new PaymentResultInvalidError('Payment result failed verification', { cause: error });
        }
        throw error;
      }
      const amountCents = gatewayAmountToCents(result.amount);
      return {
        transactionId: result.shopTransactionID,
        result: result.transactionResult,
        providerTransactionId: result.bankTransactionID || null,
        cancelledByBuyer:
          result.transactionResult === 'KO' && BUYER_CANCELLED_ERROR_CODES.has(result.errorCode),
        ...(amountCents === null ? {} : { amountCents }),
        ...(result.errorDescription ? { errorDescription: result.errorDescription } : {}),
      };
    },

    // No card was charged: the refund is recorded as made, with a reference of its own.
    async refund(request: RefundRequest): Promise<RefundMade> {
      if (!Number.isSafeInteger(request.amountCents) || request.amountCents <= 0) {
        throw new RangeError(`Cannot refund ${request.amountCents} cents`);
      }
      return { refundReference: `SBX-REFUND-${randomBytes(8).toString('hex')}` };
    },
  };
}
