import { z } from 'zod';
import {
  zBookingNote,
  zDiscountCode,
  zEmail,
  zEuros,
  zFullPhone,
  zIsoDateTime,
  zLocationKey,
  zLockerSize,
  zPersonName,
  zPin,
  zQuantity,
  zCount,
  endsAfterStart,
  END_AFTER_START,
} from '../schemas/index';
import { MAX_AVAILABILITY_RANGE_DAYS, availabilityByDateSchema } from './availability';
import { htmlPageSchema } from './common';
import { defineRoute } from './route';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Availability of one size over the night window of a day (06:00–22:00 local, sent in UTC). */
export const nightAvailabilityCheckRequestSchema = z
  .object({
    locationKey: zLocationKey,
    tipoLocker: zLockerSize,
    quantita: zQuantity.default(1),
    startTimeIso: zIsoDateTime,
    endTimeIso: zIsoDateTime,
  })
  .refine(endsAfterStart, END_AFTER_START);

export const nightAvailabilityCheckResponseSchema = z.object({
  disponibili: zCount,
  disponibile: z.boolean(),
});

export const nightAvailabilityRangeRequestSchema = z
  .object({ locationKey: zLocationKey, startTime: zIsoDateTime, endTime: zIsoDateTime })
  .refine(
    (body) => {
      const span = Date.parse(body.endTime) - Date.parse(body.startTime);
      return span > 0 && span <= MAX_AVAILABILITY_RANGE_DAYS * DAY_MS;
    },
    {
      message: `endTime must be after startTime, at most ${MAX_AVAILABILITY_RANGE_DAYS} days later`,
      path: ['endTime'],
    },
  );

/**
 * A night booking and its payment in one call (customer spec §7). The server computes the price,
 * the discount and the fee itself; `prezzoOriginale` and `prezzoScontato` are only compared
 * (`booking/price_mismatch`). `codiceSconto` is our addition: without it no discount is granted.
 * A PIN sent by the browser is replaced when it is trivial or in use.
 */
export const createNightPaymentRequestSchema = z
  .object({
    locationKey: zLocationKey,
    tipoLocker: zLockerSize,
    quantita: zQuantity,
    startTimeIso: zIsoDateTime,
    endTimeIso: zIsoDateTime,
    prezzoOriginale: zEuros.optional(),
    prezzoScontato: zEuros.optional(),
    email: zEmail,
    nome: zPersonName,
    cognome: zPersonName,
    telefono: zFullPhone,
    pin: zPin.optional(),
    note: zBookingNote.default(''),
    codiceSconto: z
      .union([z.literal(''), zDiscountCode])
      .nullable()
      .optional(),
  })
  .refine(endsAfterStart, END_AFTER_START);

export const nightRoutes = {
  check: defineRoute({
    method: 'POST',
    path: '/api/night-availability/check',
    area: 'night',
    auth: 'public',
    request: { body: nightAvailabilityCheckRequestSchema },
    response: nightAvailabilityCheckResponseSchema,
    summary: 'How many lockers of a size are free over a night window',
  }),
  checkRange: defineRoute({
    method: 'POST',
    path: '/api/night-availability/check-range',
    area: 'night',
    auth: 'public',
    request: { body: nightAvailabilityRangeRequestSchema },
    response: availabilityByDateSchema,
    summary: 'Free lockers per size for each day of a range',
  }),
  createPayment: defineRoute({
    method: 'POST',
    path: '/api/night-payments/create-night-payment',
    area: 'night',
    auth: 'public',
    request: { body: createNightPaymentRequestSchema },
    response: htmlPageSchema,
    responseType: 'html',
    summary: "Book a night stay and answer with the payment provider's page",
  }),
} as const;
