import { z } from 'zod';
import { wholeNumberOf } from '@deposito/protocol/whole-number';

// Kinds of value the cloud's environment variables hold, for env.ts and the shapes it gathers
// (payments, limits): each says in its message what it expects and what it was given.

/**
 * A whole number from `min` to `max`, written in decimal digits. `z.coerce.number()` took a blank
 * value as 0 (a random port), `1e3` or `0x50` as numbers, and said "received NaN" of a word.
 */
export function wholeNumberVar(min: number, max: number) {
  return z.string().transform((value, context) => {
    const number = wholeNumberOf(value);
    if (number === null || number < min || number > max) {
      context.addIssue({
        code: 'custom',
        message: `a whole number from ${min} to ${max}, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return number;
  });
}
