import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  CUSTOMER_FORM_FIELDS,
  emptyCustomerForm,
  validateCustomerForm,
  type CustomerForm as CustomerFormValues,
  type CustomerFormField as CustomerField,
  type CustomerFormValidation,
} from '@deposito/protocol/forms/customer-form';
import { FIRST_PHONE_COUNTRIES, PHONE_COUNTRIES, type PhoneCountry } from '@deposito/protocol/forms/phone';
import { displayLocale } from './format';

type FieldErrors = CustomerFormValidation['errors'];

export interface CustomerFormState {
  values: CustomerFormValues;
  validation: CustomerFormValidation;
  /** Messages the visitor should see now: fields they have left, or all after a pay attempt. */
  visibleErrors: FieldErrors;
  /** True once the visitor tried to pay; the required-fields warning shows from then on. */
  submitted: boolean;
  setField: (field: CustomerField, value: string) => void;
  touch: (field: CustomerField) => void;
  touchAll: () => void;
}

/** Form state with live messages from protocol's validateCustomerForm. */
export function useCustomerForm(initial: CustomerFormValues = emptyCustomerForm()): CustomerFormState {
  const [values, setValues] = useState(initial);
  const [touched, setTouched] = useState<ReadonlySet<CustomerField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const validation = useMemo(() => validateCustomerForm(values), [values]);
  const visibleErrors = useMemo(
    () =>
      Object.fromEntries(
        Object.entries(validation.errors).filter(([field]) => touched.has(field as CustomerField)),
      ) as FieldErrors,
    [validation, touched],
  );
  const setField = useCallback((field: CustomerField, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
  }, []);
  const touch = useCallback((field: CustomerField) => {
    setTouched((current) => (current.has(field) ? current : new Set([...current, field])));
  }, []);
  const touchAll = useCallback(() => {
    setTouched(new Set(CUSTOMER_FORM_FIELDS));
    setSubmitted(true);
  }, []);
  return {
    values,
    validation,
    visibleErrors,
    submitted,
    setField,
    touch,
    touchAll,
  };
}

interface TextFieldProps {
  form: CustomerFormState;
  field: Exclude<CustomerField, 'phoneCountry'>;
  label: string;
  type?: string;
  autoComplete: string;
  inputMode?: 'text' | 'email' | 'tel' | 'numeric';
}

function TextField({ form, field, label, type = 'text', autoComplete, inputMode }: TextFieldProps) {
  const { t } = useTranslation();
  const id = `customer-${field}`;
  const errorKey = form.visibleErrors[field];
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        name={field}
        className="input"
        type={type}
        inputMode={inputMode}
        autoComplete={autoComplete}
        required
        value={form.values[field]}
        aria-invalid={errorKey ? true : undefined}
        aria-describedby={`${id}-error`}
        onChange={(event) => form.setField(field, event.target.value)}
        onBlur={() => form.touch(field)}
      />
      <p id={`${id}-error`} className="field-error" aria-live="polite">
        {errorKey ? t(errorKey) : ''}
      </p>
    </div>
  );
}

type CountryOption = PhoneCountry & { name: string; mark: string };

let flagEmojiDrawn: boolean | undefined;

/**
 * True when this device draws a flag emoji as one flag. Windows and Linux without an emoji font
 * draw two letters or two boxes instead; there the country's letters ('IT') stand in for it.
 */
function drawsFlagEmoji(): boolean {
  if (flagEmojiDrawn === undefined) {
    try {
      const context = document.createElement('canvas').getContext('2d');
      if (context) context.font = '32px sans-serif';
      flagEmojiDrawn = !!context && context.measureText('🇮🇹').width < 1.5 * context.measureText('🇮').width;
    } catch {
      flagEmojiDrawn = false;
    }
  }
  return flagEmojiDrawn;
}

/**
 * The phone picker's countries named in the interface language: the spec's first countries in
 * their order, then all the others alphabetically by that name.
 */
function useCountryOptions(): { first: CountryOption[]; others: CountryOption[] } {
  const { i18n } = useTranslation();
  const locale = displayLocale(i18n.resolvedLanguage ?? i18n.language);
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'code' });
    const flags = drawsFlagEmoji();
    const named = PHONE_COUNTRIES.map((country) => ({
      ...country,
      name: names.of(country.countryCode) ?? country.countryCode,
      mark: flags ? country.flag : country.countryCode,
    }));
    const collator = new Intl.Collator(locale);
    return {
      first: named.slice(0, FIRST_PHONE_COUNTRIES),
      others: named.slice(FIRST_PHONE_COUNTRIES).sort((a, b) => collator.compare(a.name, b.name)),
    };
  }, [locale]);
}

/**
 * The country picker: a native select (every phone's own list, searchable by typing) laid over a
 * short face showing the flag and the dial code, so the closed picker fits beside the number.
 */
function PhoneCountryPicker({ form }: { form: CustomerFormState }) {
  const { t } = useTranslation();
  const { first, others } = useCountryOptions();
  const selected = [...first, ...others].find((country) => country.countryCode === form.values.phoneCountry);
  const option = (country: CountryOption) => (
    <option key={country.countryCode} value={country.countryCode}>
      {`${country.mark} ${country.name} (${country.dialCode})`}
    </option>
  );
  return (
    <div className="phone-country">
      <span className="phone-country-face select" aria-hidden="true">
        {selected ? `${selected.mark} ${selected.dialCode}` : ''}
      </span>
      <select
        id="customer-phoneCountry"
        className="phone-country-select"
        aria-label={t('form.phonePrefix')}
        autoComplete="tel-country-code"
        value={form.values.phoneCountry}
        onChange={(event) => form.setField('phoneCountry', event.target.value)}
        onBlur={() => form.touch('phoneCountry')}
      >
        {first.map(option)}
        <option disabled value="">
          ──────────
        </option>
        {others.map(option)}
      </select>
    </div>
  );
}

export function CustomerForm({ form }: { form: CustomerFormState }) {
  const { t } = useTranslation();
  const phoneError = form.visibleErrors.phone;
  return (
    <fieldset className="form-grid" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="visually-hidden">{t('form.title')}</legend>
      <div className="form-grid two">
        <TextField form={form} field="name" label={t('form.name')} autoComplete="given-name" />
        <TextField form={form} field="surname" label={t('form.surname')} autoComplete="family-name" />
      </div>
      {/* The address and its confirmation, which the browser must not fill in for the visitor. */}
      {(['email', 'confirmEmail'] as const).map((field) => (
        <TextField
          key={field}
          form={form}
          field={field}
          label={t(`form.${field}`)}
          type="email"
          inputMode="email"
          autoComplete={field === 'email' ? 'email' : 'off'}
        />
      ))}
      <div className="field">
        <span className="field-label" id="customer-phone-label">
          {t('form.phone')}
        </span>
        <div className="phone-row">
          <PhoneCountryPicker form={form} />
          <input
            id="customer-phone"
            name="phone"
            className="input"
            type="tel"
            inputMode="tel"
            autoComplete="tel-national"
            required
            aria-labelledby="customer-phone-label"
            value={form.values.phone}
            aria-invalid={phoneError ? true : undefined}
            aria-describedby="customer-phone-error"
            onChange={(event) => form.setField('phone', event.target.value)}
            onBlur={() => form.touch('phone')}
          />
        </div>
        <p id="customer-phone-error" className="field-error" aria-live="polite">
          {phoneError ? t(phoneError) : ''}
        </p>
      </div>
      {form.submitted && form.validation.alert && (
        <p className="alert alert-warning" role="alert">
          {t(form.validation.alert)}
        </p>
      )}
    </fieldset>
  );
}
