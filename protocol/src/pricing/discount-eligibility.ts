import type { Duration } from './price-table';
import type { AppliedDiscount } from './totals';

// Whether a discount code applies to a booking. Pure: the caller passes today's date in the
// location's zone and whether the code is already taken by another booking.

/** A discount code's rules, as stored (amounts in cents). */
export type DiscountTerms = {
  percent: number | null;
  amountCents: number | null;
  /** yyyy-MM-dd, inclusive; null leaves that end open. */
  validFrom: string | null;
  validTo: string | null;
  minDays: number | null;
};

export type DiscountRefusal = 'not_yet_valid' | 'expired' | 'min_days' | 'already_used' | 'malformed';

export type DiscountEligibility =
  | {
      ok: true;
      discount: AppliedDiscount;
      /** Set when no duration was given and the code needs a minimum stay. */
      warning: 'min_days_unchecked' | null;
    }
  | { ok: false; reason: DiscountRefusal };

/**
 * Checks the validity period against `today` (yyyy-MM-dd at the location), the minimum stay
 * against `duration` (hours count as less than one day) and single use (`takenByAnother`).
 */
export function discountEligibility(input: {
  terms: DiscountTerms;
  today: string;
  duration?: Duration | null;
  takenByAnother: boolean;
}): DiscountEligibility {
  const { terms, today, duration } = input;
  const discount = appliedDiscount(terms);
  if (!discount) return { ok: false, reason: 'malformed' };
  if (terms.validFrom !== null && today < terms.validFrom) return { ok: false, reason: 'not_yet_valid' };
  if (terms.validTo !== null && today > terms.validTo) return { ok: false, reason: 'expired' };
  if (input.takenByAnother) return { ok: false, reason: 'already_used' };
  let warning: 'min_days_unchecked' | null = null;
  if (terms.minDays !== null && terms.minDays > 0) {
    if (!duration) warning = 'min_days_unchecked';
    else if (duration.unit !== 'days' || duration.value < terms.minDays)
      return { ok: false, reason: 'min_days' };
  }
  return { ok: true, discount, warning };
}

/** The discount a code grants: a percent, or a fixed amount in euros as the API carries it. */
export function appliedDiscount(
  terms: Pick<DiscountTerms, 'percent' | 'amountCents'>,
): AppliedDiscount | null {
  if (terms.percent !== null && terms.amountCents === null && terms.percent > 0 && terms.percent <= 100) {
    return { type: 'percent', value: terms.percent };
  }
  if (
    terms.amountCents !== null &&
    terms.percent === null &&
    Number.isSafeInteger(terms.amountCents) &&
    terms.amountCents > 0
  ) {
    return { type: 'euro', value: terms.amountCents / 100 };
  }
  return null;
}
