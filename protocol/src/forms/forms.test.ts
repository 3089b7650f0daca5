import { describe, expect, it } from 'vitest';
import {
  DEFAULT_PHONE_PREFIX,
  PHONE_PREFIXES,
  emptyCustomerForm,
  flagEmoji,
  internationalPhone,
  normalizeCustomerForm,
  paymentPrecheck,
  validateCustomerForm,
  type CustomerForm,
} from './index';

const good: CustomerForm = {
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
      phonePrefix: '+39',
      phone: '',
    });
  });

  it('trims fields and reads missing or non-string fields as empty', () => {
    expect(normalizeCustomerForm({ name: '  Maria ', email: 42, phone: undefined })).toEqual({
      name: 'Maria',
      surname: '',
      email: '',
      confirmEmail: '',
      phonePrefix: '',
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
    for (const phone of [
      '333 1234567',
      '333-1234567',
      '+393331234567',
      '123456',
      '1234567890123456',
      '33312345a7',
    ]) {
      expect(validateCustomerForm(withField({ phone })).errors).toEqual({
        phone: 'form.error.phone.invalid',
      });
    }
  });

  it('raises the alert but no field message when only the prefix is missing', () => {
    expect(validateCustomerForm(withField({ phonePrefix: '' }))).toEqual({
      valid: false,
      errors: {},
      alert: 'form.alert.requiredFields',
    });
  });
});

describe('paymentPrecheck', () => {
  it('passes a good form and returns it normalized', () => {
    expect(paymentPrecheck({ ...good, name: ' Maria ' })).toEqual({ ok: true, form: good });
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

  it('needs 7 to 15 digits', () => {
    expect(paymentPrecheck(withField({ phone: '1234567' })).ok).toBe(true);
    expect(paymentPrecheck(withField({ phone: '123456789012345' })).ok).toBe(true);
    expect(paymentPrecheck(withField({ phone: '123456' })).ok).toBe(false);
    expect(paymentPrecheck(withField({ phone: '1234567890123456' })).ok).toBe(false);
    expect(paymentPrecheck(withField({ phone: '１２３４５６７' })).ok).toBe(false); // full-width digits
  });

  it('needs a dial code', () => {
    expect(paymentPrecheck(withField({ phonePrefix: '+1' })).ok).toBe(true);
    expect(paymentPrecheck(withField({ phonePrefix: '+1268' })).ok).toBe(true);
    for (const phonePrefix of ['', '39', '+', '+39a', '+12345']) {
      expect(paymentPrecheck(withField({ phonePrefix }))).toEqual({
        ok: false,
        error: 'payment.error.fields',
        fields: ['phonePrefix'],
      });
    }
  });

  it('lists every bad field', () => {
    expect(paymentPrecheck({})).toEqual({
      ok: false,
      error: 'payment.error.fields',
      fields: ['name', 'surname', 'email', 'confirmEmail', 'phonePrefix', 'phone'],
    });
  });

  it('agrees with the live validation on every combination of field states', () => {
    const options: Record<keyof CustomerForm, string[]> = {
      name: ['Maria', '', 'M4ria'],
      surname: ['Rossi', ''],
      email: ['maria@example.it', '', 'maria@'],
      confirmEmail: ['maria@example.it', '', 'MARIA@example.it', 'x@example.it'],
      phonePrefix: ['+39', ''],
      phone: ['3331234567', '', '333'],
    };
    let checked = 0;
    for (const name of options.name)
      for (const surname of options.surname)
        for (const email of options.email)
          for (const confirmEmail of options.confirmEmail)
            for (const phonePrefix of options.phonePrefix)
              for (const phone of options.phone) {
                const form = { name, surname, email, confirmEmail, phonePrefix, phone };
                const live = validateCustomerForm(form);
                expect(paymentPrecheck(form).ok).toBe(live.valid);
                const anyEmpty = Object.values(form).some((value) => value === '');
                expect(live.alert !== null).toBe(anyEmpty);
                checked += 1;
              }
    expect(checked).toBe(3 * 2 * 3 * 4 * 2 * 3);
  });
});
