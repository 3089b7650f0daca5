import { describe, expect, it } from 'vitest';
import {
  LOCKER_SIZES,
  MAX_AMOUNT_CENTS,
  MIN_AMOUNT_CENTS,
  SERVICE_FEE_CENTS,
  amountInCents,
  bookingPriceCents,
  bookingTotalFits,
  bookingTotals,
  centsToEuros,
  discountCents,
  durationInHours,
  eurosToCents,
  formatEuros,
  isLockerSize,
  nightPriceCents,
  nightPricingConfig,
  parseDurationUnit,
  unitPriceCents,
  validatePaymentAmount,
  type LocationPricing,
  type LockerSize,
} from './index';

const pricing: LocationPricing = {
  standard: { hours: { '3': 500, '4': 600, '5': 700, '6': 800 }, days: { '1': 1200, '2': 2200, '15': 9000 } },
  large: { hours: { '3': 700, '4': 850, '6': 1100 }, days: { '1': 1600, '2': 3000 } },
};

describe('locker sizes', () => {
  it('are exactly standard and large', () => {
    expect(LOCKER_SIZES).toEqual(['standard', 'large']);
    expect(isLockerSize('standard')).toBe(true);
    expect(isLockerSize('large')).toBe(true);
    expect(isLockerSize('medium')).toBe(false);
    expect(isLockerSize(undefined)).toBe(false);
  });
});

describe('parseDurationUnit', () => {
  it.each([
    ['ore', 'hours'],
    ['h', 'hours'],
    ['hours', 'hours'],
    ['g', 'days'],
    ['days', 'days'],
    ['giorni', 'days'],
    [' ORE ', 'hours'],
    ['G', 'days'],
  ])('%j → %s', (unit, expected) => {
    expect(parseDurationUnit(unit)).toBe(expected);
  });

  it.each(['', 'm', 'minutes', 'settimane', 'd'])('rejects %j', (unit) => {
    expect(parseDurationUnit(unit)).toBeNull();
  });
});

describe('unitPriceCents', () => {
  it('reads the hourly table for hours and the daily table for days', () => {
    expect(unitPriceCents(pricing, 'standard', { value: 3, unit: 'hours' })).toBe(500);
    expect(unitPriceCents(pricing, 'standard', { value: 6, unit: 'hours' })).toBe(800);
    expect(unitPriceCents(pricing, 'large', { value: 3, unit: 'hours' })).toBe(700);
    expect(unitPriceCents(pricing, 'standard', { value: 1, unit: 'days' })).toBe(1200);
    expect(unitPriceCents(pricing, 'large', { value: 2, unit: 'days' })).toBe(3000);
  });

  it('does not confuse 1 hour with 1 day', () => {
    expect(unitPriceCents(pricing, 'standard', { value: 1, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(pricing, 'standard', { value: 3, unit: 'days' })).toBeNull();
  });

  it('is null for missing entries, unknown sizes and invalid durations', () => {
    expect(unitPriceCents(pricing, 'large', { value: 5, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(pricing, 'medium' as LockerSize, { value: 3, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(pricing, 'standard', { value: Number.NaN, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(pricing, 'standard', { value: -3, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(pricing, 'standard', { value: 0, unit: 'days' })).toBeNull();
    expect(unitPriceCents(pricing, 'standard', { value: 3.5, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(pricing, 'standard', { value: 3, unit: 'weeks' as 'hours' })).toBeNull();
  });

  it('ignores inherited properties and corrupt prices', () => {
    const corrupt: LocationPricing = {
      standard: { hours: { '3': -100, '4': 12.5, '5': Number.NaN }, days: {} },
      large: { hours: {}, days: {} },
    };
    expect(unitPriceCents(corrupt, 'standard', { value: 3, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(corrupt, 'standard', { value: 4, unit: 'hours' })).toBeNull();
    expect(unitPriceCents(corrupt, 'standard', { value: 5, unit: 'hours' })).toBeNull();
    expect(unitPriceCents({} as LocationPricing, 'standard', { value: 3, unit: 'hours' })).toBeNull();
  });

  it('accepts a free entry (0 cents)', () => {
    const free: LocationPricing = {
      standard: { hours: { '3': 0 }, days: {} },
      large: { hours: {}, days: {} },
    };
    expect(unitPriceCents(free, 'standard', { value: 3, unit: 'hours' })).toBe(0);
  });
});

describe('bookingPriceCents', () => {
  it('is quantity × unit price', () => {
    const duration = { value: 4, unit: 'hours' } as const;
    expect(bookingPriceCents({ pricing, size: 'standard', duration, quantity: 1 })).toBe(600);
    expect(bookingPriceCents({ pricing, size: 'standard', duration, quantity: 3 })).toBe(1800);
    expect(
      bookingPriceCents({ pricing, size: 'large', duration: { value: 15, unit: 'days' }, quantity: 2 }),
    ).toBeNull();
    expect(
      bookingPriceCents({ pricing, size: 'standard', duration: { value: 15, unit: 'days' }, quantity: 2 }),
    ).toBe(18000);
  });

  it('is null for an invalid quantity or a missing price', () => {
    const duration = { value: 3, unit: 'hours' } as const;
    for (const quantity of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(bookingPriceCents({ pricing, size: 'standard', duration, quantity })).toBeNull();
    }
    expect(
      bookingPriceCents({ pricing, size: 'large', duration: { value: 5, unit: 'hours' }, quantity: 1 }),
    ).toBeNull();
  });
});

describe('night pricing', () => {
  it('derives h{hours} keys from hour and day tables', () => {
    expect(nightPricingConfig(pricing)).toEqual({
      standard: { h3: 500, h4: 600, h5: 700, h6: 800, h24: 1200, h48: 2200, h360: 9000 },
      large: { h3: 700, h4: 850, h6: 1100, h24: 1600, h48: 3000 },
    });
  });

  it('leaves out invalid keys and prices and tolerates missing sizes', () => {
    const messy = {
      standard: { hours: { '3': 500, abc: 1, '0': 5, '2.5': 9, '4': -1 }, days: { '1': 1000, '-1': 3 } },
    } as unknown as LocationPricing;
    expect(nightPricingConfig(messy)).toEqual({ standard: { h3: 500, h24: 1000 }, large: {} });
  });

  it('prices h{hours} × quantity, 24 hours by default, 0 when missing', () => {
    const config = nightPricingConfig(pricing);
    expect(nightPriceCents(config, 'standard')).toBe(1200);
    expect(nightPriceCents(config, 'standard', undefined, 2)).toBe(2400);
    expect(nightPriceCents(config, 'large', 3, 3)).toBe(2100);
    expect(nightPriceCents(config, 'large', 48, 2)).toBe(6000);
    expect(nightPriceCents(config, 'large', 5, 1)).toBe(0);
    expect(nightPriceCents(config, 'large', 72, 1)).toBe(0);
    expect(nightPriceCents(config, 'medium' as LockerSize, 24, 1)).toBe(0);
    expect(nightPriceCents(config, 'standard', 24, 0)).toBe(0);
    expect(nightPriceCents(config, 'standard', Number.NaN, 1)).toBe(0);
  });

  it('agrees with the daytime price for the same booking', () => {
    const config = nightPricingConfig(pricing);
    for (const size of LOCKER_SIZES) {
      for (const duration of [
        { value: 3, unit: 'hours' },
        { value: 4, unit: 'hours' },
        { value: 1, unit: 'days' },
        { value: 2, unit: 'days' },
      ] as const) {
        expect(nightPriceCents(config, size, durationInHours(duration), 2)).toBe(
          bookingPriceCents({ pricing, size, duration, quantity: 2 }) ?? 0,
        );
      }
    }
  });
});

describe('discountCents', () => {
  it('takes a percent of the price, rounded to the cent', () => {
    expect(discountCents(1000, { type: 'percent', value: 10 })).toBe(100);
    expect(discountCents(999, { type: 'percent', value: 10 })).toBe(100); // 99.9
    expect(discountCents(1005, { type: 'percent', value: 10 })).toBe(101); // 100.5 rounds up
    expect(discountCents(1004, { type: 'percent', value: 10 })).toBe(100); // 100.4 rounds down
    expect(discountCents(1000, { type: 'percent', value: 12.5 })).toBe(125);
    expect(discountCents(1000, { type: 'percent', value: 100 })).toBe(1000);
  });

  it('reads a euro discount in euros', () => {
    expect(discountCents(1000, { type: 'euro', value: 2 })).toBe(200);
    expect(discountCents(1000, { type: 'euro', value: 2.5 })).toBe(250);
    expect(discountCents(1000, { type: 'euro', value: 0.1 })).toBe(10);
  });

  it('never exceeds the price', () => {
    expect(discountCents(1000, { type: 'euro', value: 15 })).toBe(1000);
    expect(discountCents(1000, { type: 'percent', value: 150 })).toBe(1000);
  });

  it('is 0 for malformed or negative discounts', () => {
    expect(discountCents(1000, { type: 'percent', value: -10 })).toBe(0);
    expect(discountCents(1000, { type: 'euro', value: -5 })).toBe(0);
    expect(discountCents(1000, { type: 'percent', value: Number.NaN })).toBe(0);
    expect(discountCents(1000, { type: 'coupon' as 'euro', value: 5 })).toBe(0);
    expect(discountCents(0, { type: 'euro', value: 5 })).toBe(0);
  });
});

describe('bookingTotalFits', () => {
  it('takes a price whose total with the fee is at most 100,000 €, not one cent more', () => {
    expect(MAX_AMOUNT_CENTS).toBe(10_000_000);
    expect(bookingTotalFits(MAX_AMOUNT_CENTS - SERVICE_FEE_CENTS)).toBe(true);
    expect(bookingTotalFits(MAX_AMOUNT_CENTS - SERVICE_FEE_CENTS + 1)).toBe(false);
    expect(bookingTotalFits(eurosToCents(99_999.99))).toBe(false);
  });
});

describe('bookingTotals', () => {
  it('adds the 0.50 € fee to the undiscounted price', () => {
    expect(SERVICE_FEE_CENTS).toBe(50);
    expect(bookingTotals({ priceCents: 1200 })).toEqual({
      priceCents: 1200,
      discountCents: 0,
      discountedPriceCents: 1200,
      feeCents: 50,
      minimumChargeTopUpCents: 0,
      totalCents: 1250,
    });
  });

  it('subtracts the discount before the fee', () => {
    expect(bookingTotals({ priceCents: 1200, discount: { type: 'percent', value: 25 } })).toEqual({
      priceCents: 1200,
      discountCents: 300,
      discountedPriceCents: 900,
      feeCents: 50,
      minimumChargeTopUpCents: 0,
      totalCents: 950,
    });
    expect(bookingTotals({ priceCents: 1200, discount: { type: 'euro', value: 5 } }).totalCents).toBe(750);
  });

  it('floors the discounted price at 0 and raises the total to the minimum charge, the amount charged', () => {
    expect(bookingTotals({ priceCents: 500, discount: { type: 'euro', value: 20 } })).toEqual({
      priceCents: 500,
      discountCents: 500,
      discountedPriceCents: 0,
      feeCents: 50,
      minimumChargeTopUpCents: 50,
      totalCents: 100,
    });
    // The total is what the gateway is asked for: never a different figure.
    for (const priceCents of [0, 1, 49, 50, 51, 500, 1200]) {
      const totals = bookingTotals({ priceCents, discount: { type: 'percent', value: 100 } });
      expect(amountInCents(totals.totalCents)).toBe(totals.totalCents);
    }
  });

  it('treats a null discount as none and rejects invalid prices', () => {
    expect(bookingTotals({ priceCents: 700, discount: null }).totalCents).toBe(750);
    expect(() => bookingTotals({ priceCents: -1 })).toThrow(RangeError);
    expect(() => bookingTotals({ priceCents: 10.5 })).toThrow(RangeError);
    expect(() => bookingTotals({ priceCents: Number.NaN })).toThrow(RangeError);
  });
});

describe('amounts', () => {
  it('rounds to the cent with a 1 € minimum', () => {
    expect(MIN_AMOUNT_CENTS).toBe(100);
    expect(amountInCents(1250)).toBe(1250);
    expect(amountInCents(1249.5)).toBe(1250);
    expect(amountInCents(1249.49)).toBe(1249);
    expect(amountInCents(100)).toBe(100);
    expect(amountInCents(99)).toBe(100);
    expect(amountInCents(50)).toBe(100);
    expect(amountInCents(0)).toBe(100);
    expect(() => amountInCents(Number.NaN)).toThrow(RangeError);
  });

  it('charges 1 € when a discount makes the booking free', () => {
    const totals = bookingTotals({ priceCents: 500, discount: { type: 'percent', value: 100 } });
    expect(amountInCents(totals.totalCents)).toBe(100);
  });

  it('validates payment amounts per payment.error.amount', () => {
    expect(validatePaymentAmount(100)).toEqual({ ok: true });
    expect(validatePaymentAmount(12_345)).toEqual({ ok: true });
    for (const bad of [99, 0, -100, 100.5, Number.NaN, Number.POSITIVE_INFINITY, '100', null, undefined]) {
      expect(validatePaymentAmount(bad)).toEqual({ ok: false, error: 'payment.error.amount' });
    }
  });
});

describe('euro conversion and display', () => {
  it('converts euros to cents without floating-point drift', () => {
    expect(eurosToCents(0.5)).toBe(50);
    expect(eurosToCents(12)).toBe(1200);
    expect(eurosToCents(0.1 + 0.2)).toBe(30);
    expect(eurosToCents(1.005)).toBe(101);
    expect(eurosToCents(19.99)).toBe(1999);
    expect(eurosToCents(1.234)).toBe(123);
    expect(eurosToCents(-2.5)).toBe(-250);
    expect(() => eurosToCents(Number.NaN)).toThrow(RangeError);
    expect(() => eurosToCents(Number.POSITIVE_INFINITY)).toThrow(RangeError);
  });

  it('converts cents to euros', () => {
    expect(centsToEuros(1250)).toBe(12.5);
    expect(centsToEuros(1)).toBe(0.01);
    expect(() => centsToEuros(1.5)).toThrow(RangeError);
  });

  it('round-trips every cent amount up to 1000 €', () => {
    for (let cents = 0; cents <= 100_000; cents += 7) expect(eurosToCents(centsToEuros(cents))).toBe(cents);
  });

  it('formats euros for display', () => {
    expect(formatEuros(1250)).toBe('12,50\u00a0€');
    expect(formatEuros(50)).toBe('0,50\u00a0€');
    expect(formatEuros(123456)).toBe('1234,56\u00a0€');
    expect(formatEuros(1250, 'en-GB')).toBe('€12.50');
    expect(() => formatEuros(Number.NaN)).toThrow(RangeError);
  });
});
