import type { Router } from 'express';
import type { Logger } from 'pino';
import { createAxervePaymentProvider } from './axerve-payment-provider';
import type { PaymentConfig } from './payment-config';
import type { PaymentProvider, PaymentResponseUrls } from './payment-provider';
import { createSandboxPaymentProvider } from './sandbox-payment-provider';
import { createSandboxPaymentRouter } from './sandbox-payment-router';

/** Where the cloud mounts the sandbox's hosted page. */
export const SANDBOX_PAYMENT_MOUNT_PATH = '/sandbox-pay';
/** The cloud's endpoint for the gateway's server-to-server notification. */
export const PAYMENT_NOTIFICATION_PATH = '/api/payments/notification';
/** The web page the visitor returns to (with `a` and `b`, or without parameters after a cancel). */
export const BOOKING_COMPLETE_PATH = '/booking-complete';

export interface PaymentGateway {
  provider: PaymentProvider;
  /** Only for the sandbox: its hosted page, to mount at {@link SANDBOX_PAYMENT_MOUNT_PATH}. */
  sandboxRouter: Router | null;
}

export interface PaymentGatewayDeps {
  /** The public origin of the cloud and web app, e.g. https://deposito.example (no trailing slash needed). */
  publicUrl: string;
  logger?: Logger;
}

/** The provider chosen by PAYMENT_PROVIDER, plus the sandbox's own page when it is the sandbox. */
export function createPaymentGateway(config: PaymentConfig, deps: PaymentGatewayDeps): PaymentGateway {
  if (config.provider === 'axerve') {
    return {
      provider: createAxervePaymentProvider({
        shopLogin: config.shopLogin,
        apiKey: config.apiKey,
        baseUrl: config.baseUrl,
        pageUrl: config.pageUrl,
        timeoutMs: config.timeoutMs,
      }),
      sandboxRouter: null,
    };
  }
  if (config.secretGenerated) {
    deps.logger?.warn(
      'SANDBOX_PAYMENT_SECRET is not set: generated one for this process; payment links die with it',
    );
  }
  const options = {
    secret: config.secret,
    shopLogin: config.shopLogin,
    merchantName: config.merchantName,
    pageBaseUrl: `${deps.publicUrl.replace(/\/+$/, '')}${SANDBOX_PAYMENT_MOUNT_PATH}`,
  };
  return {
    provider: createSandboxPaymentProvider(options),
    sandboxRouter: createSandboxPaymentRouter({
      ...options,
      logger: deps.logger,
      notificationTimeoutMs: config.timeoutMs,
    }),
  };
}

/** The return and notification URLs the cloud gives the gateway for a booking payment. */
export function bookingPaymentUrls(publicUrl: string): PaymentResponseUrls {
  const base = publicUrl.replace(/\/+$/, '');
  return {
    buyerOK: `${base}${BOOKING_COMPLETE_PATH}`,
    buyerKO: `${base}${BOOKING_COMPLETE_PATH}`,
    serverNotificationURL: `${base}${PAYMENT_NOTIFICATION_PATH}`,
    cancel: `${base}${BOOKING_COMPLETE_PATH}`,
  };
}
