// The bounds and patterns the schemas enforce, without zod: a page that checks its first answers
// with a lighter validator shares these values instead of copying them.

/** Upper bounds for free text, shared by every schema that carries such a field. */
export const TEXT_LIMITS = {
  name: 80,
  email: 254,
  note: 500,
  description: 500,
  address: 200,
  message: 1000,
  shortText: 120,
  token: 4096,
} as const;

/** A time of day `HH:mm`, 00:00 to 23:59. */
export const TIME_OF_DAY_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$/;

/**
 * Words a location key cannot be: they name something else in paths and filters
 * (`/api/locations/all`), or a page of ours at the top of the site (`/{location}` would never reach
 * a location called `admin`).
 */
export const RESERVED_LOCATION_KEYS = [
  'all',
  'new',
  'admin',
  'api',
  'assets',
  'locales',
  'bridge',
  'embed',
  'booking-notte',
  'booking-complete',
  'booking-completa',
  'my-booking',
  'healthz',
  'readyz',
  'metrics',
] as const;

/** The highest locker number a controller has (lockers are numbered from 1). */
export const MAX_LOCKER_NUMBER = 99_999;

/** A location's key (and backend id): lowercase slug such as `oca` or `campo-2`. */
export const LOCATION_KEY_MAX_LENGTH = 40;
export const LOCATION_KEY_PATTERN = /^[a-z0-9](?:[a-z0-9_-]*[a-z0-9])?$/;

/** The IANA zones a location may use (admin spec §3); Europe/Rome is the default. */
export const LOCATION_TIMEZONES = [
  'Europe/Rome',
  'Europe/London',
  'America/New_York',
  'Asia/Tokyo',
  'UTC',
] as const;
export const DEFAULT_TIMEZONE = 'Europe/Rome';

/** Euros on the wire: at most this much, in steps of one cent. */
export const MAX_EUROS = 100_000;

/**
 * Whether a number has at most two decimals exactly, as a payload writes an amount in euros ("12.5",
 * "0.07") or a percent: the double nearest to n/100 for a whole n. zod's `multipleOf(0.01)` compares
 * decimal digits and lets through numbers too small to have any to compare (5e-324 € passed, and a
 * discount or a price stored as 0 cents).
 */
export function hasAtMostTwoDecimals(value: number): boolean {
  return Number.isFinite(value) && Math.round(value * 100) / 100 === value;
}

/**
 * How both zod flavours (protocol's schemas, the location page's zod/mini mirror) add
 * `hasAtMostTwoDecimals` after `multipleOf(0.01)`: with the message zod's own check gives, and only
 * where that check passed, so a number gets one issue, not two.
 */
export const TWO_DECIMALS_REFINEMENT = {
  message: 'Invalid number: must be a multiple of 0.01',
  when: (payload: { issues: readonly unknown[] }) => payload.issues.length === 0,
};

/** A duration value as a price-table key: hours (`"3"`) or days (`"1"` … `"15"`). */
export const DURATION_KEY_PATTERN = /^[1-9]\d{0,2}$/;

/** Rows of one price table at most. */
export const MAX_PRICE_ROWS = 60;

/** Block windows the settings may hold at most. */
export const MAX_BLOCK_WINDOWS = 24;

/** Longest locker measurements text an operator may write (system settings LOCKER_DIMENSIONS_*). */
export const MAX_DIMENSIONS_LENGTH = 60;
