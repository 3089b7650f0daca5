// The 6-digit PIN that opens a booked locker. Randomness comes from the caller (crypto on the
// server), so this module stays pure and tests can use a seeded source.

export const PIN_LENGTH = 6;
const PIN_PATTERN = /^\d{6}$/;

/**
 * Where random digits come from: a function returning a float in [0, 1) (Math.random-like), or a
 * byte source such as `{ randomBytes: (size) => crypto.getRandomValues(new Uint8Array(size)) }`.
 */
export type PinRandomSource = (() => number) | { randomBytes: (size: number) => Uint8Array };

/** True for a string of exactly six ASCII digits. */
export function isPinFormat(value: unknown): value is string {
  return typeof value === 'string' && PIN_PATTERN.test(value);
}

/**
 * PINs a passer-by would try first: all one digit (000000), a run up or down with wrap-around
 * (123456, 654321, 890123), or a short repeated block (121212, 123123).
 */
export function isTrivialPin(pin: string): boolean {
  if (!isPinFormat(pin)) return false;
  const digits = [...pin].map(Number);
  const steps = digits.slice(1).map((digit, index) => (digit - digits[index] + 10) % 10);
  if (steps.every((step) => step === steps[0]) && (steps[0] === 0 || steps[0] === 1 || steps[0] === 9))
    return true;
  return pin === pin.slice(0, 2).repeat(3) || pin === pin.slice(0, 3).repeat(2);
}

/** A PIN customers may be given: six digits and not trivial. */
export function isValidPin(value: unknown): value is string {
  return isPinFormat(value) && !isTrivialPin(value);
}

/**
 * Draws a random non-trivial PIN that is not in `exclude` (PINs in use at the location).
 * Throws after `maxAttempts` draws, which only happens with a broken source or an exhausted set.
 */
export function generatePin(
  random: PinRandomSource,
  options: { exclude?: ReadonlySet<string>; maxAttempts?: number } = {},
): string {
  const maxAttempts = options.maxAttempts ?? 1000;
  const nextDigit = digitSource(random);
  for (let attempt = 0; attempt < maxAttempts; attempt += 1) {
    let pin = '';
    for (let index = 0; index < PIN_LENGTH; index += 1) pin += String(nextDigit());
    if (!isTrivialPin(pin) && !options.exclude?.has(pin)) return pin;
  }
  throw new Error(`No usable PIN after ${maxAttempts} attempts`);
}

function digitSource(random: PinRandomSource): () => number {
  if (typeof random === 'function') {
    return () => {
      const value = random();
      if (typeof value !== 'number' || !(value >= 0 && value < 1)) {
        throw new RangeError(`Random source returned ${String(value)}, expected a number in [0, 1)`);
      }
      return Math.floor(value * 10);
    };
  }
  let buffer: Uint8Array = new Uint8Array(0);
  let position = 0;
  return () => {
    // Rejection sampling: bytes 250–255 would make digits 0–5 slightly more likely.
    for (;;) {
      if (position >= buffer.length) {
        buffer = random.randomBytes(16);
        position = 0;
        if (buffer.length === 0) throw new RangeError('Random byte source returned no bytes');
      }
      const byte = buffer[position];
      position += 1;
      if (byte < 250) return byte % 10;
    }
  };
}
