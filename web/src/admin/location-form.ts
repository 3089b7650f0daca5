import type { LocationPricingEuros, PriceMapEuros } from '@deposito/protocol';

/** "1, 2, x, 3" → [1, 2, 3]: comma-separated numbers, anything else dropped (admin spec §5). */
export function parseLockerList(text: string): number[] {
  return text
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^\d+$/.test(part))
    .map(Number)
    .filter((n) => n >= 1);
}

/** An integer from a form field; 0 when it is not a number (admin spec §5). */
export function intOrZero(text: string): number {
  const value = Number.parseInt(text, 10);
  return Number.isNaN(value) ? 0 : value;
}

export interface PriceRow {
  duration: string;
  price: string;
}

export interface PriceRows {
  hours: PriceRow[];
  days: PriceRow[];
}

export type PricingRows = Record<'standard' | 'large', PriceRows>;

const byDuration = (a: PriceRow, b: PriceRow) => Number(a.duration) - Number(b.duration);

function rowsOf(map: PriceMapEuros): PriceRow[] {
  return Object.entries(map)
    .map(([duration, price]) => ({ duration, price: price.toFixed(2) }))
    .sort(byDuration);
}

export function pricingToRows(pricing: LocationPricingEuros): PricingRows {
  return {
    standard: { hours: rowsOf(pricing.standard.hours), days: rowsOf(pricing.standard.days) },
    large: { hours: rowsOf(pricing.large.hours), days: rowsOf(pricing.large.days) },
  };
}

/** A row counts only if its duration is filled in and its price is a number; others are dropped. */
function mapOf(rows: PriceRow[]): PriceMapEuros {
  const map: PriceMapEuros = {};
  for (const row of rows) {
    const duration = row.duration.trim();
    const price = Number.parseFloat(row.price.replace(',', '.'));
    if (duration === '' || Number.isNaN(price)) continue;
    map[duration] = Math.round(price * 100) / 100;
  }
  return map;
}

export function rowsToPricing(rows: PricingRows): LocationPricingEuros {
  return {
    standard: { hours: mapOf(rows.standard.hours), days: mapOf(rows.standard.days) },
    large: { hours: mapOf(rows.large.hours), days: mapOf(rows.large.days) },
  };
}

export const EMPTY_PRICING_ROWS: PricingRows = {
  standard: { hours: [{ duration: '3', price: '' }], days: [{ duration: '1', price: '' }] },
  large: { hours: [{ duration: '3', price: '' }], days: [{ duration: '1', price: '' }] },
};
