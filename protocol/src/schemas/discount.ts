import { z } from 'zod';
import type { ErrorCode } from '../api/errors';
import { TEXT_LIMITS, zCount, zDiscountCode, zEditVersion, zEuros, zIsoDate } from './primitives';

/** Longest stay in days a booking can have, hence the largest sensible minimum for a discount. */
const MAX_DAYS = 15;

const discountFields = {
  code: zDiscountCode,
  description: z.string().max(TEXT_LIMITS.description).default(''),
  discountPercent: z.number().gt(0).max(100).nullable().optional(),
  discountEuro: zEuros.gt(0).nullable().optional(),
  validFrom: zIsoDate.nullable().default(null),
  validTo: zIsoDate.nullable().default(null),
  usableOnce: z.boolean().default(false),
  minDays: z.number().int().min(1).max(MAX_DAYS).nullable().optional(),
};

type DiscountShape = {
  discountPercent?: number | null;
  discountEuro?: number | null;
  validFrom: string | null;
  validTo: string | null;
};

const PERIOD_INVERTED = {
  message: 'validFrom is after validTo',
  path: ['validTo'],
  params: { code: 'discount/period_inverted' satisfies ErrorCode },
};

const hasExactlyOneValue = (d: DiscountShape) => (d.discountPercent != null) !== (d.discountEuro != null);
const periodIsOrdered = (d: DiscountShape) =>
  d.validFrom === null || d.validTo === null || d.validFrom <= d.validTo;

/** The rules every form of a code keeps (stored, created, edited): one kind of value, a period in order. */
function withDiscountRules<Schema extends z.ZodType<DiscountShape>>(schema: Schema): Schema {
  return schema
    .refine(hasExactlyOneValue, {
      message: 'Give either discountPercent or discountEuro',
      path: ['discountPercent'],
    })
    .refine(periodIsOrdered, PERIOD_INVERTED);
}

/**
 * A discount code (admin spec §3): either a percent of the price or an amount in euros, valid
 * between two days (either end open when null), optionally once only or from a minimum of days.
 */
export const discountCodeSchema = withDiscountRules(
  z.object({
    ...discountFields,
    /** How many paid bookings used the code; set by the server. */
    timesUsed: zCount.optional(),
    /** The row's edit version; an edit sends it back (see `discountCodeUpdateSchema`). */
    version: zEditVersion.optional(),
  }),
);
export type DiscountCode = z.infer<typeof discountCodeSchema>;

/** What the admin form sends to create a code. */
export const discountCodeInputSchema = withDiscountRules(z.object(discountFields));
export type DiscountCodeInput = z.input<typeof discountCodeInputSchema>;

/**
 * An edit of a code, in place: the same fields (`code` may rename it) and the version read. Usage
 * (a single-use code already taken) is kept; it is not a field an operator sets.
 */
export const discountCodeUpdateSchema = withDiscountRules(
  z.object({ ...discountFields, version: zEditVersion }),
);
export type DiscountCodeUpdate = z.input<typeof discountCodeUpdateSchema>;

export const DISCOUNT_TYPES = ['euro', 'percent'] as const;

/** The answer to a discount check (customer spec §3); `messageKey`/`messageParams` feed i18next. */
export const discountValidationSchema = z.object({
  valid: z.boolean(),
  value: z.number().min(0).max(100_000).nullable().optional(),
  type: z.enum(DISCOUNT_TYPES).nullable().optional(),
  warning: z.string().max(TEXT_LIMITS.message).nullable().optional(),
  message: z.string().max(TEXT_LIMITS.message).nullable().optional(),
  messageKey: z.string().max(TEXT_LIMITS.shortText).nullable().optional(),
  messageParams: z
    .record(z.string().max(40), z.union([z.string().max(TEXT_LIMITS.shortText), z.number()]))
    .optional(),
});
export type DiscountValidation = z.infer<typeof discountValidationSchema>;
