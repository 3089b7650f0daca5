import { describe, expect, it } from 'vitest';
import { wholeNumberOf } from './whole-number';

describe('wholeNumberOf', () => {
  it('reads decimal digits, blanks around them allowed', () => {
    expect(wholeNumberOf('8080')).toBe(8080);
    expect(wholeNumberOf(' 0 ')).toBe(0);
    expect(wholeNumberOf('999999999999999')).toBe(999_999_999_999_999);
  });

  it('refuses what Number() would have taken: blanks, exponents, hex, signs, fractions, too many digits', () => {
    for (const text of ['', '  ', '1e3', '0x50', '+5', '-5', '12.5', '1 000', 'soon', '1234567890123456']) {
      expect(wholeNumberOf(text)).toBeNull();
    }
  });
});
