import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PHONE_PREFIX,
  FIRST_PHONE_COUNTRIES,
  PHONE_COUNTRIES,
  PHONE_PREFIXES,
  emptyCustomerForm,
  flagEmoji,
  formatPhone,
  internationalPhone,
  isPhoneCountry,
  normalizeCustomerForm,
  parsePhone,
  paymentPrecheck,
  validateCustomerForm,
  type CustomerForm,
} from './index';

const good: CustomerForm = {
  name: 'Maria',
  surname: 'Rossi',
  email: 'maria.rossi@example.it',
  confirmEmail: 'maria.rossi@example.it',
  phoneCountry: 'IT',
  phone: '3331234567',
};
/** What the pre-check returns for `good`: the phone as dial code and national number. */
const checkedGood = {
  name: 'Maria',
  surname: 'Rossi',
  email: 'maria.rossi@example.it',
  confirmEmail: 'maria.rossi@example.it',
  phonePrefix: '+39',
  phone: '3331234567',
};
const withField = (overrides: Partial<CustomerForm>): CustomerForm => ({ ...good, ...overrides });

describe('PHONE_PREFIXES', () => {
  it('lists 43 countries with Italy (+39, the default) first', () => {
    expect(PHONE_PREFIXES).toHaveLength(43);
    expect(PHONE_PREFIXES[0]).toEqual({ name: 'Italy', countryCode: 'IT', dialCode: '+39', flag: '🇮🇹' });
    expect(DEFAULT_PHONE_PREFIX).toBe('+39');
  });

  it('has unique, well-formed dial codes, names and flags', () => {
    expect(new Set(PHONE_PREFIXES.map((p) => p.dialCode)).size).toBe(43);
    expect(new Set(PHONE_PREFIXES.map((p) => p.name)).size).toBe(43);
    for (const prefix of PHONE_PREFIXES) {
      expect(prefix.dialCode).toMatch(/^\+\d{1,4}$/);
      expect(prefix.flag).toBe(flagEmoji(prefix.countryCode));
      expect([...prefix.flag]).toHaveLength(2);
    }
    expect(PHONE_PREFIXES.find((p) => p.countryCode === 'GB')).toMatchObject({ dialCode: '+44', flag: '🇬🇧' });
    expect(PHONE_PREFIXES.find((p) => p.countryCode === 'JP')).toMatchObject({ dialCode: '+81', flag: '🇯🇵' });
  });

  it('cannot be modified by a consumer', () => {
    expect(Object.isFrozen(PHONE_PREFIXES)).toBe(true);
    expect(Object.isFrozen(PHONE_PREFIXES[0])).toBe(true);
  });

  it('draws flags from country codes only', () => {
    expect(flagEmoji('ES')).toBe('🇪🇸');
    expect(() => flagEmoji('it')).toThrow(RangeError);
    expect(() => flagEmoji('ITA')).toThrow(RangeError);
  });
});

describe('customer form basics', () => {
  it('starts empty with the +39 prefix', () => {
    expect(emptyCustomerForm()).toEqual({
      name: '',
      surname: '',
      email: '',
      confirmEmail: '',
      phoneCountry: 'IT',
      phone: '',
    });
  });

  it('trims fields and reads missing or non-string fields as empty', () => {
    expect(normalizeCustomerForm({ name: '  Maria ', email: 42, phone: undefined })).toEqual({
      name: 'Maria',
      surname: '',
      email: '',
      confirmEmail: '',
      phoneCountry: '',
      phone: '',
    });
  });

  it('joins prefix and number for the payment payload', () => {
    expect(internationalPhone({ phonePrefix: '+39', phone: '3331234567' })).toBe('+393331234567');
    expect(internationalPhone({ phonePrefix: ' +44', phone: '7700900123 ' })).toBe('+447700900123');
  });
});

describe('validateCustomerForm', () => {
  it('gives no message for a good form', () => {
    expect(validateCustomerForm(good)).toEqual({ valid: true, errors: {}, alert: null });
  });

  it('gives every required message and the alert for an empty form', () => {
    expect(validateCustomerForm(emptyCustomerForm())).toEqual({
      valid: false,
      errors: {
        name: 'form.error.name',
        surname: 'form.error.surname',
        email: 'form.error.email.required',
        confirmEmail: 'form.error.confirmEmail.required',
        phone: 'form.error.phone.required',
      },
      alert: 'form.alert.requiredFields',
    });
  });

  it('treats whitespace-only fields as missing', () => {
    const result = validateCustomerForm(withField({ name: '   ', phone: ' ' }));
    expect(result.errors).toEqual({ name: 'form.error.name', phone: 'form.error.phone.required' });
    expect(result.alert).toBe('form.alert.requiredFields');
  });

  it('flags a name or surname with characters other than letters, spaces, apostrophes and hyphens', () => {
    expect(validateCustomerForm(withField({ name: 'Mar1a' })).errors).toEqual({ name: 'form.error.name' });
    expect(validateCustomerForm(withField({ surname: 'Rossi!' })).errors).toEqual({
      surname: 'form.error.surname',
    });
    expect(validateCustomerForm(withField({ name: 'Mar1a' })).alert).toBeNull();
  });

  it('tells a missing email from a malformed one', () => {
    expect(validateCustomerForm(withField({ email: '' })).errors.email).toBe('form.error.email.required');
    expect(validateCustomerForm(withField({ email: 'maria rossi@example.it' })).errors.email).toBe(
      'form.error.email.invalid',
    );
    expect(validateCustomerForm(withField({ email: 'maria@example' })).errors.email).toBe(
      'form.error.email.invalid',
    );
  });

  it('tells a missing confirmation from a mismatch', () => {
    expect(validateCustomerForm(withField({ confirmEmail: '' })).errors).toEqual({
      confirmEmail: 'form.error.confirmEmail.required',
    });
    expect(validateCustomerForm(withField({ confirmEmail: 'maria.rosi@example.it' })).errors).toEqual({
      confirmEmail: 'form.error.confirmEmail.mismatch',
    });
    expect(
      validateCustomerForm(withField({ email: '', confirmEmail: 'maria.rossi@example.it' })).errors,
    ).toEqual({
      email: 'form.error.email.required',
      confirmEmail: 'form.error.confirmEmail.mismatch',
    });
  });

  it('accepts a confirmation differing only in case or surrounding spaces', () => {
    expect(validateCustomerForm(withField({ confirmEmail: ' Maria.Rossi@Example.IT ' })).valid).toBe(true);
  });

  it('tells a missing phone from a malformed one', () => {
    expect(validateCustomerForm(withField({ phone: '' })).errors).toEqual({
      phone: 'form.error.phone.required',
    });
    for (const phone of ['123456', '1234567890123456', '33312345a7', '000 000 0000', '+39', '333 FLOWERS']) {
      expect(validateCustomerForm(withField({ phone })).errors).toEqual({
        phone: 'form.error.phone.invalid',
      });
    }
  });

  it('accepts spaces, dashes and the country code with + or 00', () => {
    for (const phone of [
      '333 123 4567',
      '333-123-4567',
      '+39 333 123 4567',
      '+393331234567',
      '0039 333 1234567',
    ]) {
      expect(validateCustomerForm(withField({ phone }))).toEqual({ valid: true, errors: {}, alert: null });
    }
  });

  it('checks the number against the picked country', () => {
    expect(validateCustomerForm(withField({ phoneCountry: 'US', phone: '(201) 555-0123' })).valid).toBe(true);
    expect(validateCustomerForm(withField({ phoneCountry: 'US', phone: '333 123 4567' })).errors).toEqual({
      phone: 'form.error.phone.invalid',
    });
    // A number with its own country code is read in that country, whatever is picked.
    expect(validateCustomerForm(withField({ phoneCountry: 'US', phone: '+39 333 123 4567' })).valid).toBe(
      true,
    );
  });

  it('raises the alert but no field message when only the country is missing', () => {
    expect(validateCustomerForm(withField({ phoneCountry: '' }))).toEqual({
      valid: false,
      errors: {},
      alert: 'form.alert.requiredFields',
    });
  });
});

describe('paymentPrecheck', () => {
  it('passes a good form and returns it normalized', () => {
    expect(paymentPrecheck({ ...good, name: ' Maria ' })).toEqual({ ok: true, form: checkedGood });
  });

  it('returns the phone as dial code and national number, E.164 together', () => {
    for (const [phoneCountry, phone, phonePrefix, national] of [
      ['IT', '+39 333 123 4567', '+39', '3331234567'],
      ['IT', '06 1234 5678', '+39', '0612345678'],
      ['GB', '07911 123456', '+44', '7911123456'],
      ['US', '201-555-0123', '+1', '2015550123'],
      ['JP', '090-1234-5678', '+81', '9012345678'],
    ] as const) {
      const checked = paymentPrecheck(withField({ phoneCountry, phone }));
      expect(checked).toEqual({ ok: true, form: { ...checkedGood, phonePrefix, phone: national } });
      if (checked.ok) expect(internationalPhone(checked.form)).toBe(`${phonePrefix}${national}`);
    }
  });

  it.each([
    'José',
    'Zoë',
    "D'Angelo",
    'D’Angelo',
    'Anne-Marie',
    'Maria Grazia',
    'Ålesund',
    'Łukasz',
    'Jos\u0065\u0301', // e + combining acute accent
    '山田',
    'やまだ',
    'Müller-Lüdenscheidt',
  ])('accepts the name %j', (name) => {
    expect(paymentPrecheck(withField({ name, surname: name })).ok).toBe(true);
  });

  it.each([
    '',
    '   ',
    'Mar1a',
    'Maria!',
    'Maria.',
    'Maria_Rossi',
    "'-",
    "'",
    '<script>',
    'Maria\tRossi',
    'Maria😀',
  ])('refuses the name %j', (name) => {
    expect(paymentPrecheck(withField({ name }))).toEqual({
      ok: false,
      error: 'payment.error.fields',
      fields: ['name'],
    });
    expect(paymentPrecheck(withField({ surname: name }))).toEqual({
      ok: false,
      error: 'payment.error.fields',
      fields: ['surname'],
    });
  });

  it.each(['a@b.it', 'maria.rossi+locker@mail.example.co.uk', 'MARIA@EXAMPLE.IT', 'ü@exämple.de'])(
    'accepts the email %j',
    (email) => {
      expect(paymentPrecheck(withField({ email, confirmEmail: email })).ok).toBe(true);
    },
  );

  it.each([
    'maria',
    'maria@',
    '@example.it',
    'maria@example',
    'maria@@example.it',
    'ma ria@example.it',
    'maria@exa mple.it',
    'maria@.example.it',
    'maria@example..it',
    'maria@example.it.',
    `${'a'.repeat(250)}@b.it`,
  ])('refuses the email %j', (email) => {
    expect(paymentPrecheck(withField({ email, confirmEmail: email }))).toEqual({
      ok: false,
      error: 'payment.error.fields',
      fields: ['email', 'confirmEmail'],
    });
  });

  it('refuses unequal emails', () => {
    expect(paymentPrecheck(withField({ confirmEmail: 'other@example.it' }))).toEqual({
      ok: false,
      error: 'payment.error.fields',
      fields: ['confirmEmail'],
    });
  });

  it('needs a number of the country', () => {
    expect(paymentPrecheck(withField({ phone: '3331234567' })).ok).toBe(true);
    expect(paymentPrecheck(withField({ phone: '123456' })).ok).toBe(false);
    expect(paymentPrecheck(withField({ phone: '1234567890123456' })).ok).toBe(false);
    expect(paymentPrecheck(withField({ phone: '１２３４５６７' })).ok).toBe(false); // full-width digits
  });

  it('needs a country', () => {
    for (const phoneCountry of ['', 'it', 'XX', 'ITA', '+39']) {
      expect(paymentPrecheck(withField({ phoneCountry }))).toEqual({
        ok: false,
        error: 'payment.error.fields',
        fields: ['phoneCountry', 'phone'],
      });
    }
  });

  it('lists every bad field', () => {
    expect(paymentPrecheck({})).toEqual({
      ok: false,
      error: 'payment.error.fields',
      fields: ['name', 'surname', 'email', 'confirmEmail', 'phoneCountry', 'phone'],
    });
  });

  it('agrees with the live validation on every combination of field states', () => {
    const options: Record<keyof CustomerForm, string[]> = {
      name: ['Maria', '', 'M4ria'],
      surname: ['Rossi', ''],
      email: ['maria@example.it', '', 'maria@'],
      confirmEmail: ['maria@example.it', '', 'MARIA@example.it', 'x@example.it'],
      phoneCountry: ['IT', ''],
      phone: ['3331234567', '', '333'],
    };
    let checked = 0;
    for (const name of options.name)
      for (const surname of options.surname)
        for (const email of options.email)
          for (const confirmEmail of options.confirmEmail)
            for (const phoneCountry of options.phoneCountry)
              for (const phone of options.phone) {
                const form = { name, surname, email, confirmEmail, phoneCountry, phone };
                const live = validateCustomerForm(form);
                expect(paymentPrecheck(form).ok).toBe(live.valid);
                const anyEmpty = Object.values(form).some((value) => value === '');
                expect(live.alert !== null).toBe(anyEmpty);
                checked += 1;
              }
    expect(checked).toBe(3 * 2 * 3 * 4 * 2 * 3);
  });
});

describe('parsePhone', () => {
  it.each([
    ['+39 333 123 4567', { country: 'IT' }],
    ['333 123 4567', { country: 'IT' }],
    ['333-123-4567', { country: 'IT' }],
    ['333.123.4567', { country: 'IT' }],
    ['0039 333 123 4567', { country: 'IT' }],
    ['0039 333 123 4567', { country: 'GB' }],
    ['+39 333 123 4567', { country: 'US' }],
    ['333 123 4567', { dialCode: '+39' }],
    ['393331234567', undefined],
    ['+393331234567', undefined],
    ['  +39 (333) 123-4567 ', undefined],
  ] as const)('reads %j (from %j) as +393331234567', (input, from) => {
    expect(parsePhone(input, from)).toEqual({
      e164: '+393331234567',
      dialCode: '+39',
      nationalNumber: '3331234567',
      countryCode: 'IT',
    });
  });

  it('reads numbers of other countries', () => {
    expect(parsePhone('(201) 555-0123', { country: 'US' })?.e164).toBe('+12015550123');
    expect(parsePhone('201 555 0123', { dialCode: '+1' })?.e164).toBe('+12015550123');
    expect(parsePhone('020 7946 0018', { country: 'GB' })).toMatchObject({
      e164: '+442079460018',
      dialCode: '+44',
      nationalNumber: '2079460018',
      countryCode: 'GB',
    });
    expect(parsePhone('612 34 56 78', { country: 'ES' })?.e164).toBe('+34612345678');
    expect(parsePhone('090-1234-5678', { country: 'JP' })?.e164).toBe('+819012345678');
    expect(parsePhone('0151 23456789', { country: 'DE' })?.e164).toBe('+4915123456789');
    expect(parsePhone('13812345678', { country: 'CN' })?.e164).toBe('+8613812345678');
    // An Italian landline keeps its leading 0 in the national number.
    expect(parsePhone('06 1234 5678', { country: 'IT' })?.e164).toBe('+390612345678');
  });

  it.each([
    ['', { country: 'IT' }],
    ['abc', { country: 'IT' }],
    ['333 FLOWERS', { country: 'IT' }],
    ['123', { country: 'IT' }],
    ['000 000 0000', { country: 'IT' }],
    ['333 123 4567', { country: 'US' }],
    ['3331234567', { country: 'XX' }],
    ['3331234567', { dialCode: '39' }],
    ['+39 333 123 4567 ext', undefined],
    ['++393331234567', undefined],
    ['+39 333 123 4567 89012345678901234567', undefined],
    ['<script>', undefined],
  ] as const)('refuses %j (from %j)', (input, from) => {
    expect(parsePhone(input, from)).toBeNull();
  });

  it('formats a stored number for people', () => {
    expect(formatPhone('+393331234567')).toBe('+39 333 123 4567');
    expect(formatPhone('not a number')).toBe('not a number');
  });
});

describe('PHONE_COUNTRIES', () => {
  it("lists the spec's 43 countries first, in their order, then every other country once", () => {
    expect(FIRST_PHONE_COUNTRIES).toBe(43);
    expect(PHONE_COUNTRIES.slice(0, 43).map((c) => c.countryCode)).toEqual(
      PHONE_PREFIXES.map((p) => p.countryCode),
    );
    expect(PHONE_COUNTRIES[0]).toEqual({ countryCode: 'IT', dialCode: '+39', flag: '🇮🇹' });
    const codes = PHONE_COUNTRIES.map((c) => c.countryCode);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.length).toBeGreaterThan(200);
    // Tourist countries missing from the spec's list are offered too.
    for (const code of ['CA', 'NZ', 'RU', 'TH', 'SG', 'ZA', 'AE', 'PH', 'VN', 'CO', 'CL', 'EG'])
      expect(codes).toContain(code);
    expect(PHONE_COUNTRIES.find((c) => c.countryCode === 'CA')).toMatchObject({ dialCode: '+1', flag: '🇨🇦' });
    for (const country of PHONE_COUNTRIES) expect(isPhoneCountry(country.countryCode)).toBe(true);
  });
});
