import { describe, expect, it } from 'vitest';
import { countsThroughout, hasAnyFree, nightRangeVerdict } from './period-availability';

describe('countsThroughout', () => {
  it("is each size's smallest count over the period's days", () => {
    expect(
      countsThroughout({
        '2026-03-28': { standard: 4, large: 1 },
        '2026-03-29': { standard: 2, large: 3 },
        '2026-03-30': { standard: 5, large: 2 },
      }),
    ).toEqual({ standard: 2, large: 1 });
  });

  it('is null for an answer without days', () => {
    expect(countsThroughout({})).toBeNull();
  });
});

describe('hasAnyFree', () => {
  it('needs one locker of either size', () => {
    expect(hasAnyFree({ standard: 0, large: 1 })).toBe(true);
    expect(hasAnyFree({ standard: 0, large: 0 })).toBe(false);
    expect(hasAnyFree(null)).toBe(false);
    expect(hasAnyFree(undefined)).toBe(false);
  });
});

describe('nightRangeVerdict (customer spec §5)', () => {
  it('passes with the counts free on every day', () => {
    expect(
      nightRangeVerdict({ '2026-07-01': { standard: 3, large: 1 }, '2026-07-02': { standard: 1, large: 2 } }),
    ).toEqual({ ok: true, counts: { standard: 1, large: 1 } });
  });

  it("answers 'calendar.error.noAvailability' when some day is full", () => {
    expect(
      nightRangeVerdict({ '2026-07-01': { standard: 3, large: 1 }, '2026-07-02': { standard: 0, large: 0 } }),
    ).toEqual({ ok: false, errorKey: 'calendar.error.noAvailability' });
  });

  it("answers 'night.error.noAvailability' when every day is full or there are no days", () => {
    expect(
      nightRangeVerdict({ '2026-07-01': { standard: 0, large: 0 }, '2026-07-02': { standard: 0, large: 0 } }),
    ).toEqual({ ok: false, errorKey: 'night.error.noAvailability' });
    expect(nightRangeVerdict({})).toEqual({ ok: false, errorKey: 'night.error.noAvailability' });
  });
});
