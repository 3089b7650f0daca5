import { priceRowsSchema, type LocationPricingEuros, type PriceMapEuros } from '@deposito/protocol';
import { z } from 'zod';
import type { FieldLabels } from './error-text';

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

const TABLE_NAMES = [
  ['standard', 'hours', 'Standard, ore'],
  ['standard', 'days', 'Standard, giorni'],
  ['large', 'hours', 'Grande, ore'],
  ['large', 'days', 'Grande, giorni'],
] as const;

/**
 * One price table as typed: rows without a duration or a numeric price are dropped (admin spec §5),
 * prices rounded to the cent, then the protocol's rules (each duration once, every price above zero)
 * read it into the table the API takes.
 */
const priceTableRowsSchema = z
  .array(z.object({ duration: z.string(), price: z.string() }))
  .transform((rows): { duration: string; price: number }[] =>
    rows
      .map((row) => ({
        duration: row.duration.trim(),
        price: Number.parseFloat(row.price.replace(',', '.')),
      }))
      .filter((row) => row.duration !== '' && !Number.isNaN(row.price))
      .map((row) => ({ ...row, price: Math.round(row.price * 100) / 100 })),
  )
  .pipe(priceRowsSchema);

const priceTablesSchema = z.object({ hours: priceTableRowsSchema, days: priceTableRowsSchema });

/** The four price tables as typed, read into the pricing the API takes. */
export const pricingRowsSchema = z.object({ standard: priceTablesSchema, large: priceTablesSchema });

/** Each table's name by its path under `at` ("pricing" in a location's form), for the texts. */
export function pricingLabels(at: string, prefix = ''): FieldLabels {
  return Object.fromEntries(
    TABLE_NAMES.map(([size, unit, name]) => [`${at}.${size}.${unit}`, `${prefix}${name}`]),
  );
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
