import { z } from 'zod';
import {
  PHONE_REFUSAL,
  bookingReadBackSchema,
  savedBookingSchema,
  zBookingNote,
  zDiscountCode,
  zEmail,
  zEuros,
  zIsoDateTime,
  zLocationKey,
  zLockerNumber,
  zLockerSize,
  zPersonName,
  zPhoneNumber,
  zPhonePrefix,
  zPin,
  zQuantity,
  zTransactionId,
  endsAfterStart,
  END_AFTER_START,
} from '../schemas/index';
import { emailsMatch, parsePhone } from '../forms/index';
import { okResponseSchema, transactionParamsSchema } from './common';
import { defineRoute } from './route';

/** `POST /api/bookings/immediate` takes the location from the query; Vicolo when absent (spec §9 default). */
export const immediateBookingQuerySchema = z.object({ location: zLocationKey.default('vicolo') });

/**
 * The fast-track offer: the locker size a visitor starting now would get (large first, standard
 * as fallback), for how many hours, at what price per locker. It reserves nothing; holding the
 * locker is `POST /api/lockers/inhibit-multi`.
 */
export const immediateBookingResponseSchema = z.object({
  locker: z.object({ size: zLockerSize, lockerId: zLockerNumber.nullable() }),
  duration: z.number().int().min(1).max(24),
  price: zEuros,
});

export const saveBookingRequestSchema = savedBookingSchema;

/** The id to use from now on is the server's, whatever the browser proposed. */
export const saveBookingResponseSchema = z.object({
  success: z.literal(true),
  transactionId: zTransactionId,
  status: z.literal('pending'),
  expiresAt: zIsoDateTime,
});

/**
 * A future-day booking (customer spec §7). The server assigns the id, computes the prices (the
 * browser's `prezzo_originale`/`prezzo_scontato` are only compared, `booking/price_mismatch` when
 * they differ) and draws the PIN when none is given; lockers are assigned on the day.
 */
export const scheduledBookingRequestSchema = z
  .object({
    id_transazione: zTransactionId.optional(),
    location_key: zLocationKey,
    startTimeIso: zIsoDateTime,
    endTimeIso: zIsoDateTime,
    tipo_locker: zLockerSize,
    quantita: zQuantity,
    prezzo_originale: zEuros.optional(),
    prezzo_scontato: zEuros.optional(),
    pin: zPin.optional(),
  })
  .refine(endsAfterStart, END_AFTER_START);

export const scheduledBookingResponseSchema = z.object({
  transactionId: zTransactionId,
  /** Null until the morning scheduler assigns lockers on the day. */
  lockerId: zLockerNumber.nullable(),
});

/** An empty field means no code. */
const optionalDiscountCode = z
  .union([z.literal(''), zDiscountCode])
  .nullable()
  .optional();

/** The customer's details for a pending booking (customer spec §5 rules). */
export const customerDetailsRequestSchema = z
  .object({
    nome: zPersonName,
    cognome: zPersonName,
    email: zEmail,
    conferma_email: zEmail,
    telefono_prefisso: zPhonePrefix.default('+39'),
    telefono_numero: zPhoneNumber,
    codice_sconto: optionalDiscountCode,
    note: zBookingNote.optional(),
  })
  .refine((body) => emailsMatch(body.email, body.conferma_email), {
    message: 'The confirmation e-mail differs',
    path: ['conferma_email'],
  })
  // The number is kept as the dial code and the national number ('+39', '3331234567'): E.164 together.
  .transform((body, ctx) => {
    const phone = parsePhone(body.telefono_numero, { dialCode: body.telefono_prefisso });
    if (phone) return { ...body, telefono_prefisso: phone.dialCode, telefono_numero: phone.nationalNumber };
    ctx.addIssue({
      code: 'custom',
      input: body.telefono_numero,
      path: ['telefono_numero'],
      ...PHONE_REFUSAL,
    });
    return z.NEVER;
  });

export const bookingReadBackResponseSchema = bookingReadBackSchema;

export const bookingRoutes = {
  immediate: defineRoute({
    method: 'POST',
    path: '/api/bookings/immediate',
    area: 'bookings',
    auth: 'public',
    request: { query: immediateBookingQuerySchema },
    response: immediateBookingResponseSchema,
    summary: 'What a fast-track booking starting now would be: size, 3 hours, price',
  }),
  save: defineRoute({
    method: 'POST',
    path: '/api/bookings/save',
    area: 'bookings',
    auth: 'public',
    request: { body: saveBookingRequestSchema },
    response: saveBookingResponseSchema,
    successStatus: 201,
    summary: 'Save a pending booking for held lockers',
  }),
  scheduled: defineRoute({
    method: 'POST',
    path: '/api/bookings/scheduled',
    area: 'bookings',
    auth: 'public',
    request: { body: scheduledBookingRequestSchema },
    response: scheduledBookingResponseSchema,
    successStatus: 201,
    summary: 'Save a pending booking for a later day; lockers are assigned on the day',
  }),
  customerDetails: defineRoute({
    method: 'PATCH',
    path: '/api/bookings/:transactionId',
    area: 'bookings',
    auth: 'public',
    request: { params: transactionParamsSchema, body: customerDetailsRequestSchema },
    response: okResponseSchema,
    summary: "Attach the customer's name, contacts, discount code and note to a pending booking",
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/bookings/:transactionId/cancel',
    area: 'bookings',
    auth: 'public',
    request: { params: transactionParamsSchema },
    response: okResponseSchema,
    summary: 'Cancel a pending booking and release its lockers',
  }),
  readBack: defineRoute({
    method: 'GET',
    path: '/api/bookings/:transactionId',
    area: 'bookings',
    auth: 'public',
    request: { params: transactionParamsSchema },
    response: bookingReadBackResponseSchema,
    summary: 'A booking for the completion page (BOOKING_NOT_FOUND when unknown)',
  }),
} as const;
