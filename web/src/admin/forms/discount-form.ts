import {
  discountCodeInputSchema,
  discountCodeUpdateSchema,
  zEditVersion,
  type DiscountCode,
  type DiscountCodeInput,
  type DiscountCodeUpdate,
} from '@deposito/protocol';
import { z } from 'zod';
import { FORM_ERROR_CODES, type FieldLabels } from '../error-text';
import type { FormNames } from './admin-form';

export interface DiscountForm {
  code: string;
  description: string;
  kind: 'percent' | 'amount';
  value: string;
  validFrom: string;
  validTo: string;
  usableOnce: boolean;
  minDays: string;
}

export const EMPTY_DISCOUNT_FORM: DiscountForm = {
  code: '',
  description: '',
  kind: 'percent',
  value: '',
  validFrom: '',
  validTo: '',
  usableOnce: false,
  minDays: '',
};

export function discountFormOf(discount: DiscountCode): DiscountForm {
  return {
    code: discount.code,
    description: discount.description,
    kind: discount.discountPercent != null ? 'percent' : 'amount',
    value: String(discount.discountPercent ?? discount.discountEuro ?? ''),
    validFrom: discount.validFrom ?? '',
    validTo: discount.validTo ?? '',
    usableOnce: discount.usableOnce,
    minDays: discount.minDays ? String(discount.minDays) : '',
  };
}

const discountFormFields = z.object({
  code: z.string(),
  description: z.string(),
  kind: z.enum(['percent', 'amount']),
  value: z.string(),
  validFrom: z.string(),
  validTo: z.string(),
  usableOnce: z.boolean(),
  minDays: z.string(),
});

/**
 * The spec's payload from the form: the code trimmed, a numeric value (percent sends
 * discountPercent, amount discountEuro), dates null when empty, minDays an integer when entered.
 * Code and value are required.
 */
const discountBody = discountFormFields.transform((form, ctx): DiscountCodeInput => {
  const code = form.code.trim();
  const value = Number.parseFloat(form.value.replace(',', '.'));
  if (!code || Number.isNaN(value)) {
    ctx.addIssue({
      code: 'custom',
      path: [code ? 'value' : 'code'],
      params: { code: FORM_ERROR_CODES.codeAndValueRequired },
    });
    return z.NEVER;
  }
  const minDays = Number.parseInt(form.minDays, 10);
  return {
    code,
    description: form.description.trim(),
    ...(form.kind === 'percent' ? { discountPercent: value } : { discountEuro: value }),
    validFrom: form.validFrom || null,
    validTo: form.validTo || null,
    usableOnce: form.usableOnce,
    minDays: Number.isNaN(minDays) ? null : minDays,
  };
});

/** Nuovo codice: the form read into the create request, checked as the server will. */
export const newDiscountFormSchema = discountBody.pipe(discountCodeInputSchema);

/** An edit: the same, with the version the form was filled from. */
export function discountEditFormSchema(version: number) {
  return discountBody
    .transform((body): DiscountCodeUpdate => ({ ...body, version: zEditVersion.parse(version) }))
    .pipe(discountCodeUpdateSchema);
}

const DISCOUNT_LABELS_BY_PATH: FieldLabels = {
  code: 'Codice',
  description: 'Descrizione',
  value: 'Valore',
  discountPercent: 'Valore (%)',
  discountEuro: 'Valore (€)',
  validFrom: 'Valido dal',
  validTo: 'Valido fino al',
  minDays: 'Giorni minimi',
};

/** The form's fields by the path of what the API checks. */
export const DISCOUNT_NAMES: FormNames = {
  fields: { discountPercent: 'value', discountEuro: 'value' },
  labels: DISCOUNT_LABELS_BY_PATH,
};
