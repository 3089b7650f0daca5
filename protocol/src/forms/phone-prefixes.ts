/** One entry of the phone-prefix picker. */
export type PhonePrefix = {
  /** English country name. */
  name: string;
  /** ISO 3166-1 alpha-2 code, from which the flag is drawn. */
  countryCode: string;
  /** International dial code with its plus sign, e.g. '+39'. */
  dialCode: string;
  /** Flag emoji made of the two regional-indicator letters of the country code. */
  flag: string;
};

export const DEFAULT_PHONE_PREFIX = '+39';

/** Flag emoji for an ISO 3166-1 alpha-2 code ('IT' → 🇮🇹). */
export function flagEmoji(countryCode: string): string {
  if (!/^[A-Z]{2}$/.test(countryCode)) throw new RangeError(`Not a country code: ${countryCode}`);
  return String.fromCodePoint(...[...countryCode].map((letter) => 0x1f1e6 + letter.charCodeAt(0) - 65));
}

// Italy first (the default), then Europe, then the rest of the world. Dial codes are unique so the
// picker can use them as values; +1 is listed once, as the United States.
const COUNTRIES: ReadonlyArray<readonly [name: string, countryCode: string, dialCode: string]> = [
  ['Italy', 'IT', '+39'],
  ['United Kingdom', 'GB', '+44'],
  ['France', 'FR', '+33'],
  ['Germany', 'DE', '+49'],
  ['Spain', 'ES', '+34'],
  ['Switzerland', 'CH', '+41'],
  ['Austria', 'AT', '+43'],
  ['Belgium', 'BE', '+32'],
  ['Netherlands', 'NL', '+31'],
  ['Portugal', 'PT', '+351'],
  ['Ireland', 'IE', '+353'],
  ['Luxembourg', 'LU', '+352'],
  ['Denmark', 'DK', '+45'],
  ['Sweden', 'SE', '+46'],
  ['Norway', 'NO', '+47'],
  ['Finland', 'FI', '+358'],
  ['Poland', 'PL', '+48'],
  ['Czechia', 'CZ', '+420'],
  ['Slovakia', 'SK', '+421'],
  ['Hungary', 'HU', '+36'],
  ['Slovenia', 'SI', '+386'],
  ['Croatia', 'HR', '+385'],
  ['Greece', 'GR', '+30'],
  ['Romania', 'RO', '+40'],
  ['Bulgaria', 'BG', '+359'],
  ['Malta', 'MT', '+356'],
  ['San Marino', 'SM', '+378'],
  ['Monaco', 'MC', '+377'],
  ['Albania', 'AL', '+355'],
  ['Serbia', 'RS', '+381'],
  ['Ukraine', 'UA', '+380'],
  ['Turkey', 'TR', '+90'],
  ['United States', 'US', '+1'],
  ['Brazil', 'BR', '+55'],
  ['Argentina', 'AR', '+54'],
  ['Mexico', 'MX', '+52'],
  ['China', 'CN', '+86'],
  ['Japan', 'JP', '+81'],
  ['South Korea', 'KR', '+82'],
  ['India', 'IN', '+91'],
  ['Australia', 'AU', '+61'],
  ['Israel', 'IL', '+972'],
  ['Morocco', 'MA', '+212'],
];

/** The 43 countries of the phone-prefix picker, Italy (+39, the default) first. */
export const PHONE_PREFIXES: readonly PhonePrefix[] = Object.freeze(
  COUNTRIES.map(([name, countryCode, dialCode]) =>
    Object.freeze({ name, countryCode, dialCode, flag: flagEmoji(countryCode) }),
  ),
);
