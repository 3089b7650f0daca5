import { LOCKER_SIZES, isLockerSize, type LockerSize } from './locker-size';

export const CANONICAL_DURATION_UNITS = ['hours', 'days'] as const;
export type DurationUnit = (typeof CANONICAL_DURATION_UNITS)[number];

/** How long a booking lasts: a whole number of hours or of calendar days. */
export type Duration = { value: number; unit: DurationUnit };

/** Price per locker, in cents, keyed by duration value as a string ("3", "4", … for hours; "1", "2", … for days). */
export type PriceTable = { hours: Record<string, number>; days: Record<string, number> };

/** A location's prices for each locker size. */
export type LocationPricing = Record<LockerSize, PriceTable>;

/** The night wizard's price lookup: per size, cents keyed by `h{hours}` (h3…h6, then h24, h48, …). */
export type NightPricingConfig = Record<LockerSize, Record<string, number>>;

const HOUR_UNITS = new Set(['hours', 'ore', 'h']);
const DAY_UNITS = new Set(['days', 'g', 'giorni']);

/**
 * Maps the unit spellings used by the legacy clients ('ore' or 'h' for hours; 'g', 'days' or
 * 'giorni' for days) to our canonical unit. Case and surrounding spaces are ignored; unknown → null.
 */
export function parseDurationUnit(unit: string): DurationUnit | null {
  if (typeof unit !== 'string') return null;
  const normalized = unit.trim().toLowerCase();
  if (HOUR_UNITS.has(normalized)) return 'hours';
  if (DAY_UNITS.has(normalized)) return 'days';
  return null;
}

/** A duration as the booking payloads carry it (customer spec §3): `h` for hours, `g` for days. */
export function wireDuration(duration: Duration): { value: number; unit: 'h' | 'g' } {
  return { value: duration.value, unit: duration.unit === 'hours' ? 'h' : 'g' };
}

/** True for a positive whole number of hours or days. */
export function isWholeDuration(duration: Duration): boolean {
  return (
    (duration.unit === 'hours' || duration.unit === 'days') &&
    Number.isSafeInteger(duration.value) &&
    duration.value > 0
  );
}

/**
 * The price of one locker of `size` for `duration`, in cents: the hourly table for hours, the
 * daily table for days. Null when the size, the duration or the table entry is missing or invalid,
 * so a caller can never charge a made-up price.
 */
export function unitPriceCents(
  pricing: LocationPricing,
  size: LockerSize,
  duration: Duration,
): number | null {
  if (!isLockerSize(size) || !isWholeDuration(duration)) return null;
  const table = pricing?.[size]?.[duration.unit];
  if (!table || !Object.hasOwn(table, String(duration.value))) return null;
  const cents = table[String(duration.value)];
  return isPriceCents(cents) ? cents : null;
}

/** Price of a booking in cents: quantity × unit price. Null when unpriceable or the quantity is not a positive integer. */
export function bookingPriceCents(input: {
  pricing: LocationPricing;
  size: LockerSize;
  duration: Duration;
  quantity: number;
}): number | null {
  if (!Number.isSafeInteger(input.quantity) || input.quantity < 1) return null;
  const unit = unitPriceCents(input.pricing, input.size, input.duration);
  return unit === null ? null : unit * input.quantity;
}

/**
 * Derives the night wizard's `pricingConfig` from a location's tables: hour entries become
 * `h{hours}` (h3 … h6) and day entries `h{24 × days}` (h24, h48, …). Invalid entries are left out.
 */
export function nightPricingConfig(pricing: LocationPricing): NightPricingConfig {
  const config = {} as NightPricingConfig;
  for (const size of LOCKER_SIZES) {
    const entries: Record<string, number> = {};
    const table = pricing?.[size];
    for (const [key, cents] of Object.entries(table?.hours ?? {})) {
      const hours = Number(key);
      if (isWholeKey(key) && isPriceCents(cents)) entries[`h${hours}`] = cents;
    }
    for (const [key, cents] of Object.entries(table?.days ?? {})) {
      const days = Number(key);
      if (isWholeKey(key) && isPriceCents(cents)) entries[`h${days * 24}`] = cents;
    }
    config[size] = entries;
  }
  return config;
}

/**
 * Night price in cents: the `h{hours}` entry for `size` (24 hours when not given) × quantity;
 * 0 when the entry is missing, as the spec says.
 */
export function nightPriceCents(
  pricingConfig: NightPricingConfig,
  size: LockerSize,
  hours: number = 24,
  quantity: number = 1,
): number {
  if (!isLockerSize(size) || !Number.isSafeInteger(quantity) || quantity < 1) return 0;
  const table = pricingConfig?.[size];
  const key = `h${hours}`;
  if (!table || !Object.hasOwn(table, key)) return 0;
  const cents = table[key];
  return isPriceCents(cents) ? cents * quantity : 0;
}

/** Converts a duration to the hour count the night pricing config is keyed by (days × 24). */
export function durationInHours(duration: Duration): number {
  return duration.unit === 'days' ? duration.value * 24 : duration.value;
}

function isPriceCents(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

function isWholeKey(key: string): boolean {
  return /^[1-9]\d{0,3}$/.test(key);
}
