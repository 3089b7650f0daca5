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
import { PHONE_PREFIXES } from '@deposito/protocol/forms/phone-prefixes';
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
  field: Exclude<CustomerField, 'phonePrefix'>;
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

/** Country names in the interface language (the list itself is protocol's). */
function useCountryNames(): (countryCode: string, fallback: string) => string {
  const { i18n } = useTranslation();
  const locale = displayLocale(i18n.resolvedLanguage ?? i18n.language);
  return useMemo(() => {
    const names = new Intl.DisplayNames([locale], { type: 'region' });
    return (countryCode, fallback) => names.of(countryCode) ?? fallback;
  }, [locale]);
}

export function CustomerForm({ form }: { form: CustomerFormState }) {
  const { t } = useTranslation();
  const countryName = useCountryNames();
  const phoneError = form.visibleErrors.phone;
  return (
    <fieldset className="form-grid" style={{ border: 0, padding: 0, margin: 0 }}>
      <legend className="visually-hidden">{t('form.title')}</legend>
      <div className="form-grid two">
        <TextField form={form} field="name" label={t('form.name')} autoComplete="given-name" />
        <TextField form={form} field="surname" label={t('form.surname')} autoComplete="family-name" />
      </div>
      <TextField
        form={form}
        field="email"
        label={t('form.email')}
        type="email"
        inputMode="email"
        autoComplete="email"
      />
      <TextField
        form={form}
        field="confirmEmail"
        label={t('form.confirmEmail')}
        type="email"
        inputMode="email"
        autoComplete="off"
      />
      <div className="field">
        <span className="field-label" id="customer-phone-label">
          {t('form.phone')}
        </span>
        <div className="phone-row">
          <select
            id="customer-phonePrefix"
            className="select"
            aria-label={t('form.phonePrefix')}
            autoComplete="tel-country-code"
            value={form.values.phonePrefix}
            onChange={(event) => form.setField('phonePrefix', event.target.value)}
            onBlur={() => form.touch('phonePrefix')}
          >
            {PHONE_PREFIXES.map((prefix) => (
              // Letters, not the flag emoji (boxes without an emoji font); the name is in the title so
              // the closed select stays short enough for a phone.
              <option
                key={prefix.dialCode}
                value={prefix.dialCode}
                title={countryName(prefix.countryCode, prefix.name)}
              >
                {`${prefix.countryCode} ${prefix.dialCode}`}
              </option>
            ))}
          </select>
          <input
            id="customer-phone"
            name="phone"
            className="input"
            type="tel"
            inputMode="numeric"
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
