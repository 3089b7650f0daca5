import { describe, expect, it } from 'vitest';
import {
  ACTIVE_BOOKING_STATUSES,
  BOOKING_ACTORS,
  BOOKING_TRANSITIONS,
  HOLD_BOOKING_STATUSES,
  IllegalTransitionError,
  PAID_BOOKING_STATUSES,
  assertTransition,
  canTransition,
  isHoldBookingStatus,
  statusesLeadingTo,
  BOOKING_STATUSES,
  DEFAULT_LANGUAGE,
  LANGUAGES,
  MAX_QUANTITY,
  TRANSACTION_ID_PREFIX,
  buildNote,
  generatePin,
  isActiveBookingStatus,
  isBookingStatus,
  isLanguage,
  isPinFormat,
  isQuantityAllowed,
  isTransactionId,
  isTrivialPin,
  LANGUAGE_LOCALE,
  LANGUAGE_TAG,
  languageOfTag,
  isValidPin,
  parseNote,
  quantityOptions,
  transactionIdFromBytes,
  type Language,
} from './index';
import { seededRandom } from '../seeded-random';

function seededBytes(seed: number): (size: number) => Uint8Array {
  const next = seededRandom(seed);
  return (size) => Uint8Array.from({ length: size }, () => Math.floor(next() * 256));
}

/** A source that replays the given floats, then fails the test if asked for more. */
function replay(values: number[]): () => number {
  let index = 0;
  return () => {
    if (index >= values.length) throw new Error('replay source exhausted');
    return values[index++];
  };
}

const digitsAsFloats = (pin: string) => [...pin].map((digit) => Number(digit) / 10 + 0.05);

describe('booking statuses', () => {
  it('lists every status and the ones that hold lockers', () => {
    // The admin area's order, on one line: a reordering shows as a one-line diff.
    expect(BOOKING_STATUSES.join(' ')).toBe(
      'pending scheduled confirmed cancelled expired confirmed_late failed_after_payment paying payment_declined cancelled_by_operator refund_due refunded',
    );
    expect(ACTIVE_BOOKING_STATUSES).toEqual([
      'pending',
      'paying',
      'payment_declined',
      'scheduled',
      'confirmed',
      'confirmed_late',
    ]);
  });

  it('classifies statuses', () => {
    expect(BOOKING_STATUSES.filter(isActiveBookingStatus).sort()).toEqual(
      [...ACTIVE_BOOKING_STATUSES].sort(),
    );
    expect(isActiveBookingStatus('cancelled')).toBe(false);
    expect(isActiveBookingStatus('expired')).toBe(false);
    expect(isActiveBookingStatus('failed_after_payment')).toBe(false);
    expect(isActiveBookingStatus('refund_due')).toBe(false);
    expect(isHoldBookingStatus('paying')).toBe(true);
    expect(isHoldBookingStatus('confirmed')).toBe(false);
    expect(isBookingStatus('confirmed_late')).toBe(true);
    expect(isBookingStatus('Confirmed')).toBe(false);
    expect(isBookingStatus(3)).toBe(false);
  });
});

describe('the booking state machine', () => {
  it('lets only the provider confirm, and only an unpaid or lapsed booking', () => {
    for (const from of BOOKING_STATUSES) {
      for (const actor of BOOKING_ACTORS) {
        if (canTransition(from, 'confirmed', actor)) {
          expect(['provider', 'scheduler', 'operator']).toContain(actor);
          expect([...HOLD_BOOKING_STATUSES, 'scheduled']).toContain(from);
        }
      }
    }
    expect(canTransition('paying', 'confirmed', 'visitor')).toBe(false);
    expect(statusesLeadingTo('confirmed', 'provider')).toEqual(['pending', 'paying', 'payment_declined']);
  });

  it('never lets a paid booking lapse or be cancelled as if unpaid', () => {
    for (const from of PAID_BOOKING_STATUSES) {
      for (const actor of BOOKING_ACTORS) {
        expect(canTransition(from, 'expired', actor)).toBe(false);
        expect(canTransition(from, 'cancelled', actor)).toBe(false);
      }
    }
  });

  it('freezes a hold once its payment is open: only pending may be edited, and nothing returns to it', () => {
    for (const from of BOOKING_STATUSES) {
      for (const actor of BOOKING_ACTORS) expect(canTransition(from, 'pending', actor)).toBe(false);
    }
    expect(canTransition('pending', 'paying', 'visitor')).toBe(true);
    expect(canTransition('payment_declined', 'paying', 'visitor')).toBe(true);
  });

  it('ends in statuses nothing leaves, and throws for a move it does not allow', () => {
    // A refund owed ends when the gateway (or an operator, by hand) has given the money back.
    expect(BOOKING_TRANSITIONS.refund_due).toEqual([{ to: 'refunded', by: ['provider', 'operator'] }]);
    expect(BOOKING_TRANSITIONS.refunded).toEqual([]);
    expect(() => assertTransition('refund_due', 'refunded', 'visitor')).toThrow(IllegalTransitionError);
    expect(BOOKING_TRANSITIONS.cancelled_by_operator).toEqual([
      { to: 'failed_after_payment', by: ['provider'] },
    ]);
    expect(() => assertTransition('confirmed', 'expired', 'system')).toThrow(IllegalTransitionError);
    expect(() => assertTransition('paying', 'confirmed', 'provider')).not.toThrow();
  });
});

describe('quantity', () => {
  it('offers 1 to min(available, 3)', () => {
    expect(MAX_QUANTITY).toBe(3);
    expect(quantityOptions(0)).toEqual([]);
    expect(quantityOptions(1)).toEqual([1]);
    expect(quantityOptions(2)).toEqual([1, 2]);
    expect(quantityOptions(3)).toEqual([1, 2, 3]);
    expect(quantityOptions(40)).toEqual([1, 2, 3]);
    expect(quantityOptions(2.7)).toEqual([1, 2]);
  });

  it('offers nothing for invalid availability', () => {
    expect(quantityOptions(-1)).toEqual([]);
    expect(quantityOptions(Number.NaN)).toEqual([]);
    expect(quantityOptions(Number.POSITIVE_INFINITY)).toEqual([1, 2, 3]);
  });

  it('allows only whole quantities within the options', () => {
    expect(isQuantityAllowed(1, 1)).toBe(true);
    expect(isQuantityAllowed(3, 10)).toBe(true);
    expect(isQuantityAllowed(4, 10)).toBe(false);
    expect(isQuantityAllowed(2, 1)).toBe(false);
    expect(isQuantityAllowed(0, 5)).toBe(false);
    expect(isQuantityAllowed(-1, 5)).toBe(false);
    expect(isQuantityAllowed(1.5, 5)).toBe(false);
    expect(isQuantityAllowed(Number.NaN, 5)).toBe(false);
    expect(isQuantityAllowed(1, 0)).toBe(false);
    expect(isQuantityAllowed(1, Number.NaN)).toBe(false);
  });
});

describe('isTrivialPin', () => {
  it.each([
    '000000',
    '111111',
    '999999',
    '123456',
    '234567',
    '456789',
    '012345',
    '567890',
    '890123',
    '654321',
    '987654',
    '543210',
    '109876',
    '121212',
    '909090',
    '123123',
    '007007',
  ])('%s is trivial', (pin) => {
    expect(isTrivialPin(pin)).toBe(true);
    expect(isValidPin(pin)).toBe(false);
  });

  it.each(['482913', '135790', '112233', '123457', '246802', '100000', '123321', '129120'])(
    '%s is not trivial',
    (pin) => {
      expect(isTrivialPin(pin)).toBe(false);
      expect(isValidPin(pin)).toBe(true);
    },
  );

  it('rejects malformed PINs as invalid', () => {
    for (const bad of ['12345', '1234567', '12a456', ' 482913', '４８２９１３', '', null, 482913]) {
      expect(isPinFormat(bad)).toBe(false);
      expect(isValidPin(bad)).toBe(false);
    }
  });

  it('flags only a small share of all PINs', () => {
    let trivial = 0;
    for (let n = 0; n < 1_000_000; n += 1) if (isTrivialPin(String(n).padStart(6, '0'))) trivial += 1;
    // 10 repeated digits + 10 runs up + 10 runs down + 90 ababab (a ≠ b) + 990 abcabc (not all equal).
    expect(trivial).toBe(1110);
  });
});

describe('generatePin', () => {
  it('never returns a trivial PIN over many seeded draws', () => {
    const random = seededRandom(42);
    const seen = new Set<string>();
    for (let draw = 0; draw < 20_000; draw += 1) {
      const pin = generatePin(random);
      expect(isValidPin(pin)).toBe(true);
      seen.add(pin);
    }
    expect(seen.size).toBeGreaterThan(19_000);
  });

  it('uses every digit in every position', () => {
    const random = seededRandom(7);
    const counts = Array.from({ length: 6 }, () => new Array<number>(10).fill(0));
    for (let draw = 0; draw < 10_000; draw += 1) {
      [...generatePin(random)].forEach((digit, position) => (counts[position][Number(digit)] += 1));
    }
    for (const position of counts) for (const count of position) expect(count).toBeGreaterThan(850);
  });

  it('redraws when the draw is trivial', () => {
    const random = replay([
      ...digitsAsFloats('123456'),
      ...digitsAsFloats('000000'),
      ...digitsAsFloats('482913'),
    ]);
    expect(generatePin(random)).toBe('482913');
  });

  it('skips PINs in use', () => {
    const random = replay([...digitsAsFloats('482913'), ...digitsAsFloats('551804')]);
    expect(generatePin(random, { exclude: new Set(['482913']) })).toBe('551804');
  });

  it('accepts a byte source and stays unbiased by rejecting bytes 250–255', () => {
    const stream = [255, 14, 252, 8, 250, 1, 253, 105, 254, 249, 251, 3, 0, 0, 0, 0];
    expect(generatePin({ randomBytes: (size) => Uint8Array.from(stream.slice(0, size)) })).toBe('481593');
    // A constant stream only ever gives 444444, which is trivial.
    expect(() =>
      generatePin({ randomBytes: (size) => new Uint8Array(size).fill(4) }, { maxAttempts: 50 }),
    ).toThrow(/No usable PIN/);
  });

  it('draws valid PINs from a seeded byte source', () => {
    const source = { randomBytes: seededBytes(1) };
    for (let draw = 0; draw < 5000; draw += 1) expect(isValidPin(generatePin(source))).toBe(true);
  });

  it('gives up after maxAttempts with a broken source', () => {
    expect(() => generatePin(() => 0, { maxAttempts: 10 })).toThrow(/No usable PIN after 10 attempts/);
  });

  it('rejects random values outside [0, 1)', () => {
    expect(() => generatePin(() => 1)).toThrow(RangeError);
    expect(() => generatePin(() => -0.1)).toThrow(RangeError);
    expect(() => generatePin(() => Number.NaN)).toThrow(RangeError);
    expect(() => generatePin({ randomBytes: () => new Uint8Array(0) })).toThrow(RangeError);
  });
});

describe('transaction ids', () => {
  it('shapes 16 random bytes into BOOKING- plus 22 base64url characters', () => {
    const id = transactionIdFromBytes(new Uint8Array(16));
    expect(id).toBe('BOOKING-AAAAAAAAAAAAAAAAAAAAAA');
    expect(TRANSACTION_ID_PREFIX).toBe('BOOKING-');
    expect(isTransactionId(id)).toBe(true);
  });

  it('encodes base64url exactly (RFC 4648 §5, no padding)', () => {
    const bytes = Uint8Array.from({ length: 18 }, (_, i) => i * 15 + 250 - (i > 0 ? 255 : 0));
    const expected = Buffer.from(bytes).toString('base64url');
    expect(transactionIdFromBytes(bytes)).toBe(`BOOKING-${expected}`);
    const all = Uint8Array.from({ length: 64 }, (_, i) => 255 - i * 3);
    expect(transactionIdFromBytes(all)).toBe(`BOOKING-${Buffer.from(all).toString('base64url')}`);
    const seventeen = new Uint8Array(17).fill(0xfb);
    expect(transactionIdFromBytes(seventeen)).toBe(`BOOKING-${Buffer.from(seventeen).toString('base64url')}`);
  });

  it('produces ids that differ for different bytes', () => {
    const next = seededBytes(3);
    const ids = new Set(Array.from({ length: 1000 }, () => transactionIdFromBytes(next(16))));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(isTransactionId(id)).toBe(true);
  });

  it('refuses fewer than 128 random bits', () => {
    expect(() => transactionIdFromBytes(new Uint8Array(15))).toThrow(RangeError);
    expect(() => transactionIdFromBytes(new Uint8Array(65))).toThrow(RangeError);
  });

  it('recognises issued ids and rejects guessable or malformed ones', () => {
    expect(isTransactionId('BOOKING-0123456789abcdef0123456789abcdef')).toBe(true);
    expect(isTransactionId(`BOOKING-Zx_9-${'a'.repeat(17)}`)).toBe(true); // 22 characters
    expect(isTransactionId('BOOKING-1712345678901')).toBe(false);
    expect(isTransactionId(`BOOKING-Zx_9-${'a'.repeat(16)}`)).toBe(false); // 21 characters
    expect(isTransactionId(`BOOKING-${'a'.repeat(86)}`)).toBe(true);
    expect(isTransactionId('booking-0123456789abcdef0123456789abcdef')).toBe(false);
    expect(isTransactionId('BOOKING-0123456789abcdef0123456789abcde+')).toBe(false);
    expect(isTransactionId('BOOKING-0123456789abcdef0123456789abcdef=')).toBe(false);
    expect(isTransactionId(`BOOKING-${'a'.repeat(87)}`)).toBe(false);
    expect(isTransactionId(' BOOKING-0123456789abcdef0123456789abcdef')).toBe(false);
    expect(isTransactionId(undefined)).toBe(false);
  });
});

describe('booking notes', () => {
  it('lists the four languages with Italian as default', () => {
    expect(LANGUAGES).toEqual(['it', 'en', 'es', 'jp']);
    expect(DEFAULT_LANGUAGE).toBe('it');
    expect(isLanguage('jp')).toBe(true);
    expect(isLanguage('ja')).toBe(false);
  });

  it('reads browser language tags as interface languages, Japanese as "jp"', () => {
    expect(languageOfTag('ja-JP')).toBe('jp');
    expect(languageOfTag('JA')).toBe('jp');
    expect(languageOfTag(' en;q=0.8')).toBe('en');
    expect(languageOfTag('es_ES')).toBe('es');
    expect(languageOfTag('jp')).toBe('jp');
    expect(languageOfTag('de-DE')).toBeNull();
    expect(languageOfTag('')).toBeNull();
  });

  it('names each interface language by its real BCP 47 tag and locale', () => {
    expect(LANGUAGE_TAG.jp).toBe('ja');
    expect(LANGUAGE_LOCALE.jp).toBe('ja-JP');
    for (const language of LANGUAGES)
      expect(LANGUAGE_LOCALE[language].startsWith(LANGUAGE_TAG[language])).toBe(true);
  });

  it('builds notes in the legacy format', () => {
    expect(buildNote({ lang: 'it' })).toBe('lang:it');
    expect(buildNote({ lang: 'it', fastTrack: 'fasttrack' })).toBe('lang:it;fasttrack');
    expect(buildNote({ lang: 'es', fastTrack: 'fasttrack-fallback' })).toBe('lang:es;fasttrack-fallback');
    expect(buildNote({ lang: 'en', night: true })).toBe('lang:en;night');
    expect(buildNote({ lang: 'jp', night: false })).toBe('lang:jp');
  });

  it('refuses unknown languages and tags when building', () => {
    expect(() => buildNote({ lang: 'fr' as Language })).toThrow(RangeError);
    expect(() => buildNote({ lang: 'it', fastTrack: 'slow' as 'fasttrack' })).toThrow(RangeError);
  });

  it('parses what it builds', () => {
    for (const lang of LANGUAGES) {
      expect(parseNote(buildNote({ lang, fastTrack: 'fasttrack' }))).toEqual({
        lang,
        tags: ['fasttrack'],
        fastTrack: 'fasttrack',
        night: false,
      });
      expect(parseNote(buildNote({ lang, night: true }))).toEqual({
        lang,
        tags: ['night'],
        fastTrack: null,
        night: true,
      });
    }
    expect(parseNote('lang:en;fasttrack-fallback').fastTrack).toBe('fasttrack-fallback');
  });

  it('defaults to Italian and tolerates messy notes', () => {
    expect(parseNote(undefined)).toEqual({ lang: 'it', tags: [], fastTrack: null, night: false });
    expect(parseNote(null).lang).toBe('it');
    expect(parseNote('').lang).toBe('it');
    expect(parseNote('lang:fr;night').lang).toBe('it');
    expect(parseNote('fasttrack')).toEqual({
      lang: 'it',
      tags: ['fasttrack'],
      fastTrack: 'fasttrack',
      night: false,
    });
    expect(parseNote(' LANG:EN ; Night ;; test ')).toEqual({
      lang: 'en',
      tags: ['night', 'test'],
      fastTrack: null,
      night: true,
    });
    expect(parseNote('lang:es;lang:en').lang).toBe('es');
    expect(parseNote('lang:xx;lang:en').lang).toBe('it');
  });
});
