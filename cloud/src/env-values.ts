import { z } from 'zod';

// Kinds of value the cloud's environment variables hold, for env.ts and the shapes it gathers
// (payments, limits): each says in its message what it expects and what it was given.

/**
 * A whole number from `min` to `max`, written in decimal digits. `z.coerce.number()` took a blank
 * value as 0 (a random port), `1e3` or `0x50` as numbers, and said "received NaN" of a word.
 */
export function wholeNumberVar(min: number, max: number) {
  return z.string().transform((value, context) => {
    const digits = value.trim();
    const number = Number(digits);
    if (!/^\d{1,15}$/.test(digits) || number < min || number > max) {
      context.addIssue({
        code: 'custom',
        message: `a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return number;
  });
}
