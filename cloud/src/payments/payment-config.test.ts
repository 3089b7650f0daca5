import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { paymentConfigFromEnv, paymentEnvShape, refinePaymentEnv } from './payment-config';

// env.ts composes the fragment like this: its own variables, plus ours, plus our cross-field rule.
const schema = z
  .object({ PORT: z.coerce.number().default(8080), PUBLIC_URL: z.url().optional(), ...paymentEnvShape })
  .superRefine(refinePaymentEnv);

describe('payment configuration', () => {
  it('has the sandbox, once chosen, generate its secret', () => {
    const config = paymentConfigFromEnv(schema.parse({ PAYMENT_PROVIDER: 'sandbox' }));
    expect(config).toMatchObject({
      provider: 'sandbox',
      merchantName: 'Deposito',
      shopLogin: 'DEPOSITO-SANDBOX',
      secretGenerated: true,
      timeoutMs: 10_000,
    });
    expect(config.provider === 'sandbox' && config.secret.length).toBeGreaterThanOrEqual(32);
  });

  it('uses the configured sandbox secret, and treats an empty one as absent', () => {
    const secret = 's'.repeat(40);
    expect(
      paymentConfigFromEnv(schema.parse({ PAYMENT_PROVIDER: 'sandbox', SANDBOX_PAYMENT_SECRET: secret })),
    ).toMatchObject({
      secret,
      secretGenerated: false,
    });
    expect(
      paymentConfigFromEnv(schema.parse({ PAYMENT_PROVIDER: 'sandbox', SANDBOX_PAYMENT_SECRET: '' })),
    ).toMatchObject({
      secretGenerated: true,
    });
    expect(schema.safeParse({ SANDBOX_PAYMENT_SECRET: 'short' }).success).toBe(false);
  });

  it('builds the Axerve configuration', () => {
    const env = schema.parse({
      PAYMENT_PROVIDER: 'axerve',
      AXERVE_SHOP_LOGIN: 'GESPAY12345',
      AXERVE_API_KEY: 'key',
      AXERVE_BASE_URL: 'https://ecomms2s.sella.it/',
      PAYMENT_PROVIDER_TIMEOUT_MS: '3000',
      PUBLIC_URL: 'https://book.example.com',
    });
    expect(paymentConfigFromEnv(env)).toEqual({
      provider: 'axerve',
      merchantName: 'Deposito',
      timeoutMs: 3000,
      shopLogin: 'GESPAY12345',
      apiKey: 'key',
      baseUrl: 'https://ecomms2s.sella.it',
      pageUrl: 'https://sandbox.gestpay.net/pagam/pagam.aspx',
    });
  });

  it('reports every missing Axerve variable at once', () => {
    const result = schema.safeParse({
      PAYMENT_PROVIDER: 'axerve',
      AXERVE_API_KEY: ' ',
      AXERVE_PAGE_URL: 'nope',
    });
    expect(result.success).toBe(false);
    const paths = result.error!.issues.map((issue) => issue.path.join('.')).sort();
    expect(paths).toEqual(['AXERVE_API_KEY', 'AXERVE_PAGE_URL', 'AXERVE_SHOP_LOGIN', 'PUBLIC_URL']);
  });

  it('refuses an unknown provider', () => {
    expect(schema.safeParse({ PAYMENT_PROVIDER: 'paypal' }).success).toBe(false);
  });
});
