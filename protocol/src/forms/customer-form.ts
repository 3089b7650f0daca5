import { DEFAULT_PHONE_COUNTRY, isPhoneCountry, parsePhone } from './phone';

// The customer form of the booking summary. The same rules give the live messages in the browser
// and the pre-check before payment, in the browser and again on the server.

export const CUSTOMER_FORM_FIELDS = [
  'name',
  'surname',
  'email',
  'confirmEmail',
  'phoneCountry',
  'phone',
] as const;
export type CustomerFormField = (typeof CUSTOMER_FORM_FIELDS)[number];
/** The form as the visitor fills it: the phone as typed, for the country picked ('IT'). */
export type CustomerForm = Record<CustomerFormField, string>;

/**
 * The form once checked, as the API calls carry it (spec §7): `phonePrefix` the dial code ('+39')
 * and `phone` the national number ('3331234567'), together the number in E.164.
 */
export type CheckedCustomer = {
  name: string;
  surname: string;
  email: string;
  confirmEmail: string;
  phonePrefix: string;
  phone: string;
};

/** Live message keys, exactly as in the spec and the locale files. */
export const CUSTOMER_FORM_ERRORS = {
  name: 'form.error.name',
  surname: 'form.error.surname',
  emailRequired: 'form.error.email.required',
  emailInvalid: 'form.error.email.invalid',
  confirmEmailRequired: 'form.error.confirmEmail.required',
  confirmEmailMismatch: 'form.error.confirmEmail.mismatch',
  phoneRequired: 'form.error.phone.required',
  phoneInvalid: 'form.error.phone.invalid',
} as const;
export type CustomerFormErrorKey = (typeof CUSTOMER_FORM_ERRORS)[keyof typeof CUSTOMER_FORM_ERRORS];

export const REQUIRED_FIELDS_ALERT = 'form.alert.requiredFields';
export const PAYMENT_FIELDS_ERROR = 'payment.error.fields';

const EMAIL_MAX_LENGTH = 254;

// Letters of any script (with combining accents), spaces, straight or typographic apostrophes and
// hyphens, with at least one letter: "D'Angelo", "Anne-Marie", "José", "山田".
const PERSON_NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M}' ’-]+$/u;
// The one e-mail definition (forms, API schemas, the mailer): a bare address, local@domain.tld. The
// local part is a dot-atom of RFC 5322 atext (letters of any script allowed), the domain dot-separated
// labels of letters, digits and inner hyphens. Nothing a mail library reads as a display name,
// comment, group or list (`Name <a@x.it>`, `a(c)@x.it`, `a,b@x.it`, quotes, brackets) can pass, so
// the address stored is the address mailed.
const EMAIL_ATEXT = "[\\p{L}\\p{N}\\p{M}!#$%&'*+/=?^_`{|}~-]+";
const EMAIL_LABEL = '[\\p{L}\\p{N}\\p{M}](?:[\\p{L}\\p{N}\\p{M}-]*[\\p{L}\\p{N}\\p{M}])?';
const EMAIL_PATTERN = new RegExp(
  `^${EMAIL_ATEXT}(?:\\.${EMAIL_ATEXT})*@${EMAIL_LABEL}(?:\\.${EMAIL_LABEL})+$`,
  'u',
);
const DIAL_CODE_PATTERN = /^\+\d{1,4}$/;

/** A blank form as the summary first shows it, with Italy (+39) picked. */
export function emptyCustomerForm(): CustomerForm {
  return {
    name: '',
    surname: '',
    email: '',
    confirmEmail: '',
    phoneCountry: DEFAULT_PHONE_COUNTRY,
    phone: '',
  };
}

/**
 * The form as it is checked and stored: every field trimmed (autofill adds trailing spaces),
 * missing fields as ''. Inner spaces are kept, so "a b@x.it" stays invalid.
 */
export function normalizeCustomerForm(form: Partial<Record<CustomerFormField, unknown>>): CustomerForm {
  const read = (field: CustomerFormField) =>
    typeof form?.[field] === 'string' ? (form[field] as string).trim() : '';
  return {
    name: read('name'),
    surname: read('surname'),
    email: read('email'),
    confirmEmail: read('confirmEmail'),
    phoneCountry: read('phoneCountry'),
    phone: read('phone'),
  };
}

export function isPersonName(value: string): boolean {
  return PERSON_NAME_PATTERN.test(value.trim());
}

export function isEmail(value: string): boolean {
  const email = value.trim();
  return email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
}

/** Email and confirmation match when equal after trimming, ignoring letter case. */
export function emailsMatch(email: string, confirmEmail: string): boolean {
  return email.trim().toLowerCase() === confirmEmail.trim().toLowerCase();
}

/** A dial code such as '+39' or '+1' (plus sign and 1–4 digits). */
export function isDialCode(value: string): boolean {
  return DIAL_CODE_PATTERN.test(value.trim());
}

/** The phone as the payment payload carries it: prefix followed by number, E.164 '+393331234567'. */
export function internationalPhone(form: Pick<CheckedCustomer, 'phonePrefix' | 'phone'>): string {
  return `${form.phonePrefix.trim()}${form.phone.trim()}`;
}

export type CustomerFormValidation = {
  /** True when the form would pass {@link paymentPrecheck}. */
  valid: boolean;
  /** At most one live message per field. */
  errors: Partial<Record<CustomerFormField, CustomerFormErrorKey>>;
  /** 'form.alert.requiredFields' when any required field (the country included) is empty. */
  alert: typeof REQUIRED_FIELDS_ALERT | null;
};

/**
 * Live messages for the customer form. A field shows its "required" message when empty and its
 * format message otherwise; name and surname have a single key for both, so a name with digits
 * shows form.error.name too (the pre-check would refuse it anyway). The phone is checked against
 * the picked country's numbering plan; spaces, dashes, a leading + or 00 with the country code are
 * fine. The country has no message of its own (it is a picker) but counts for the alert and `valid`.
 */
export function validateCustomerForm(
  input: Partial<Record<CustomerFormField, unknown>>,
): CustomerFormValidation {
  const form = normalizeCustomerForm(input);
  const errors: CustomerFormValidation['errors'] = {};

  if (!isPersonName(form.name)) errors.name = CUSTOMER_FORM_ERRORS.name;
  if (!isPersonName(form.surname)) errors.surname = CUSTOMER_FORM_ERRORS.surname;

  if (form.email === '') errors.email = CUSTOMER_FORM_ERRORS.emailRequired;
  else if (!isEmail(form.email)) errors.email = CUSTOMER_FORM_ERRORS.emailInvalid;

  if (form.confirmEmail === '') errors.confirmEmail = CUSTOMER_FORM_ERRORS.confirmEmailRequired;
  else if (!emailsMatch(form.email, form.confirmEmail))
    errors.confirmEmail = CUSTOMER_FORM_ERRORS.confirmEmailMismatch;

  if (form.phone === '') errors.phone = CUSTOMER_FORM_ERRORS.phoneRequired;
  // Without a country a national number cannot be judged: the required-fields alert says it.
  else if (isPhoneCountry(form.phoneCountry) && !parsePhone(form.phone, { country: form.phoneCountry }))
    errors.phone = CUSTOMER_FORM_ERRORS.phoneInvalid;

  const anyMissing = CUSTOMER_FORM_FIELDS.some((field) => form[field] === '');
  const valid = Object.keys(errors).length === 0 && isPhoneCountry(form.phoneCountry);
  return { valid, errors, alert: anyMissing ? REQUIRED_FIELDS_ALERT : null };
}

export type PaymentPrecheck =
  | { ok: true; form: CheckedCustomer }
  | { ok: false; error: typeof PAYMENT_FIELDS_ERROR; fields: CustomerFormField[] };

/**
 * The spec's check before payment ('payment.error.fields' otherwise): names of letters, spaces,
 * apostrophes and hyphens; a valid email, repeated equal; a phone valid for its country (the spec's
 * 7–15 digits, checked for real). On success it returns the form to send, the phone as dial code and
 * national number; on failure, the offending fields.
 */
export function paymentPrecheck(input: Partial<Record<CustomerFormField, unknown>>): PaymentPrecheck {
  const form = normalizeCustomerForm(input);
  const fields: CustomerFormField[] = [];
  if (!isPersonName(form.name)) fields.push('name');
  if (!isPersonName(form.surname)) fields.push('surname');
  if (!isEmail(form.email)) fields.push('email');
  if (!isEmail(form.confirmEmail) || !emailsMatch(form.email, form.confirmEmail)) fields.push('confirmEmail');
  if (!isPhoneCountry(form.phoneCountry)) fields.push('phoneCountry');
  const phone = parsePhone(form.phone, { country: form.phoneCountry });
  if (!phone) fields.push('phone');
  if (fields.length > 0 || !phone) return { ok: false, error: PAYMENT_FIELDS_ERROR, fields };
  const { name, surname, email, confirmEmail } = form;
  return {
    ok: true,
    form: { name, surname, email, confirmEmail, phonePrefix: phone.dialCode, phone: phone.nationalNumber },
  };
}
