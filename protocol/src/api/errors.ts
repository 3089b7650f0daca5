import { z } from 'zod';
import { TEXT_LIMITS } from '../schemas/limits';

/**
 * Every error the API answers with: a stable code, its HTTP status and a default English message
 * for logs and API clients. Codes never change once released; the web maps them to translation
 * keys. Upper-case codes are the ones the legacy pages already know (customer spec §8).
 */
export const ERROR_CODES = {
  // Request shape
  'validation/invalid_body': { status: 400, message: 'The request body is not valid' },
  'validation/invalid_query': { status: 400, message: 'The query string is not valid' },
  'validation/invalid_params': { status: 400, message: 'The path parameters are not valid' },
  'request/too_large': { status: 413, message: 'The request is too large' },
  'request/rate_limited': { status: 429, message: 'Too many requests, try again later' },
  'route/not_found': { status: 404, message: 'No such endpoint' },
  // A request otherwise well formed whose phone is not a number of its country (customer details, payments).
  'customer/phone_invalid': { status: 400, message: 'Not a valid phone number for its country' },

  // Completion page and payment (names the customer pages already handle)
  NO_PARAMS: { status: 400, message: 'No payment parameters were given' },
  NO_TRANSACTION_ID: { status: 400, message: 'No transaction id was given' },
  BOOKING_NOT_FOUND: { status: 404, message: 'Booking not found' },
  // A private booking link that is unknown, expired or revoked (one answer for all three).
  'my_booking/not_found': { status: 404, message: 'This booking link is not valid or has expired' },
  // The visitor's cancellation outside the policy (started, same day, not paid, or never online).
  'my_booking/cancel_not_allowed': { status: 409, message: 'This booking cannot be cancelled online' },
  // The receipt of a booking that is not paid (or was cancelled with a refund).
  'my_booking/receipt_not_available': { status: 409, message: 'This booking has no receipt' },
  // Resending the confirmation of a booking that is not paid (nothing to confirm) or has no e-mail.
  'my_booking/resend_not_available': {
    status: 409,
    message: 'The confirmation of this booking cannot be sent again',
  },
  // Extending a stay that cannot be (not in progress, over, as long as allowed, or not a length on offer).
  'my_booking/extension_not_available': { status: 409, message: 'This booking cannot be extended' },
  // Extending when the lockers are booked by someone else right after the current end.
  'my_booking/extension_locker_taken': {
    status: 409,
    message: 'The locker is booked by someone else after your end',
  },
  // 409: the booking exists but its payment window closed; nothing to retry with the same booking.
  BOOKING_EXPIRED: { status: 409, message: 'The booking has expired' },

  // Bookings
  'booking/locker_unavailable': { status: 409, message: 'No locker of that size is free for that time' },
  'booking/price_mismatch': { status: 400, message: 'The price sent differs from the current price' },
  'booking/invalid_period': { status: 400, message: 'That start or duration cannot be booked' },
  // A period the customer pages never offer (protocol's offeredWindowVerdict); nothing is held.
  'booking/start_not_offered': { status: 400, message: 'That start time is not offered' },
  'booking/duration_not_offered': { status: 400, message: 'That duration is not offered for that start' },
  'booking/ends_after_closing': { status: 400, message: 'That stay would end after closing time' },
  'booking/fast_track_closed': { status: 400, message: 'Start-now bookings are closed at this hour' },
  'booking/quantity_not_allowed': { status: 400, message: 'That quantity cannot be booked' },
  // A table priced so high that the booking's total would pass the largest amount we carry.
  'booking/amount_too_high': {
    status: 409,
    message: 'The total of this booking is too high to be paid online',
  },
  'booking/invalid_state': { status: 409, message: 'The booking cannot change from its current status' },
  'booking/maintenance': { status: 503, message: 'Bookings are paused for maintenance' },
  // One client holding more lockers than a visitor would (abuse limits, TRUST_PROXY/LIMIT_HELD_LOCKERS).
  'booking/too_many_lockers_held': { status: 429, message: 'Too many lockers held from this address' },
  // The visitor opened the payment page for this hold's amount: the hold is frozen from then on.
  'booking/payment_started': {
    status: 409,
    message: 'A payment is open for this booking: it can no longer be changed',
  },

  // Discounts
  'discount/invalid': { status: 400, message: 'The discount code is not valid' },
  'discount/expired': { status: 400, message: 'The discount code has expired' },
  'discount/min_days': { status: 400, message: 'The discount code needs a longer stay' },
  'discount/already_used': { status: 409, message: 'The discount code has already been used' },
  'discount/already_exists': { status: 409, message: 'A discount code with that name exists' },
  'discount/not_found': { status: 404, message: 'Discount code not found' },
  'discount/period_inverted': { status: 400, message: 'validFrom is after validTo' },
  // A live checkout (a hold not yet paid) carries the code: deleting or renaming it would change its total.
  'discount/in_use': { status: 409, message: 'A checkout in progress uses this discount code' },

  // Locations and lockers
  'location/not_found': { status: 404, message: 'Location not found' },
  'location/already_exists': { status: 409, message: 'A location with that id or key exists' },
  'location/same_source_and_target': { status: 400, message: 'Source and target must differ' },
  'location/has_bookings': { status: 409, message: 'The location still has active bookings' },
  // A key that names one of our own pages or paths (`admin`, `api`…): the location could not be reached.
  'location/key_reserved': { status: 400, message: 'This word is reserved and cannot be a location key' },
  // Price tables: every price above zero, each duration once (a second row would overwrite the first).
  'location/price_not_positive': { status: 400, message: 'Every price must be above zero' },
  'location/duplicate_duration': { status: 400, message: 'A duration appears twice in a price table' },
  'locker/not_found': { status: 404, message: 'Locker not found at this location' },
  // Nothing was done: the action would cancel a live booking; details name it, `confirm: true` goes on.
  'locker/booking_live': {
    status: 409,
    message: 'A live booking holds this locker: confirm to cancel it with the action',
  },

  // System parameters that would harm every site: refused, nothing saved.
  'settings/block_window_empty': { status: 400, message: 'A block window starts and ends at the same time' },
  'settings/block_windows_overlap': { status: 400, message: 'Two block windows overlap' },
  'settings/fast_track_inverted': { status: 400, message: 'The fast-track window must start before it ends' },

  // Edge bridge and controller
  'bridge/offline': { status: 503, message: 'The location is offline' },
  // Not a failure: the command is stored and runs when the bridge reconnects (before its expiry).
  // Locker actions answer 202 with `outcome: 'queued'`; this code names that outcome for the web.
  'bridge/queued': { status: 202, message: 'The command is queued until the location reconnects' },
  'bridge/timeout': { status: 504, message: 'The location did not answer in time' },
  'bridge/command_failed': { status: 502, message: 'The locker controller refused the command' },
  'bridge/command_expired': { status: 504, message: 'The command expired before it could run' },

  // Payments and takings
  'payment/amount_too_low': { status: 400, message: 'The amount is below the minimum' },
  'payment/provider_error': { status: 502, message: 'The payment provider failed' },
  'payment/invalid_parameters': { status: 400, message: 'The payment parameters cannot be read' },
  // A genuine return link read again after it expired: the booking's details went out by e-mail.
  'payment/result_expired': { status: 410, message: 'This payment link has expired' },
  'takings/totem_unavailable': { status: 502, message: 'The totem payment system cannot be reached' },

  // Administrators
  'auth/unauthorized': { status: 401, message: 'Log in as an administrator' },
  // A site operator or technician asking for what their role or their sites do not include.
  'auth/forbidden': { status: 403, message: 'Your role does not allow this' },
  'auth/invalid_credentials': { status: 401, message: 'Invalid credentials' },
  'auth/too_many_attempts': { status: 429, message: 'Too many login attempts, try again later' },
  // A state change authenticated by the admin cookie without our pages' header or from another origin.
  'auth/csrf_rejected': { status: 403, message: 'Request refused: not sent by the admin pages' },
  'user/sites_required': {
    status: 400,
    message: 'An administrator has every site; a site operator or technician needs at least one',
  },
  'user/already_exists': { status: 409, message: 'An administrator with that e-mail exists' },
  'user/not_found': { status: 404, message: 'Administrator not found' },
  'user/last_admin': { status: 409, message: 'The last administrator cannot be removed' },
  // Setting another administrator's password needs the acting one's password, checked again.
  'user/current_password_invalid': {
    status: 403,
    message: "Your current password is needed to set another administrator's password",
  },
  // A new administrator password among the most common ones (cloud/src/auth/common-passwords.txt).
  'user/password_too_common': {
    status: 400,
    message: 'That password is one of the most common: choose another',
  },

  // Operator edits: the save was made from an older read; another operator saved in between.
  // Nothing changed; details say who saved last and when, the page offers to reload.
  'edit/stale': { status: 409, message: 'Someone else changed this since it was loaded: reload it' },

  internal: { status: 500, message: 'Something went wrong on our side' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;
export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];
export const errorCodeSchema = z.enum(ERROR_CODE_LIST);

/** The HTTP status that goes with a code. */
export function httpStatusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}

/** One problem found while parsing a request, for `details` of a validation error. */
export const validationIssueSchema = z.object({
  path: z.string().max(300),
  message: z.string().max(TEXT_LIMITS.message),
});
export type ValidationIssue = z.infer<typeof validationIssueSchema>;

/**
 * `{ error: { code, message, details? } }`. The code is read as a plain string so a client
 * still understands an answer from a newer server; `isErrorCode` narrows it.
 */
export const errorBodySchema = z.object({
  error: z.object({
    code: z.string().max(80),
    message: z.string().max(TEXT_LIMITS.message),
    details: z.unknown().optional(),
  }),
});
export type ErrorBody = z.infer<typeof errorBodySchema>;

export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && Object.hasOwn(ERROR_CODES, code);
}

/** Builds an error body with the code's default message unless one is given. */
export function errorBody(code: ErrorCode, message?: string, details?: unknown): ErrorBody {
  const error: ErrorBody['error'] = { code, message: message ?? ERROR_CODES[code].message };
  if (details !== undefined) error.details = details;
  return { error };
}
