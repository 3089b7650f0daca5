import { LOCKER_SIZES } from './locker-size';
import { eurosToCents } from './money';
import type { LocationPricing, PriceTable } from './price-table';

// Price lists travel in euros (the spec's payloads and the admin forms); inside the system a
// price is integer cents. These turn one into the other in one place.

/** Euros keyed by duration value → cents keyed the same way. */
export function priceListToCents(euros: Readonly<Record<string, number>>): Record<string, number> {
  return Object.fromEntries(Object.entries(euros).map(([key, price]) => [key, eurosToCents(price)]));
}

/** A location's price tables in euros (`{ standard: { hours, days }, large: … }`) in cents. */
export function pricingToCents(
  euros: Readonly<
    Record<(typeof LOCKER_SIZES)[number], { hours: Record<string, number>; days: Record<string, number> }>
  >,
): LocationPricing {
  const table = (size: (typeof LOCKER_SIZES)[number]): PriceTable => ({
    hours: priceListToCents(euros[size].hours),
    days: priceListToCents(euros[size].days),
  });
  return { standard: table('standard'), large: table('large') };
}

/** The public location's lists (`hourlyPrices`/`dailyPrices` by size, euros) as cents by size. */
export function pricingFromPriceLists(lists: {
  hourlyPrices: Readonly<Record<(typeof LOCKER_SIZES)[number], Record<string, number>>>;
  dailyPrices: Readonly<Record<(typeof LOCKER_SIZES)[number], Record<string, number>>>;
}): LocationPricing {
  return pricingToCents({
    standard: { hours: lists.hourlyPrices.standard, days: lists.dailyPrices.standard },
    large: { hours: lists.hourlyPrices.large, days: lists.dailyPrices.large },
  });
}
