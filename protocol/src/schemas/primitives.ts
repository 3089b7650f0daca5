import { z } from 'zod';
import { LOCKER_SIZES } from '../pricing/index';
import { BOOKING_STATUSES, LANGUAGES, MAX_QUANTITY } from '../booking/index';
import type { ErrorCode } from '../api/errors';
import {
  PHONE_INPUT_MAX_LENGTH,
  isDialCode,
  isEmail,
  isPersonName,
  isPhoneInput,
  parsePhone,
} from '../forms/index';
import {
  LOCATION_KEY_MAX_LENGTH,
  LOCATION_KEY_PATTERN,
  MAX_LOCKER_NUMBER,
  LOCATION_TIMEZONES,
  MAX_EUROS,
  RESERVED_LOCATION_KEYS,
  TWO_DECIMALS_REFINEMENT,
  hasAtMostTwoDecimals,
  TEXT_LIMITS,
  TIME_OF_DAY_PATTERN,
} from './limits';

export * from './limits';

// Reusable building blocks. Every string has an upper bound so a huge body is rejected at the edge
// before any service sees it.

/** An instant on the wire: ISO 8601 with `Z` or an explicit offset (never a zone-less local time). */
export const zIsoDateTime = z.iso.datetime({ offset: true });

/** A calendar day `yyyy-MM-dd` that exists (zod checks month lengths and leap years: 2026-02-30 fails). */
export const zIsoDate = z.iso.date();

/** A time of day `HH:mm`, 00:00 to 23:59. */
export const zTimeOfDay = z.string().regex(TIME_OF_DAY_PATTERN, 'Expected a time of day HH:mm');

/** A location's key (and backend id): lowercase slug such as `oca` or `campo-2`. */
export const zLocationKey = z
  .string()
  .max(LOCATION_KEY_MAX_LENGTH)
  .regex(LOCATION_KEY_PATTERN, 'Expected a lowercase location key')
  .refine((key) => !(RESERVED_LOCATION_KEYS as readonly string[]).includes(key), {
    message: 'This word is reserved and cannot be a location key',
    params: { code: 'location/key_reserved' satisfies ErrorCode },
  });

export const zTimezone = z.enum(LOCATION_TIMEZONES);
export type LocationTimezone = z.infer<typeof zTimezone>;

export const zLockerSize = z.enum(LOCKER_SIZES);
export const zBookingStatus = z.enum(BOOKING_STATUSES);
export const zLanguage = z.enum(LANGUAGES);

/** A physical locker number as the controller knows it. */
export const zLockerNumber = z.number().int().min(1).max(MAX_LOCKER_NUMBER);

/** A locker number from a query string, a form or a legacy payload that may send it as text. */
export const zLockerNumberInput = z.union([
  zLockerNumber,
  z
    .string()
    .regex(/^\d{1,5}$/)
    .transform(Number)
    .pipe(zLockerNumber),
]);

/** The 6-digit PIN that opens a booked locker. */
export const zPin = z.string().regex(/^\d{6}$/, 'Expected a 6-digit PIN');

/**
 * A booking's transaction id. Legacy browsers send `BOOKING-{timestamp}`; the server issues
 * unguessable ids of the same alphabet, so both fit here.
 */
export const zTransactionId = z
  .string()
  .min(6)
  .max(80)
  .regex(/^[A-Za-z0-9_-]+$/, 'Expected a transaction id');

/**
 * A number with at most two decimals: `multipleOf(0.01)`, as the API's description states it, and
 * where zod's check cannot tell (numbers too small to have decimals to compare) `hasAtMostTwoDecimals`.
 */
export function twoDecimals(schema: z.ZodNumber): z.ZodNumber {
  return schema.multipleOf(0.01).refine(hasAtMostTwoDecimals, TWO_DECIMALS_REFINEMENT);
}

/** Euros with at most two decimals, as the spec's payloads and price tables carry them. */
export const zEuros = twoDecimals(z.number().min(0).max(MAX_EUROS));

/** Euros that may be negative: a day's takings net of the refunds made that day. */
export const zSignedEuros = twoDecimals(z.number().min(-MAX_EUROS).max(MAX_EUROS));

/** Integer cents, the unit of money inside the system. */
export const zCents = z.number().int().min(0).max(10_000_000);

/** A count of lockers or bookings. */
export const zCount = z.number().int().min(0).max(1_000_000_000);

/**
 * The version of a row an operator edits, as it was read: each save sends it back and raises it by
 * one; a save sent with an older version is refused (`edit/stale`) and changes nothing.
 */
export const zEditVersion = z.number().int().min(1).max(2_147_483_647);

/** Quantity of lockers in one customer booking (spec: at most 3). */
export const zQuantity = z.number().int().min(1).max(MAX_QUANTITY);

/** Bounded free text. */
export const zBoundedString = (max: number) => z.string().max(max);

// The person, e-mail and phone rules are the customer form's (../forms), so the server accepts
// exactly what the summary page lets through. Values are trimmed first, as the form does.

/** Letters (accented and other scripts), spaces, apostrophes and hyphens: the spec's name rule. */
export const zPersonName = z
  .string()
  .trim()
  .min(1)
  .max(TEXT_LIMITS.name)
  .refine(isPersonName, 'Letters, spaces, apostrophes and hyphens only');

/** An e-mail address; spaces make it invalid (spec: valid format without spaces). */
export const zEmail = z.string().trim().max(TEXT_LIMITS.email).refine(isEmail, 'Not a valid e-mail address');

/** A dial code such as `+39` (default) or `+1`. */
export const zPhonePrefix = z.string().trim().max(5).refine(isDialCode, 'Expected a dial code such as +39');

/**
 * How a refused phone number is reported: its own error code (not the generic invalid body), so
 * the page can say that the phone is what is wrong.
 */
export const PHONE_REFUSAL = {
  message: 'Not a valid phone number for its country',
  params: { code: 'customer/phone_invalid' satisfies ErrorCode },
};

/**
 * A phone number as typed: digits with spaces, dashes or brackets, maybe a leading `+` or `00`
 * with the country code. Whether it is a real number of its country is checked with its prefix.
 */
export const zPhoneNumber = z.string().trim().max(PHONE_INPUT_MAX_LENGTH).refine(isPhoneInput, PHONE_REFUSAL);

/** Prefix and number in one string, as the payment calls send `telefono`; read as E.164 ('+393331234567'). */
export const zFullPhone = z
  .string()
  .trim()
  .max(PHONE_INPUT_MAX_LENGTH)
  .transform((value, ctx) => {
    const phone = parsePhone(value);
    if (phone) return phone.e164;
    ctx.addIssue({ code: 'custom', input: value, ...PHONE_REFUSAL });
    return z.NEVER;
  });

/** The booking note, `lang:{code}` with tags such as `;fasttrack`, `;fasttrack-fallback` or a night marker. */
export const zBookingNote = z.string().max(TEXT_LIMITS.note);

/** A discount code as typed: trimmed, letters, digits, `-` and `_`. */
export const zDiscountCode = z
  .string()
  .trim()
  .min(1)
  .max(40)
  .regex(/^[A-Za-z0-9_-]+$/, 'Letters, digits, - and _ only');

/** Host name or IPv4/IPv6 address of a locker controller. */
export const zHost = z
  .string()
  .min(1)
  .max(253)
  .regex(/^[A-Za-z0-9.:_-]+$/, 'Expected a host name or IP address');

export const zPort = z.number().int().min(1).max(65_535);

/** A `{from, to}` window of times of day, e.g. a maintenance block window or the fast-track hours. */
export const timeWindowSchema = z.object({ from: zTimeOfDay, to: zTimeOfDay });
export type TimeWindow = z.infer<typeof timeWindowSchema>;

/** Booleans in query strings arrive as text: `true/false`, `1/0`, `yes/no`. */
export const zQueryBoolean = z.stringbool();

/** A number in a query string. */
export const zQueryInt = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

/** Availability counts per size for one day. */
export const sizeCountsSchema = z.object({ standard: zCount, large: zCount });
export type SizeCounts = z.infer<typeof sizeCountsSchema>;
