import { describe, expect, it } from 'vitest';
import { pricingFromPriceLists, pricingToCents, priceListToCents } from './location-pricing';
import { wireDuration } from './price-table';

describe('price lists in euros → cents', () => {
  it('converts each price without floating-point drift', () => {
    expect(priceListToCents({ '3': 5, '4': 6.5, '5': 0.1 + 0.2 })).toEqual({ '3': 500, '4': 650, '5': 30 });
    expect(priceListToCents({})).toEqual({});
  });

  it('converts per-size tables', () => {
    expect(
      pricingToCents({
        standard: { hours: { '3': 5 }, days: { '1': 12 } },
        large: { hours: { '3': 7.5 }, days: { '1': 16 } },
      }),
    ).toEqual({
      standard: { hours: { '3': 500 }, days: { '1': 1200 } },
      large: { hours: { '3': 750 }, days: { '1': 1600 } },
    });
  });

  it("reads the public location's hourly and daily lists", () => {
    expect(
      pricingFromPriceLists({
        hourlyPrices: { standard: { '3': 5, '6': 8 }, large: { '3': 7 } },
        dailyPrices: { standard: { '1': 12 }, large: { '1': 16, '2': 30 } },
      }),
    ).toEqual({
      standard: { hours: { '3': 500, '6': 800 }, days: { '1': 1200 } },
      large: { hours: { '3': 700 }, days: { '1': 1600, '2': 3000 } },
    });
  });
});

describe('wireDuration', () => {
  it("spells hours 'h' and days 'g' as the booking payloads do", () => {
    expect(wireDuration({ value: 3, unit: 'hours' })).toEqual({ value: 3, unit: 'h' });
    expect(wireDuration({ value: 2, unit: 'days' })).toEqual({ value: 2, unit: 'g' });
  });
});
