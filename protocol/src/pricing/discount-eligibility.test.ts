import { describe, expect, it } from 'vitest';
import { discountEligibility, type DiscountTerms } from './discount-eligibility';

const terms = (overrides: Partial<DiscountTerms> = {}): DiscountTerms => ({
  percent: 10,
  amountCents: null,
  validFrom: null,
  validTo: null,
  minDays: null,
  ...overrides,
});

describe('discountEligibility', () => {
  it('grants a percent or a euro amount', () => {
    expect(discountEligibility({ terms: terms(), today: '2026-03-01', takenByAnother: false })).toEqual({
      ok: true,
      discount: { type: 'percent', value: 10 },
      warning: null,
    });
    const euro = discountEligibility({
      terms: terms({ percent: null, amountCents: 550 }),
      today: '2026-03-01',
      takenByAnother: false,
    });
    expect(euro).toMatchObject({ ok: true, discount: { type: 'euro', value: 5.5 } });
  });

  it('respects the validity days, both inclusive', () => {
    const period = terms({ validFrom: '2026-03-01', validTo: '2026-03-31' });
    const check = (today: string) => discountEligibility({ terms: period, today, takenByAnother: false });
    expect(check('2026-02-28')).toEqual({ ok: false, reason: 'not_yet_valid' });
    expect(check('2026-03-01').ok).toBe(true);
    expect(check('2026-03-31').ok).toBe(true);
    expect(check('2026-04-01')).toEqual({ ok: false, reason: 'expired' });
  });

  it('needs the minimum stay in days, and warns when no duration is known', () => {
    const long = terms({ minDays: 3 });
    const check = (duration?: { value: number; unit: 'hours' | 'days' }) =>
      discountEligibility({ terms: long, today: '2026-03-01', duration, takenByAnother: false });
    expect(check({ value: 2, unit: 'days' })).toEqual({ ok: false, reason: 'min_days' });
    expect(check({ value: 6, unit: 'hours' })).toEqual({ ok: false, reason: 'min_days' });
    expect(check({ value: 3, unit: 'days' })).toMatchObject({ ok: true, warning: null });
    expect(check()).toMatchObject({ ok: true, warning: 'min_days_unchecked' });
  });

  it('refuses a single-use code another booking holds, and a malformed one', () => {
    expect(discountEligibility({ terms: terms(), today: '2026-03-01', takenByAnother: true })).toEqual({
      ok: false,
      reason: 'already_used',
    });
    expect(
      discountEligibility({ terms: terms({ percent: null }), today: '2026-03-01', takenByAnother: false }),
    ).toEqual({ ok: false, reason: 'malformed' });
  });
});
