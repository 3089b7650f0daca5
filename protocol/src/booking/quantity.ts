/** Most lockers one booking may take. */
export const MAX_QUANTITY = 3;

/** The quantity buttons to show: 1 … min(available, 3); none when nothing is available. */
export function quantityOptions(available: number): number[] {
  const max = maxQuantity(available);
  return Array.from({ length: max }, (_, index) => index + 1);
}

/** True when `quantity` is a whole number from 1 to min(available, 3). */
export function isQuantityAllowed(quantity: number, available: number): boolean {
  return Number.isSafeInteger(quantity) && quantity >= 1 && quantity <= maxQuantity(available);
}

function maxQuantity(available: number): number {
  if (typeof available !== 'number' || Number.isNaN(available) || available < 1) return 0;
  return Math.min(Math.floor(available), MAX_QUANTITY);
}
