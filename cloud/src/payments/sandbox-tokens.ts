import { createHmac } from 'node:crypto';
import { z } from 'zod';
import { PAYMENT_LANGUAGES } from './payment-provider';
import { SealedTokenError, TokenSealer } from './sealed-token';

// The sandbox gateway keeps no state: everything it needs travels in sealed tokens, like the
// encrypted `b` parameter of a real hosted-page gateway. A checkout token carries the payment the
// cloud asked for (so the visitor cannot change the amount in the URL); a result token is the `b`
// handed back to the cloud with the outcome.

const CHECKOUT_PURPOSE = 'sandbox-checkout/v1';
const resultPurpose = (shopLogin: string) => `sandbox-result/v1/${shopLogin}`;

export const sandboxCheckoutSchema = z.object({
  paymentId: z.string().min(1),
  transactionId: z.string().min(1),
  amountCents: z.number().int().positive(),
  currency: z.literal('EUR'),
  buyerName: z.string(),
  buyerEmail: z.string(),
  language: z.enum(PAYMENT_LANGUAGES),
  urls: z.object({
    buyerOK: z.url(),
    buyerKO: z.url(),
    serverNotificationURL: z.url(),
    cancel: z.url(),
  }),
  expiresAt: z.iso.datetime(),
});
export type SandboxCheckout = z.infer<typeof sandboxCheckoutSchema>;

/** The decrypted `b`: field names follow the Axerve/GestPay result so both adapters read alike. */
export const sandboxResultSchema = z.object({
  shopTransactionID: z.string().min(1),
  transactionResult: z.enum(['OK', 'KO']),
  /** Empty when no card was charged (the buyer cancelled). */
  bankTransactionID: z.string(),
  paymentID: z.string().min(1),
  amount: z.string().regex(/^\d+\.\d{2}$/),
  currency: z.literal('EUR'),
  errorCode: z.string(),
  errorDescription: z.string(),
});
export type SandboxResult = z.infer<typeof sandboxResultSchema>;

/**
 * How long the visitor's return link (`buyerOK`/`buyerKO?a=…&b=…`) reads: long enough for the
 * return and the gateway's notification retries, short enough that a link left in a browser's
 * history or a shared screen no longer names the booking (whose id opens its PIN).
 */
export const SANDBOX_RESULT_TTL_MS = 60 * 60_000;

const sealedResultSchema = sandboxResultSchema.extend({ expiresAt: z.iso.datetime() });

export class SandboxTokenError extends Error {
  override readonly name = 'SandboxTokenError';
}

/** A result token that opened but is past its {@link SANDBOX_RESULT_TTL_MS}. */
export class SandboxResultExpiredError extends SandboxTokenError {}

export class SandboxTokens {
  readonly #sealer: TokenSealer;
  readonly #secret: string;

  constructor(secret: string) {
    this.#sealer = new TokenSealer(secret, 'deposito-sandbox-payments');
    this.#secret = secret;
  }

  sealCheckout(checkout: SandboxCheckout): string {
    return this.#sealer.seal(checkout, CHECKOUT_PURPOSE);
  }

  /** Opens a checkout token; throws {@link SandboxTokenError} when forged or expired. */
  openCheckout(token: string, now: Date): SandboxCheckout {
    const checkout = this.#open(token, CHECKOUT_PURPOSE, sandboxCheckoutSchema);
    if (Date.parse(checkout.expiresAt) <= now.getTime())
      throw new SandboxTokenError('The payment link has expired');
    return checkout;
  }

  /**
   * The result is bound to the shop login, so a changed `a` makes `b` fail to open; it reads until
   * `expiresAt` (the gateway's clock plus {@link SANDBOX_RESULT_TTL_MS}).
   */
  sealResult(
    shopLogin: string,
    result: SandboxResult,
    expiresAt = new Date(Date.now() + SANDBOX_RESULT_TTL_MS),
  ): string {
    return this.#sealer.seal({ ...result, expiresAt: expiresAt.toISOString() }, resultPurpose(shopLogin));
  }

  /** Opens a result token; throws {@link SandboxResultExpiredError} once it has expired. */
  openResult(shopLogin: string, token: string, now: Date): SandboxResult {
    const { expiresAt, ...result } = this.#open(token, resultPurpose(shopLogin), sealedResultSchema);
    if (Date.parse(expiresAt) <= now.getTime())
      throw new SandboxResultExpiredError('The payment result has expired');
    return result;
  }

  /**
   * Deterministic per payment attempt and outcome, so a form submitted twice reports the same bank
   * transaction (as a real gateway refuses to charge a used payment token twice).
   */
  bankTransactionId(paymentId: string, result: 'OK' | 'KO'): string {
    const digest = createHmac('sha256', this.#secret).update(`bank/${paymentId}/${result}`).digest();
    return String(digest.readUIntBE(0, 6)).padStart(15, '0');
  }

  #open<T extends z.ZodType>(token: string, purpose: string, schema: T): z.infer<T> {
    let payload: unknown;
    try {
      payload = this.#sealer.open(token, purpose);
    } catch (error) {
      if (error instanceof SealedTokenError) throw new SandboxTokenError(error.message, { cause: error });
      throw error;
    }
    const parsed = schema.safeParse(payload);
    if (!parsed.success) throw new SandboxTokenError('The token does not carry a valid payload');
    return parsed.data;
  }
}
