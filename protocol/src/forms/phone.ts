import {
  getCountries,
  getCountryCallingCode,
  isSupportedCountry,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js/max';
import { PHONE_PREFIXES, flagEmoji } from './phone-prefixes';

// Phone numbers of any country, as visitors type them and as we keep them. The web form and the
// server's booking validation both read them through `parsePhone`, so the page never lets through
// a number the server refuses, nor the other way round. Stored as dial code + national number,
// whose concatenation is the E.164 form ('+39' + '3331234567').
//
// libphonenumber-js with its full ("max") metadata checks each country's real numbering plan, not
// only the length: '333 123 4567' is an Italian mobile, '000 000 0000' is nothing.

/** One country of the phone picker. */
export type PhoneCountry = {
  /** ISO 3166-1 alpha-2 code; the picker's value and the source of the flag and the name. */
  countryCode: string;
  /** International dial code with its plus sign, e.g. '+39'. */
  dialCode: string;
  /** Flag emoji of the country. */
  flag: string;
};

/** A number that is valid for its country. */
export type ParsedPhone = {
  /** E.164: '+393331234567'. */
  e164: string;
  /** '+39'. */
  dialCode: string;
  /** The national significant number: '3331234567' (an Italian landline keeps its 0: '0612345678'). */
  nationalNumber: string;
  /** The country the number belongs to, when the numbering plan tells ('IT'); null for some shared codes. */
  countryCode: string | null;
};

export const DEFAULT_PHONE_COUNTRY = 'IT';

/** The longest text accepted in the phone field (spaces and separators included). */
export const PHONE_INPUT_MAX_LENGTH = 32;

// Digits, optionally one leading '+', separated by spaces, dashes, dots, slashes or brackets.
// Letters are refused outright (the library would read "333-FLOWERS" as digits).
const PHONE_INPUT_PATTERN = /^\+?[\d\s().\-/]+$/u;

const countryOf = (code: string): PhoneCountry => ({
  countryCode: code,
  dialCode: `+${getCountryCallingCode(code as CountryCode)}`,
  flag: flagEmoji(code),
});

/**
 * Every country the picker offers: the spec's 43 first, in the spec's order (Italy, the default,
 * first), then every other country with a numbering plan, by ISO code (a page sorts these by the
 * name in its own language).
 */
export const PHONE_COUNTRIES: readonly PhoneCountry[] = Object.freeze(
  (() => {
    const first = PHONE_PREFIXES.map((prefix) => prefix.countryCode);
    const others = getCountries()
      .filter((code) => !first.includes(code) && /^[A-Z]{2}$/.test(code))
      .sort();
    return [...first, ...others].map((code) => Object.freeze(countryOf(code)));
  })(),
);

/** How many of {@link PHONE_COUNTRIES} are the spec's first countries. */
export const FIRST_PHONE_COUNTRIES = PHONE_PREFIXES.length;

/** True for a code the picker offers ('IT', 'GB', 'US'…). */
export function isPhoneCountry(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isSupportedCountry(code);
}

/** Characters a phone field may hold: digits, separators and a leading '+'. Says nothing of validity. */
export function isPhoneInput(value: string): boolean {
  const text = value.trim();
  return text.length <= PHONE_INPUT_MAX_LENGTH && PHONE_INPUT_PATTERN.test(text) && /\d/.test(text);
}

/**
 * Reads a phone number as a visitor types it: '333 123 4567', '333-123-4567', '+39 333 123 4567',
 * '0039 333 123 4567', '(020) 7946 0018'. A number starting with '+' or '00' carries its own
 * country code and wins over `from`; otherwise it is national to `from` (a country such as 'IT', or
 * a dial code such as '+39'), or, with no `from`, the digits are read as country code and number
 * ('393331234567', as the payment calls' `telefono` may come). Null unless the number is valid.
 */
export function parsePhone(
  input: string,
  from?: { country?: string; dialCode?: string },
): ParsedPhone | null {
  if (!isPhoneInput(input)) return null;
  let text = input.trim();
  if (text.startsWith('00')) text = `+${text.slice(2)}`;
  if (!text.startsWith('+') && !from?.country && !from?.dialCode) text = `+${text}`;
  const country = from?.country && isPhoneCountry(from.country) ? (from.country as CountryCode) : undefined;
  const callingCode =
    from?.dialCode && /^\+\d{1,4}$/.test(from.dialCode) ? from.dialCode.slice(1) : undefined;
  if (!text.startsWith('+') && !country && !callingCode) return null;
  const phone = parsePhoneNumberFromString(text, {
    ...(country ? { defaultCountry: country } : { defaultCallingCode: callingCode }),
    extract: false,
  });
  if (!phone?.isValid()) return null;
  return {
    e164: phone.number,
    dialCode: `+${phone.countryCallingCode}`,
    nationalNumber: phone.nationalNumber,
    countryCode: phone.country ?? null,
  };
}

/** A stored number for people to read: '+39 333 123 4567'; the input unchanged if it is not valid. */
export function formatPhone(e164: string): string {
  return parsePhoneNumberFromString(e164)?.formatInternational() ?? e164;
}
