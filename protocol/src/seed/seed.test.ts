import { describe, expect, it } from 'vitest';
import { discountCodeInputSchema, locationSchema } from '../schemas/index';
import { SEED_DISCOUNTS } from './discounts';
import { SEED_LOCATIONS } from './locations';

describe('seed locations', () => {
  it('are the six spec locations and each parses as a location', () => {
    expect(SEED_LOCATIONS.map((location) => location.key)).toEqual([
      'oca',
      'vicolo',
      'termini',
      'areadebug',
      'campo',
      'magna',
    ]);
    // Seeds are open sites: the schema's default says so.
    for (const location of SEED_LOCATIONS)
      expect(locationSchema.parse(location)).toEqual({ ...location, manutenzione: false });
  });

  it('put campo in London and the others in Rome', () => {
    for (const location of SEED_LOCATIONS) {
      expect(location.timezone).toBe(location.key === 'campo' ? 'Europe/London' : 'Europe/Rome');
    }
  });

  it('give each controller its own local port from 11000', () => {
    const ports = SEED_LOCATIONS.map((location) => location.port);
    expect(new Set(ports).size).toBe(ports.length);
    expect(Math.min(...ports)).toBe(11000);
    for (const location of SEED_LOCATIONS) expect(location.recipient).toBe('127.0.0.1');
  });

  it('have 8 to 20 lockers of both sizes, and no more online than exist', () => {
    for (const { lockerStructure, maxOnline } of SEED_LOCATIONS) {
      const total = lockerStructure.standard.length + lockerStructure.large.length;
      expect(total).toBeGreaterThanOrEqual(8);
      expect(total).toBeLessThanOrEqual(20);
      expect(lockerStructure.large.length).toBeGreaterThan(0);
      expect(maxOnline.standard).toBeLessThanOrEqual(lockerStructure.standard.length);
      expect(maxOnline.large).toBeLessThanOrEqual(lockerStructure.large.length);
    }
  });

  it('price 3 to 6 hours and 1 to 15 days for both sizes, large dearer', () => {
    const hours = ['3', '4', '5', '6'];
    const days = Array.from({ length: 15 }, (_, index) => String(index + 1));
    for (const { pricing } of SEED_LOCATIONS) {
      for (const size of ['standard', 'large'] as const) {
        expect(Object.keys(pricing[size].hours)).toEqual(hours);
        expect(Object.keys(pricing[size].days)).toEqual(days);
      }
      for (const h of hours) expect(pricing.large.hours[h]).toBeGreaterThan(pricing.standard.hours[h]);
      for (const d of days) expect(pricing.large.days[d]).toBeGreaterThan(pricing.standard.days[d]);
    }
  });
});

describe('seed discounts', () => {
  it('parse as discount codes and have unique codes', () => {
    for (const discount of SEED_DISCOUNTS) discountCodeInputSchema.parse(discount);
    const codes = SEED_DISCOUNTS.map((discount) => discount.code);
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes).toEqual(expect.arrayContaining(['WELCOME10', 'FIVEOFF', 'ONCE20', 'LONGSTAY']));
  });

  it('include an expired code', () => {
    expect(
      SEED_DISCOUNTS.some((discount) => discount.validTo !== null && discount.validTo < '2025-01-01'),
    ).toBe(true);
  });
});
