// Money is integer cents inside the system; euros appear only in these conversion and display helpers.

import { MAX_EUROS } from '../schemas/limits';

/** Service fee added once to every booking total (0.50 €). */
export const SERVICE_FEE_CENTS = 50;

/** The smallest amount the payment provider is asked to charge (1 €). */
export const MIN_AMOUNT_CENTS = 100;

/** The largest amount any answer carries or the payment provider is asked to charge (MAX_EUROS). */
export const MAX_AMOUNT_CENTS = MAX_EUROS * 100;

/**
 * Whether a booking of this price has a total, with the service fee, that the answers can carry and
 * the provider can charge: a visitor's hold and an operator's test booking alike.
 */
export function bookingTotalFits(priceCents: number): boolean {
  return priceCents + SERVICE_FEE_CENTS <= MAX_AMOUNT_CENTS;
}

/** Translation key shown when a payment amount is not acceptable. */
export const PAYMENT_AMOUNT_ERROR = 'payment.error.amount';

/**
 * Converts euros (as typed by an admin or carried by a legacy payload) to integer cents.
 * Rounds half away from zero on the cent, after removing binary floating-point noise
 * (1.005 € is 101 cents, not 100).
 */
export function eurosToCents(euros: number): number {
  if (typeof euros !== 'number' || !Number.isFinite(euros)) {
    throw new RangeError(`Not an amount in euros: ${String(euros)}`);
  }
  const cents = Number((Math.abs(euros) * 100).toPrecision(12));
  const rounded = Math.round(cents);
  return euros < 0 ? -rounded : rounded;
}

/** Converts integer cents to euros, for payloads that carry euros. */
export function centsToEuros(cents: number): number {
  assertCents(cents);
  return cents / 100;
}

/**
 * Formats cents as a euro amount for display, e.g. `formatEuros(1250)` → "12,50 €" in Italian.
 * The locale is a BCP 47 tag (use 'ja' for the 'jp' interface language).
 */
export function formatEuros(cents: number, locale = 'it-IT'): string {
  assertCents(cents);
  return new Intl.NumberFormat(locale, {
    style: 'currency',
    currency: 'EUR',
    minimumFractionDigits: 2,
    maximumFractionDigits: 2,
  }).format(cents / 100);
}

/**
 * The amount sent to the payment provider: the total rounded to a whole cent, never below
 * {@link MIN_AMOUNT_CENTS} (so a booking made free by a discount still pays 1 €, as in the spec).
 */
export function amountInCents(totalCents: number): number {
  if (typeof totalCents !== 'number' || !Number.isFinite(totalCents)) {
    throw new RangeError(`Not an amount in cents: ${String(totalCents)}`);
  }
  return Math.max(MIN_AMOUNT_CENTS, Math.round(totalCents));
}

export type PaymentAmountCheck = { ok: true } | { ok: false; error: typeof PAYMENT_AMOUNT_ERROR };

/** Spec 'payment.error.amount': the amount must be a whole number of cents, at least 100. */
export function validatePaymentAmount(amountCents: unknown): PaymentAmountCheck {
  return typeof amountCents === 'number' &&
    Number.isSafeInteger(amountCents) &&
    amountCents >= MIN_AMOUNT_CENTS
    ? { ok: true }
    : { ok: false, error: PAYMENT_AMOUNT_ERROR };
}

function assertCents(cents: number): void {
  if (typeof cents !== 'number' || !Number.isSafeInteger(cents)) {
    throw new RangeError(`Not a whole number of cents: ${String(cents)}`);
  }
}
