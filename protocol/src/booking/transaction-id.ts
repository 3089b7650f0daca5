// Booking ids are unguessable: the prefix the legacy clients expect, then at least 128 random bits.
// The cloud draws the bytes with crypto; this module only shapes and recognises them.

export const TRANSACTION_ID_PREFIX = 'BOOKING-';

/** Fewest random bytes behind an id (128 bits). */
export const TRANSACTION_ID_MIN_BYTES = 16;

// 22 base64url characters carry 132 bits, 32 hex characters exactly 128; the upper bound keeps
// lookups with absurd ids cheap.
const TRANSACTION_ID_PATTERN = /^BOOKING-(?:[A-Za-z0-9_-]{22,86}|[0-9a-f]{32})$/;

const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** True for an id we issue: BOOKING- then ≥ 22 base64url characters or 32 hex digits. Legacy BOOKING-{timestamp} ids are not. */
export function isTransactionId(value: unknown): value is string {
  return typeof value === 'string' && TRANSACTION_ID_PATTERN.test(value);
}

/** Shapes random bytes (at least 16) into an id: BOOKING- plus unpadded base64url. */
export function transactionIdFromBytes(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array) || bytes.length < TRANSACTION_ID_MIN_BYTES || bytes.length > 64) {
    throw new RangeError(`A transaction id needs ${TRANSACTION_ID_MIN_BYTES} to 64 random bytes`);
  }
  return TRANSACTION_ID_PREFIX + base64url(bytes);
}

function base64url(bytes: Uint8Array): string {
  let out = '';
  for (let index = 0; index < bytes.length; index += 3) {
    const chunk = (bytes[index] << 16) | ((bytes[index + 1] ?? 0) << 8) | (bytes[index + 2] ?? 0);
    const chars = Math.min(4, Math.ceil(((bytes.length - index) * 8) / 6));
    for (let shift = 0; shift < chars; shift += 1)
      out += BASE64URL_ALPHABET[(chunk >> (18 - shift * 6)) & 63];
  }
  return out;
}
