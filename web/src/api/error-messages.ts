import { CLIENT_ERROR_CODES, isApiError } from './http';

/** Server and client error codes the customer pages explain in their own words. */
const KEYS: Record<string, string> = {
  [CLIENT_ERROR_CODES.network]: 'errors.network',
  [CLIENT_ERROR_CODES.timeout]: 'errors.timeout',
  [CLIENT_ERROR_CODES.invalidResponse]: 'errors.unexpected',
  BOOKING_EXPIRED: 'errors.bookingExpired',
  BOOKING_NOT_FOUND: 'complete.notFound.title',
  'my_booking/not_found': 'myBooking.notFound.title',
  'my_booking/cancel_not_allowed': 'myBooking.cancel.refused',
  'my_booking/resend_not_available': 'myBooking.resend.refused',
  'my_booking/extension_not_available': 'myBooking.extend.refused',
  'my_booking/extension_locker_taken': 'myBooking.extend.refusal.locker_taken',
  'booking/locker_unavailable': 'errors.lockerUnavailable',
  'booking/price_mismatch': 'errors.priceChanged',
  'booking/invalid_period': 'errors.invalidPeriod',
  'booking/start_not_offered': 'errors.startNotOffered',
  'booking/duration_not_offered': 'errors.durationNotOffered',
  'booking/ends_after_closing': 'errors.endsAfterClosing',
  'booking/fast_track_closed': 'errors.fastTrackClosed',
  'booking/quantity_not_allowed': 'errors.quantityNotAllowed',
  'booking/amount_too_high': 'errors.amountTooHigh',
  'booking/invalid_state': 'errors.bookingExpired',
  'booking/maintenance': 'errors.maintenance',
  'booking/payment_started': 'errors.paymentStarted',
  'customer/phone_invalid': 'form.error.phone.invalid',
  'bridge/offline': 'errors.locationOffline',
  'bridge/timeout': 'errors.locationOffline',
  'payment/amount_too_low': 'payment.error.amount',
  'payment/provider_error': 'errors.paymentProvider',
  'request/rate_limited': 'errors.rateLimited',
  'validation/invalid_body': 'errors.invalidInput',
  'validation/invalid_query': 'errors.invalidInput',
  'validation/invalid_params': 'errors.invalidInput',
  'booking/too_many_lockers_held': 'errors.tooManyLockersHeld',
};

/** The translation key for an error, or `fallbackKey` when the code has no text of its own. */
export function errorMessageKey(error: unknown, fallbackKey: string): string {
  return isApiError(error) ? (KEYS[error.code] ?? fallbackKey) : fallbackKey;
}
