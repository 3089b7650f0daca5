import { describe, expect, it } from 'vitest';
import { frontendOverridesSchema, publicLocationSchema } from '@deposito/protocol';
import { buildOverrides, buildPublicLocation } from '../../test/builders';
import { frontendOverridesAnswer, publicLocationAnswer } from './location-answers';

// The location page checks its first two answers with zod/mini mirrors of protocol's schemas; they
// must accept, reject and clean exactly what protocol's schemas do.

function verdicts(
  mirror: typeof publicLocationAnswer | typeof frontendOverridesAnswer,
  full: typeof publicLocationSchema | typeof frontendOverridesSchema,
  answer: unknown,
) {
  const byMirror = mirror.safeParse(answer);
  const byProtocol = full.safeParse(answer);
  return {
    mirror: byMirror.success ? byMirror.data : 'rejected',
    protocol: byProtocol.success ? byProtocol.data : 'rejected',
  };
}

const location = buildPublicLocation();
const prices = location.hourlyPrices;

const locationAnswers: [string, unknown][] = [
  ['a location as the cloud sends it', location],
  ['with fields the page does not read', { ...location, mastercode: 'secret' }],
  ['with a padded name and address', { ...location, nome: '  Vicolo  ', indirizzo: ' Via Roma 1 ' }],
  ['without a name', { ...location, nome: '   ' }],
  ['with a name that is too long', { ...location, nome: 'x'.repeat(81) }],
  ['with an upper-case key', { ...location, key: 'Vicolo' }],
  ['with a reserved key', { ...location, key: 'all' }],
  ['with a key that is too long', { ...location, key: 'a'.repeat(41) }],
  ['in an unknown zone', { ...location, timezone: 'Europe/Paris' }],
  ['with an opening time that is no time', { ...location, orari: { apertura: '7:00', chiusura: '20:00' } }],
  ['with a negative price', { ...location, hourlyPrices: { ...prices, standard: { '3': -1 } } }],
  ['with a fraction of a cent', { ...location, hourlyPrices: { ...prices, standard: { '3': 5.001 } } }],
  [
    'with a price too small for decimals',
    { ...location, hourlyPrices: { ...prices, standard: { '3': 5e-324 } } },
  ],
  ['with a price above the bound', { ...location, hourlyPrices: { ...prices, standard: { '3': 100_001 } } }],
  ['with a duration key that is no number', { ...location, dailyPrices: { ...prices, large: { x: 5 } } }],
  [
    'with too many price rows',
    {
      ...location,
      dailyPrices: {
        ...prices,
        large: Object.fromEntries(Array.from({ length: 61 }, (_, i) => [String(i + 1), 5])),
      },
    },
  ],
  ['without prices', { ...location, dailyPrices: undefined }],
  ['that is not an object', 'vicolo'],
];

const overrides = buildOverrides();
const window = { from: '12:00', to: '14:00' };

const overrideAnswers: [string, unknown][] = [
  ['overrides as the cloud sends them', overrides],
  ['with block windows', { ...overrides, BLOCK_WINDOWS: [window] }],
  ['from an older server, lower-case windows too', { ...overrides, block_windows: [window] }],
  ['with a malformed window', { ...overrides, BLOCK_WINDOWS: [{ from: '12', to: '14:00' }] }],
  ['with too many windows', { ...overrides, BLOCK_WINDOWS: Array.from({ length: 25 }, () => window) }],
  ['with maintenance as text', { ...overrides, MAINTENANCE_MODE: 'true' }],
  ['without fast-track hours', { ...overrides, fastTrackHours: undefined }],
  ['with fields the page does not read', { ...overrides, BOOKING_EXPIRATION_MINUTES: 15 }],
];

describe('first answers of the location page', () => {
  it.each(locationAnswers)('agree with protocol on a location %s', (_, answer) => {
    const { mirror, protocol } = verdicts(publicLocationAnswer, publicLocationSchema, answer);
    expect(mirror).toEqual(protocol);
  });

  it.each(overrideAnswers)('agree with protocol on %s', (_, answer) => {
    const { mirror, protocol } = verdicts(frontendOverridesAnswer, frontendOverridesSchema, answer);
    expect(mirror).toEqual(protocol);
  });

  it('include answers protocol rejects, so the comparison tests the checks', () => {
    const rejected = (
      schema: { safeParse(answer: unknown): { success: boolean } },
      answers: [string, unknown][],
    ) => answers.filter(([, answer]) => !schema.safeParse(answer).success).length;
    expect(rejected(publicLocationSchema, locationAnswers)).toBe(15);
    expect(rejected(frontendOverridesSchema, overrideAnswers)).toBe(4);
  });
});
