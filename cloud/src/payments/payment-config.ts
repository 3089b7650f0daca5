import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { wholeNumberVar } from '../env-values';

// The payment variables of the environment. env.ts (the only reader of process.env) spreads
// `paymentEnvShape` into its schema, runs `refinePaymentEnv` with the rest of its checks so every
// problem is reported at once, and builds the typed PaymentConfig with `paymentConfigFromEnv`.

/** An optional variable; set-but-empty (common in .env files) counts as absent. */
function optionalVar<T extends z.ZodType>(schema: T) {
  return z.preprocess(
    (value) => (typeof value === 'string' && value.trim() === '' ? undefined : value),
    schema.optional(),
  );
}

export const paymentEnvShape = {
  /**
   * Which gateway takes the card payments. No default outside demo mode: a production cloud that
   * forgot it must not quietly take the sandbox's test cards as payment (refinePaymentEnv).
   */
  PAYMENT_PROVIDER: optionalVar(z.enum(['sandbox', 'axerve'])),
  /** The merchant name shown on the sandbox page. */
  PAYMENT_MERCHANT_NAME: z.string().trim().min(1).default('Deposito'),
  /** Milliseconds before a call to the gateway is abandoned. */
  PAYMENT_PROVIDER_TIMEOUT_MS: wholeNumberVar(100, 120_000).default(10_000),
  /**
   * Secret that seals the sandbox's checkout and result tokens. Generated at start when absent,
   * which is fine for one process; set it when several cloud instances share the sandbox.
   */
  SANDBOX_PAYMENT_SECRET: optionalVar(z.string().min(32)),
  /** The shop login the sandbox hands back as `a`. */
  SANDBOX_SHOP_LOGIN: z.string().trim().min(1).default('DEPOSITO-SANDBOX'),
  AXERVE_SHOP_LOGIN: optionalVar(z.string().trim().min(1)),
  AXERVE_API_KEY: optionalVar(z.string().trim().min(1)),
  /** Axerve REST API base (production: https://ecomms2s.sella.it). */
  AXERVE_BASE_URL: z.url().default('https://sandbox.gestpay.net'),
  /** Axerve hosted payment page (production: https://ecomm.sella.it/pagam/pagam.aspx). */
  AXERVE_PAGE_URL: z.url().default('https://sandbox.gestpay.net/pagam/pagam.aspx'),
};

export const paymentEnvSchema = z.object(paymentEnvShape);
export type PaymentEnv = z.infer<typeof paymentEnvSchema>;

/** Said when a cloud outside demo mode names no gateway. */
export const PAYMENT_PROVIDER_REQUIRED =
  'PAYMENT_PROVIDER is required outside demo mode: set axerve (with AXERVE_SHOP_LOGIN and AXERVE_API_KEY) to take real payments, or sandbox to take test cards only (no money is collected)';

/**
 * Cross-field rules: outside demo mode the gateway is an explicit choice; Axerve cannot work
 * without its shop login and API key, nor without the cloud's PUBLIC_URL (env.ts): it sends the
 * visitor back there and notifies it of the payment, and left to its default (http://localhost:PORT)
 * cards were charged and no booking was confirmed.
 */
export function refinePaymentEnv(
  env: PaymentEnv & { DEMO?: string; PUBLIC_URL?: string },
  ctx: z.RefinementCtx,
): void {
  if (env.PAYMENT_PROVIDER === undefined && env.DEMO !== '1') {
    ctx.addIssue({ code: 'custom', path: ['PAYMENT_PROVIDER'], message: PAYMENT_PROVIDER_REQUIRED });
    return;
  }
  if (env.PAYMENT_PROVIDER !== 'axerve') return;
  for (const key of ['AXERVE_SHOP_LOGIN', 'AXERVE_API_KEY'] as const) {
    if (!env[key]) {
      ctx.addIssue({
        code: 'custom',
        path: [key],
        message: `${key} is required when PAYMENT_PROVIDER=axerve`,
      });
    }
  }
  if (!env.PUBLIC_URL) {
    ctx.addIssue({
      code: 'custom',
      path: ['PUBLIC_URL'],
      message:
        'PUBLIC_URL is required when PAYMENT_PROVIDER=axerve: the gateway returns visitors to it and notifies it of each payment',
    });
  }
}

export interface SandboxPaymentConfig {
  provider: 'sandbox';
  merchantName: string;
  timeoutMs: number;
  secret: string;
  /** True when no SANDBOX_PAYMENT_SECRET was set and one was generated for this process. */
  secretGenerated: boolean;
  shopLogin: string;
}

export interface AxervePaymentConfig {
  provider: 'axerve';
  merchantName: string;
  timeoutMs: number;
  shopLogin: string;
  apiKey: string;
  baseUrl: string;
  pageUrl: string;
}

export type PaymentConfig = SandboxPaymentConfig | AxervePaymentConfig;

/** Builds the typed configuration from an environment already checked by {@link refinePaymentEnv}. */
export function paymentConfigFromEnv(env: PaymentEnv): PaymentConfig {
  const common = { merchantName: env.PAYMENT_MERCHANT_NAME, timeoutMs: env.PAYMENT_PROVIDER_TIMEOUT_MS };
  if (env.PAYMENT_PROVIDER === 'axerve') {
    if (!env.AXERVE_SHOP_LOGIN || !env.AXERVE_API_KEY) {
      throw new Error('AXERVE_SHOP_LOGIN and AXERVE_API_KEY are required when PAYMENT_PROVIDER=axerve');
    }
    return {
      provider: 'axerve',
      ...common,
      shopLogin: env.AXERVE_SHOP_LOGIN,
      apiKey: env.AXERVE_API_KEY,
      baseUrl: env.AXERVE_BASE_URL.replace(/\/+$/, ''),
      pageUrl: env.AXERVE_PAGE_URL,
    };
  }
  return {
    provider: 'sandbox',
    ...common,
    secret: env.SANDBOX_PAYMENT_SECRET ?? randomBytes(32).toString('base64url'),
    secretGenerated: env.SANDBOX_PAYMENT_SECRET === undefined,
    shopLogin: env.SANDBOX_SHOP_LOGIN,
  };
}
