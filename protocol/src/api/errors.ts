import { z } from 'zod';
import { TEXT_LIMITS } from '../schemas/limits';

/** An error's HTTP status and the default English message its body carries. */
interface ErrorDefinition {
  readonly status: number;
  readonly message: string;
}

function error(status: number, message: string): ErrorDefinition {
  return { status, message };
}

/**
 * Every error the API answers with: a stable code, its HTTP status and a default English message
 * for logs and API clients. Codes never change once released; the web maps them to translation
 * keys. Upper-case codes are the ones the legacy pages already know (customer spec §8).
 */
export const ERROR_CODES = {
  // Request shape
  'validation/invalid_body': error(400, 'The request body is not valid'),
  'validation/invalid_query': error(400, 'The query string is not valid'),
  'validation/invalid_params': error(400, 'The path parameters are not valid'),
  'request/too_large': error(413, 'The request is too large'),
  'request/rate_limited': error(429, 'Too many requests, try again later'),
  'route/not_found': error(404, 'No such endpoint'),
  // A request otherwise well formed whose phone is not a number of its country (customer details, payments).
  'customer/phone_invalid': error(400, 'Not a valid phone number for its country'),

  // Completion page and payment (names the customer pages already handle)
  NO_PARAMS: error(400, 'No payment parameters were given'),
  NO_TRANSACTION_ID: error(400, 'No transaction id was given'),
  BOOKING_NOT_FOUND: error(404, 'Booking not found'),
  // A private booking link that is unknown, expired or revoked (one answer for all three).
  'my_booking/not_found': error(404, 'This booking link is not valid or has expired'),
  // The visitor's cancellation outside the policy (started, same day, not paid, or never online).
  'my_booking/cancel_not_allowed': error(409, 'This booking cannot be cancelled online'),
  // The receipt of a booking that is not paid (or was cancelled with a refund).
  'my_booking/receipt_not_available': error(409, 'This booking has no receipt'),
  // Resending the confirmation of a booking that is not paid (nothing to confirm) or has no e-mail.
  'my_booking/resend_not_available': error(409, 'The confirmation of this booking cannot be sent again'),
  // Extending a stay that cannot be (not in progress, over, as long as allowed, or not a length on offer).
  'my_booking/extension_not_available': error(409, 'This booking cannot be extended'),
  // Extending when the lockers are booked by someone else right after the current end.
  'my_booking/extension_locker_taken': error(409, 'The locker is booked by someone else after your end'),
  // 409: the booking exists but its payment window closed; nothing to retry with the same booking.
  BOOKING_EXPIRED: error(409, 'The booking has expired'),

  // Bookings
  'booking/locker_unavailable': error(409, 'No locker of that size is free for that time'),
  'booking/price_mismatch': error(400, 'The price sent differs from the current price'),
  'booking/invalid_period': error(400, 'That start or duration cannot be booked'),
  // A period the customer pages never offer (protocol's offeredWindowVerdict); nothing is held.
  'booking/start_not_offered': error(400, 'That start time is not offered'),
  'booking/duration_not_offered': error(400, 'That duration is not offered for that start'),
  'booking/ends_after_closing': error(400, 'That stay would end after closing time'),
  'booking/fast_track_closed': error(400, 'Start-now bookings are closed at this hour'),
  'booking/quantity_not_allowed': error(400, 'That quantity cannot be booked'),
  // A table priced so high that the booking's total would pass the largest amount we carry.
  'booking/amount_too_high': error(409, 'The total of this booking is too high to be paid online'),
  'booking/invalid_state': error(409, 'The booking cannot change from its current status'),
  'booking/maintenance': error(503, 'Bookings are paused for maintenance'),
  // One client holding more lockers than a visitor would (abuse limits, TRUST_PROXY/LIMIT_HELD_LOCKERS).
  'booking/too_many_lockers_held': error(429, 'Too many lockers held from this address'),
  // The visitor opened the payment page for this hold's amount: the hold is frozen from then on.
  'booking/payment_started': error(409, 'A payment is open for this booking: it can no longer be changed'),

  // Discounts
  'discount/invalid': error(400, 'The discount code is not valid'),
  'discount/expired': error(400, 'The discount code has expired'),
  'discount/min_days': error(400, 'The discount code needs a longer stay'),
  'discount/already_used': error(409, 'The discount code has already been used'),
  'discount/already_exists': error(409, 'A discount code with that name exists'),
  'discount/not_found': error(404, 'Discount code not found'),
  'discount/period_inverted': error(400, 'validFrom is after validTo'),
  // A live checkout (a hold not yet paid) carries the code: deleting or renaming it would change its total.
  'discount/in_use': error(409, 'A checkout in progress uses this discount code'),

  // Locations and lockers
  'location/not_found': error(404, 'Location not found'),
  'location/already_exists': error(409, 'A location with that id or key exists'),
  'location/same_source_and_target': error(400, 'Source and target must differ'),
  'location/has_bookings': error(409, 'The location still has active bookings'),
  // A key that names one of our own pages or paths (`admin`, `api`…): the location could not be reached.
  'location/key_reserved': error(400, 'This word is reserved and cannot be a location key'),
  // Price tables: every price above zero, each duration once (a second row would overwrite the first).
  'location/price_not_positive': error(400, 'Every price must be above zero'),
  'location/duplicate_duration': error(400, 'A duration appears twice in a price table'),
  'locker/not_found': error(404, 'Locker not found at this location'),
  // Nothing was done: the action would cancel a live booking; details name it, `confirm: true` goes on.
  'locker/booking_live': error(409, 'A live booking holds this locker: confirm to cancel it with the action'),

  // System parameters that would harm every site: refused, nothing saved.
  'settings/block_window_empty': error(400, 'A block window starts and ends at the same time'),
  'settings/block_windows_overlap': error(400, 'Two block windows overlap'),
  'settings/fast_track_inverted': error(400, 'The fast-track window must start before it ends'),

  // Edge bridge and controller
  'bridge/offline': error(503, 'The location is offline'),
  // Not a failure: the command is stored and runs when the bridge reconnects (before its expiry).
  // Locker actions answer 202 with `outcome: 'queued'`; this code names that outcome for the web.
  'bridge/queued': error(202, 'The command is queued until the location reconnects'),
  'bridge/timeout': error(504, 'The location did not answer in time'),
  'bridge/command_failed': error(502, 'The locker controller refused the command'),
  'bridge/command_expired': error(504, 'The command expired before it could run'),

  // Payments and takings
  'payment/amount_too_low': error(400, 'The amount is below the minimum'),
  'payment/provider_error': error(502, 'The payment provider failed'),
  'payment/invalid_parameters': error(400, 'The payment parameters cannot be read'),
  // A genuine return link read again after it expired: the booking's details went out by e-mail.
  'payment/result_expired': error(410, 'This payment link has expired'),
  'takings/totem_unavailable': error(502, 'The totem payment system cannot be reached'),

  // Administrators
  'auth/unauthorized': error(401, 'Log in as an administrator'),
  // A site operator or technician asking for what their role or their sites do not include.
  'auth/forbidden': error(403, 'Your role does not allow this'),
  'auth/invalid_credentials': error(401, 'Invalid credentials'),
  'auth/too_many_attempts': error(429, 'Too many login attempts, try again later'),
  // A state change authenticated by the admin cookie without our pages' header or from another origin.
  'auth/csrf_rejected': error(403, 'Request refused: not sent by the admin pages'),
  'user/sites_required': error(
    400,
    'An administrator has every site; a site operator or technician needs at least one',
  ),
  'user/already_exists': error(409, 'An administrator with that e-mail exists'),
  'user/not_found': error(404, 'Administrator not found'),
  'user/last_admin': error(409, 'The last administrator cannot be removed'),
  // Setting another administrator's password needs the acting one's password, checked again.
  'user/current_password_invalid': error(
    403,
    "Your current password is needed to set another administrator's password",
  ),
  // A new administrator password among the most common ones (cloud/src/auth/common-passwords.txt).
  'user/password_too_common': error(400, 'That password is one of the most common: choose another'),

  // Operator edits: the save was made from an older read; another operator saved in between.
  // Nothing changed; details say who saved last and when, the page offers to reload.
  'edit/stale': error(409, 'Someone else changed this since it was loaded: reload it'),

  internal: error(500, 'Something went wrong on our side'),
};

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
