import { DEFAULT_PHONE_PREFIX } from './phone-prefixes';

// The customer form of the booking summary. The same rules give the live messages in the browser
// and the pre-check before payment, in the browser and again on the server.

export const CUSTOMER_FORM_FIELDS = [
  'name',
  'surname',
  'email',
  'confirmEmail',
  'phonePrefix',
  'phone',
] as const;
export type CustomerFormField = (typeof CUSTOMER_FORM_FIELDS)[number];
export type CustomerForm = Record<CustomerFormField, string>;

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

export const PHONE_MIN_DIGITS = 7;
export const PHONE_MAX_DIGITS = 15;
const EMAIL_MAX_LENGTH = 254;

// Letters of any script (with combining accents), spaces, straight or typographic apostrophes and
// hyphens, with at least one letter: "D'Angelo", "Anne-Marie", "José", "山田".
const PERSON_NAME_PATTERN = /^(?=.*\p{L})[\p{L}\p{M}' ’-]+$/u;
// Something@domain.tld with no spaces, no second @ and no empty domain label.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(?:\.[^\s@.]+)+$/u;
const PHONE_PATTERN = new RegExp(`^\\d{${PHONE_MIN_DIGITS},${PHONE_MAX_DIGITS}}$`);
const DIAL_CODE_PATTERN = /^\+\d{1,4}$/;

/** A blank form as the summary first shows it, with the default +39 prefix. */
export function emptyCustomerForm(): CustomerForm {
  return { name: '', surname: '', email: '', confirmEmail: '', phonePrefix: DEFAULT_PHONE_PREFIX, phone: '' };
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
    phonePrefix: read('phonePrefix'),
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

/** 7 to 15 ASCII digits, nothing else (no spaces, dashes or leading +). */
export function isPhoneNumber(value: string): boolean {
  return PHONE_PATTERN.test(value.trim());
}

/** A dial code such as '+39' or '+1' (plus sign and 1–4 digits). */
export function isDialCode(value: string): boolean {
  return DIAL_CODE_PATTERN.test(value.trim());
}

/** The phone as the payment payload carries it: prefix followed by number, '+393331234567'. */
export function internationalPhone(form: Pick<CustomerForm, 'phonePrefix' | 'phone'>): string {
  return `${form.phonePrefix.trim()}${form.phone.trim()}`;
}

export type CustomerFormValidation = {
  /** True when the form would pass {@link paymentPrecheck}. */
  valid: boolean;
  /** At most one live message per field. */
  errors: Partial<Record<CustomerFormField, CustomerFormErrorKey>>;
  /** 'form.alert.requiredFields' when any required field (the prefix included) is empty. */
  alert: typeof REQUIRED_FIELDS_ALERT | null;
};

/**
 * Live messages for the customer form. A field shows its "required" message when empty and its
 * format message otherwise; name and surname have a single key for both, so a name with digits
 * shows form.error.name too (the pre-check would refuse it anyway). The prefix has no message of
 * its own (it is a picker) but counts for the required-fields alert and for `valid`.
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
  else if (!isPhoneNumber(form.phone)) errors.phone = CUSTOMER_FORM_ERRORS.phoneInvalid;

  const anyMissing = CUSTOMER_FORM_FIELDS.some((field) => form[field] === '');
  const valid = Object.keys(errors).length === 0 && isDialCode(form.phonePrefix);
  return { valid, errors, alert: anyMissing ? REQUIRED_FIELDS_ALERT : null };
}

export type PaymentPrecheck =
  | { ok: true; form: CustomerForm }
  | { ok: false; error: typeof PAYMENT_FIELDS_ERROR; fields: CustomerFormField[] };

/**
 * The spec's check before payment ('payment.error.fields' otherwise): names of letters, spaces,
 * apostrophes and hyphens; a valid email, repeated equal; a phone of 7–15 digits; a prefix. On
 * success it returns the normalized form to store; on failure, the offending fields.
 */
export function paymentPrecheck(input: Partial<Record<CustomerFormField, unknown>>): PaymentPrecheck {
  const form = normalizeCustomerForm(input);
  const fields: CustomerFormField[] = [];
  if (!isPersonName(form.name)) fields.push('name');
  if (!isPersonName(form.surname)) fields.push('surname');
  if (!isEmail(form.email)) fields.push('email');
  if (!isEmail(form.confirmEmail) || !emailsMatch(form.email, form.confirmEmail)) fields.push('confirmEmail');
  if (!isDialCode(form.phonePrefix)) fields.push('phonePrefix');
  if (!isPhoneNumber(form.phone)) fields.push('phone');
  return fields.length === 0 ? { ok: true, form } : { ok: false, error: PAYMENT_FIELDS_ERROR, fields };
}
