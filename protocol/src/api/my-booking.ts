import { z } from 'zod';
import { CANCELLATION_REFUSALS, zVisitorCancellationPolicy } from '../booking/cancellation-policy';
import { EXTENSION_REFUSALS } from '../booking/extension';
import { BOOKING_STATUSES } from '../booking/status';
import { CANONICAL_DURATION_UNITS } from '../pricing/price-table';
import { zIsoDateTime, zLockerSize, zTransactionId } from '../schemas/index';
import { htmlPageSchema } from './common';
import { defineRoute } from './route';

/**
 * The visitor's own booking page, opened from a private link (`/my-booking/{token}`).
 *
 * The link's token is the only key: 256 random bits, never the booking id, stored only as its
 * SHA-256 hash, expiring some days after the booking ends and revocable one by one. Each e-mail
 * that carries a link mints its own token when it is written, and the completion page asks for
 * one for a paid booking it already names. A token unknown, expired or revoked is
 * `my_booking/not_found` (404), the same answer whatever the reason, so nothing is learnt by trying.
 */

/** What a token looks like: base64url. Anything else is simply not found, never a 400. */
export const zMyBookingToken = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/);

/** `/:token` */
export const myBookingParamsSchema = z.object({ token: z.string().max(200) });

/**
 * More time on the same lockers right after a stay's end: the longer stays on offer with what each
 * costs (the difference in price, no second fee), or why there are none. The visitor's page and
 * the operators' booking details read the same offer.
 */
export const extensionOfferSchema = z.object({
  allowed: z.boolean(),
  refusal: z.enum(EXTENSION_REFUSALS).nullable(),
  options: z.array(
    z.object({
      /** The whole stay's new length, from its start. */
      duration: z.object({ value: z.number().int().min(1), unit: z.enum(CANONICAL_DURATION_UNITS) }),
      endIso: zIsoDateTime,
      /** The price difference, and what is charged (the gateway's minimum when more). */
      priceCents: z.number().int().min(0),
      totalCents: z.number().int().min(0),
    }),
  ),
});
export type ExtensionOfferResponse = z.infer<typeof extensionOfferSchema>;

/** The booking as its visitor sees it: times are UTC instants, shown in `location.timezone`. */
export const myBookingResponseSchema = z.object({
  /** The booking reference (also in the QR code for staff on site). */
  reference: zTransactionId,
  status: z.enum(BOOKING_STATUSES),
  location: z.object({
    name: z.string().max(500),
    address: z.string().max(500),
    timezone: z.string().max(64),
    /** Local "HH:mm". */
    openingHours: z.object({ opening: z.string().max(5), closing: z.string().max(5) }),
    /** Opens the address in the phone's map app (or the maps site on a desktop). */
    mapsUrl: z.url().max(2_000),
  }),
  size: zLockerSize,
  quantity: z.number().int().min(1),
  /** Lockers assigned so far (none before the day of a scheduled booking). */
  lockers: z.array(z.number().int()),
  startIso: zIsoDateTime,
  endIso: zIsoDateTime,
  /** What was charged, integer cents. */
  paidCents: z.number().int().min(0),
  /** Only once assigned and while the booking is paid. */
  pin: z.string().max(16).nullable(),
  /** A scheduled booking's PIN comes by e-mail from this instant (the morning of its day). */
  pinExpectedFrom: zIsoDateTime.nullable(),
  /** Whether the receipt (myBookingReceiptPath) can be downloaded: paid and not refunded. */
  receipt: z.boolean(),
  /** The Google Calendar "add event" link. */
  googleCalendarUrl: z.url().max(4_000),
  /** The cancellation policy in force, and whether this booking may be cancelled now (why not). */
  cancellation: z.object({
    policy: zVisitorCancellationPolicy,
    allowed: z.boolean(),
    refusal: z.enum(CANCELLATION_REFUSALS).nullable(),
  }),
  /** More time on the same lockers right after the end (extensionOfferSchema). */
  extension: extensionOfferSchema,
  /** The extensions paid so far (each its own payment and receipt), oldest first. */
  extensions: z.array(
    z.object({
      reference: zTransactionId,
      status: z.enum(BOOKING_STATUSES),
      startIso: zIsoDateTime,
      endIso: zIsoDateTime,
      paidCents: z.number().int().min(0),
    }),
  ),
});
export type MyBookingResponse = z.infer<typeof myBookingResponseSchema>;

/** The completion page's request for a private link of the paid booking it shows. */
export const myBookingLinkResponseSchema = z.object({
  token: zMyBookingToken,
  expiresAt: zIsoDateTime,
});
export type MyBookingLinkResponse = z.infer<typeof myBookingLinkResponseSchema>;

/** Where a resent confirmation went: the booking's address, partly hidden (a link can be forwarded). */
export const myBookingResendResponseSchema = z.object({ sentTo: z.string().max(320) });
export type MyBookingResendResponse = z.infer<typeof myBookingResendResponseSchema>;

/** The longer stay the visitor chose among `extension.options`, by its new end. */
export const myBookingExtendRequestSchema = z.object({ endIso: zIsoDateTime });
export type MyBookingExtendRequest = z.infer<typeof myBookingExtendRequestSchema>;

/** Resent confirmations per booking per hour (then 429 request/rate_limited with Retry-After). */
export const MY_BOOKING_RESENDS_PER_HOUR = 3;

export const myBookingRoutes = {
  read: defineRoute({
    method: 'GET',
    path: '/api/my-booking/:token',
    area: 'bookings',
    auth: 'public',
    request: { params: myBookingParamsSchema },
    response: myBookingResponseSchema,
    summary:
      "The visitor's booking behind a private link (my_booking/not_found when unknown, expired or revoked)",
  }),
  cancel: defineRoute({
    method: 'POST',
    path: '/api/my-booking/:token/cancel',
    area: 'bookings',
    auth: 'public',
    request: { params: myBookingParamsSchema },
    response: myBookingResponseSchema,
    summary:
      'The visitor cancels under the policy: refund owed, lockers released, PIN withdrawn, e-mail queued (my_booking/cancel_not_allowed otherwise)',
  }),
  resend: defineRoute({
    method: 'POST',
    path: '/api/my-booking/:token/resend',
    area: 'bookings',
    auth: 'public',
    request: { params: myBookingParamsSchema },
    response: myBookingResendResponseSchema,
    successStatus: 202,
    summary:
      "Sends the booking's confirmation again to its own e-mail address, a few times an hour (my_booking/resend_not_available when not paid)",
  }),
  extend: defineRoute({
    method: 'POST',
    path: '/api/my-booking/:token/extend',
    area: 'bookings',
    auth: 'public',
    request: { params: myBookingParamsSchema, body: myBookingExtendRequestSchema },
    response: htmlPageSchema,
    responseType: 'html',
    summary:
      "Holds the lockers for the longer stay chosen and answers the payment provider's page for the difference (my_booking/extension_not_available, my_booking/extension_locker_taken)",
  }),
  link: defineRoute({
    method: 'POST',
    path: '/api/bookings/:transactionId/my-booking-link',
    area: 'bookings',
    auth: 'public',
    request: { params: z.object({ transactionId: zTransactionId }) },
    response: myBookingLinkResponseSchema,
    successStatus: 201,
    summary: 'A private link for a paid booking, for its completion page (BOOKING_NOT_FOUND otherwise)',
  }),
} as const;

/** The calendar file of a private link (text/calendar, outside the JSON catalogue). */
export const myBookingCalendarPath = (token: string) => `/api/my-booking/${token}/calendar.ics`;

/** The PDF receipt of a private link's paid booking (application/pdf, outside the JSON catalogue). */
export const myBookingReceiptPath = (token: string) => `/api/my-booking/${token}/receipt.pdf`;
