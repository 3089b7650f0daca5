import { MIN_AMOUNT_CENTS, SERVICE_FEE_CENTS, eurosToCents } from './money';

/** A validated discount code's effect: a percent of the price, or a fixed amount in euros (as the discount API carries it). */
export type AppliedDiscount = { type: 'percent' | 'euro'; value: number };

/**
 * The discount on `priceCents`, in cents: a percent of the price (rounded to the cent) or a fixed
 * euro amount. Never negative and never more than the price; a malformed discount gives 0.
 */
export function discountCents(priceCents: number, discount: AppliedDiscount): number {
  if (!Number.isSafeInteger(priceCents) || priceCents <= 0) return 0;
  if (!discount || typeof discount.value !== 'number' || !Number.isFinite(discount.value)) return 0;
  if (discount.value <= 0) return 0;
  let cents: number;
  if (discount.type === 'percent') cents = Math.round((priceCents * Math.min(discount.value, 100)) / 100);
  else if (discount.type === 'euro') cents = eurosToCents(discount.value);
  else return 0;
  return Math.min(cents, priceCents);
}

export type BookingTotals = {
  /** Price before discount. */
  priceCents: number;
  discountCents: number;
  /** Price minus discount, floored at 0. */
  discountedPriceCents: number;
  feeCents: number;
  /**
   * What the total was raised by to reach the smallest amount a card can be charged (0 almost
   * always; a code that takes the price to nothing leaves only the fee, below the minimum).
   */
  minimumChargeTopUpCents: number;
  /** Discounted price plus the service fee, at least the minimum charge: what the card is charged. */
  totalCents: number;
};

/**
 * Spec total: price minus discount (floored at 0) plus the service fee, raised to the minimum
 * charge, so the total every page, e-mail and the gateway show is the amount charged.
 */
export function bookingTotals(input: {
  priceCents: number;
  discount?: AppliedDiscount | null;
}): BookingTotals {
  const { priceCents } = input;
  if (!Number.isSafeInteger(priceCents) || priceCents < 0) {
    throw new RangeError(`Not a price in cents: ${String(priceCents)}`);
  }
  const discount = input.discount ? discountCents(priceCents, input.discount) : 0;
  const discountedPriceCents = Math.max(0, priceCents - discount);
  const subtotal = discountedPriceCents + SERVICE_FEE_CENTS;
  const totalCents = Math.max(MIN_AMOUNT_CENTS, subtotal);
  return {
    priceCents,
    discountCents: discount,
    discountedPriceCents,
    feeCents: SERVICE_FEE_CENTS,
    minimumChargeTopUpCents: totalCents - subtotal,
    totalCents,
  };
}
