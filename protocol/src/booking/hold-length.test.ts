import { describe, expect, it } from 'vitest';
import { ANONYMOUS_HOLD_MINUTES, holdMinutes, namedHoldExpiry } from './hold-length';

describe('hold length', () => {
  it('keeps an anonymous hold short, a named one for the whole setting, never longer than the setting', () => {
    expect(holdMinutes(15, false)).toBe(ANONYMOUS_HOLD_MINUTES);
    expect(holdMinutes(15, true)).toBe(15);
    expect(holdMinutes(3, false)).toBe(3);
  });

  it('gives a named hold the setting from when it was made, never less than it has', () => {
    const createdAt = new Date('2026-03-27T08:00:00Z');
    expect(namedHoldExpiry({ createdAt, expiresAt: new Date('2026-03-27T08:05:00Z') }, 15)).toEqual(
      new Date('2026-03-27T08:15:00Z'),
    );
    expect(namedHoldExpiry({ createdAt, expiresAt: new Date('2026-03-27T08:20:00Z') }, 15)).toBeNull();
    expect(namedHoldExpiry({ createdAt, expiresAt: null }, 15)).toBeNull();
  });
});
