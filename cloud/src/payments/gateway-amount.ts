// Gateways carry amounts as decimal strings in euros ("12.50"); inside the system money is integer
// cents. String arithmetic here, so no binary floating point sits between the two.

/** 1250 → "12.50". */
export function centsToGatewayAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`Not an amount in cents: ${cents}`);
  const euros = Math.floor(cents / 100);
  return `${euros}.${String(cents % 100).padStart(2, '0')}`;
}

/** "12.50" (or "12.5", "12") → 1250; null when the text is not a plain non-negative amount. */
export function gatewayAmountToCents(amount: string): number | null {
  const match = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(amount.trim());
  if (!match) return null;
  const [, euros, fraction = ''] = match;
  return Number(euros) * 100 + Number(fraction.padEnd(2, '0'));
}
