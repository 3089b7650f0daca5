import { z } from 'zod';
import {
  bookingDurationSchema,
  zBookingNote,
  zCents,
  zDiscountCode,
  zEmail,
  zEuros,
  zFullPhone,
  zLockerNumber,
  zPersonName,
  zPin,
  zTransactionId,
} from '../schemas/index';
import { htmlPageSchema } from './common';
import { defineRoute } from './route';

/** The encrypted return parameters a payment provider appends; far shorter in practice. */
const zEncryptedParameter = z.string().min(1).max(4096);

/**
 * Start paying a pending booking (customer spec §7). The server charges what it computes for the
 * booking (price, discount of `codiceSconto`, fee); `amount` and `price` are only compared
 * (`booking/price_mismatch`) and `pin` is replaced when trivial or in use. BOOKING_EXPIRED when
 * the payment window has closed.
 */
export const createPaymentRequestSchema = z.object({
  currency: z.literal('EUR'),
  amount: zCents.optional(),
  transactionId: zTransactionId,
  lockerId: zLockerNumber.nullable().optional(),
  duration: bookingDurationSchema.optional(),
  price: zEuros.optional(),
  pin: zPin.optional(),
  email: zEmail,
  nome: zPersonName,
  cognome: zPersonName,
  telefono: zFullPhone,
  codiceSconto: z
    .union([z.literal(''), zDiscountCode])
    .nullable()
    .optional(),
  note: zBookingNote.optional(),
});

/** When nothing is left to pay online the booking is confirmed at once and no page is sent. */
export const bookingConfirmedResponseSchema = z.object({
  bookingConfirmed: z.literal(true),
  transactionId: zTransactionId,
});

/** Usually the provider's page (text/html); `bookingConfirmed` JSON otherwise. */
export const createPaymentResponseSchema = z.union([htmlPageSchema, bookingConfirmedResponseSchema]);

/** Reopens payment of a hold whose payment was declined or abandoned, for the same frozen total. */
export const retryPaymentRequestSchema = z.object({ transactionId: zTransactionId });

export const decryptPaymentRequestSchema = z.object({ a: zEncryptedParameter, b: zEncryptedParameter });
export const decryptPaymentResponseSchema = z.object({ shopTransactionId: zTransactionId });

export const paymentRoutes = {
  createPayment: defineRoute({
    method: 'POST',
    path: '/api/payments/create-payment',
    area: 'payments',
    auth: 'public',
    request: { body: createPaymentRequestSchema },
    response: createPaymentResponseSchema,
    responseType: 'html',
    summary: "Answer with the payment provider's page for a pending booking",
  }),
  retryPayment: defineRoute({
    method: 'POST',
    path: '/api/payments/retry',
    area: 'payments',
    auth: 'public',
    request: { body: retryPaymentRequestSchema },
    response: createPaymentResponseSchema,
    responseType: 'html',
    summary: "Answer with the payment provider's page again for a declined payment, while the hold lives",
  }),
  decrypt: defineRoute({
    method: 'POST',
    path: '/api/payments/decrypt',
    area: 'payments',
    auth: 'public',
    request: { body: decryptPaymentRequestSchema },
    response: decryptPaymentResponseSchema,
    summary: "Read the booking id from the payment provider's encrypted return parameters",
  }),
} as const;
