import { describe, expect, it } from 'vitest';
import { MIN_AMOUNT_CENTS } from '../pricing/money';
import { MAX_EUROS } from '../schemas/limits';
import type { LocationPricing } from '../pricing/price-table';
import { extensionOffer, type ExtensionInput } from './extension';

// The rules of extending a stay: the lengths a new booking from the same start could have, for
// the price difference (no second fee, the gateway's minimum still charged), and the refusals.

const PRICING: LocationPricing = {
  standard: {
    hours: { '3': 500, '4': 600, '5': 650, '6': 650 },
    days: { '1': 1200, '2': 2000, '3': 2700 },
  },
  large: { hours: { '3': 800 }, days: { '1': 1800 } },
};
const ZONE = 'Europe/Rome';
// 12:00–15:00 in Rome on 27 March 2026; now 13:00.
const BASE: ExtensionInput = {
  status: 'confirmed',
  startAt: new Date('2026-03-27T11:00:00.000Z'),
  endAt: new Date('2026-03-27T14:00:00.000Z'),
  duration: { value: 3, unit: 'hours' },
  night: false,
  pricing: PRICING,
  size: 'standard',
  quantity: 1,
  zone: ZONE,
  now: new Date('2026-03-27T12:00:00.000Z'),
};

describe('extensionOffer', () => {
  it('leaves out a longer stay that would cost more than can be paid online, and says so when none is left', () => {
    const dear: LocationPricing = {
      ...PRICING,
      standard: { ...PRICING.standard, hours: { '3': 500, '4': 600, '5': MAX_EUROS * 100 + 501, '6': 650 } },
    };
    const offer = extensionOffer({ ...BASE, pricing: dear });
    expect(offer.options.map((option) => [option.duration.value, option.totalCents])).toEqual([
      [4, 100],
      [6, 150],
    ]);
    // The largest amount itself is offered.
    const atLimit = { ...dear.standard.hours, '5': MAX_EUROS * 100 + 500 };
    expect(
      extensionOffer({ ...BASE, pricing: { ...dear, standard: { ...dear.standard, hours: atLimit } } })
        .options,
    ).toHaveLength(3);
    const allDear = {
      '3': 500,
      '4': MAX_EUROS * 100 + 501,
      '5': MAX_EUROS * 100 + 600,
      '6': MAX_EUROS * 100 + 700,
    };
    expect(
      extensionOffer({ ...BASE, pricing: { ...dear, standard: { ...dear.standard, hours: allDear } } }),
    ).toEqual({ allowed: false, refusal: 'amount_too_high', options: [] });
  });

  it('offers every longer stay by the hour until 22:00, for the difference in price', () => {
    expect(extensionOffer(BASE)).toEqual({
      allowed: true,
      options: [
        {
          duration: { value: 4, unit: 'hours' },
          endAt: new Date('2026-03-27T15:00:00.000Z'),
          priceCents: 100,
          totalCents: 100,
        },
        {
          duration: { value: 5, unit: 'hours' },
          endAt: new Date('2026-03-27T16:00:00.000Z'),
          priceCents: 150,
          totalCents: 150,
        },
        // Six hours cost what five do: the same difference.
        {
          duration: { value: 6, unit: 'hours' },
          endAt: new Date('2026-03-27T17:00:00.000Z'),
          priceCents: 150,
          totalCents: 150,
        },
      ],
    });
  });

  it('charges the minimum when the difference is smaller, and counts every locker of the booking', () => {
    const offer = extensionOffer({ ...BASE, duration: { value: 5, unit: 'hours' } });
    expect(offer.options).toEqual([expect.objectContaining({ priceCents: 0, totalCents: MIN_AMOUNT_CENTS })]);
    const two = extensionOffer({ ...BASE, quantity: 2 });
    expect(two.options[0]).toMatchObject({ priceCents: 200, totalCents: 200 });
  });

  it('stops at the end of the day for stays by the hour: a stay from 19:00 has no longer option', () => {
    const evening = {
      ...BASE,
      startAt: new Date('2026-03-27T18:00:00.000Z'),
      endAt: new Date('2026-03-27T21:00:00.000Z'),
      now: new Date('2026-03-27T19:00:00.000Z'),
    };
    expect(extensionOffer(evening)).toEqual({ allowed: false, refusal: 'location_closes', options: [] });
    // The night wizard's stays may end by 22:45: from 19:00, still 3 hours at most.
    expect(extensionOffer({ ...evening, night: true }).allowed).toBe(false);
    const nightFrom1845 = {
      ...evening,
      startAt: new Date('2026-03-27T17:45:00.000Z'),
      endAt: new Date('2026-03-27T20:45:00.000Z'),
      night: true,
    };
    expect(extensionOffer(nightFrom1845).options.map((o) => o.duration.value)).toEqual([4]);
  });

  it('extends stays by the day by whole calendar days, across the change to summer time', () => {
    const days = {
      ...BASE,
      startAt: new Date('2026-03-27T09:00:00.000Z'),
      endAt: new Date('2026-03-28T09:00:00.000Z'),
      duration: { value: 1, unit: 'days' as const },
    };
    const offer = extensionOffer(days);
    expect(offer.options.map((o) => [o.duration.value, o.endAt.toISOString(), o.priceCents])).toEqual([
      // 29 March is 23 hours long in Rome: 10:00 local is 08:00 UTC from then on.
      [2, '2026-03-29T08:00:00.000Z', 800],
      [3, '2026-03-30T08:00:00.000Z', 1500],
    ]);
  });

  it('refuses stays not in progress or over, and prices it cannot find', () => {
    expect(extensionOffer({ ...BASE, status: 'scheduled' })).toMatchObject({ refusal: 'not_in_progress' });
    expect(extensionOffer({ ...BASE, status: 'refund_due' })).toMatchObject({ refusal: 'not_in_progress' });
    expect(extensionOffer({ ...BASE, now: BASE.endAt })).toMatchObject({ refusal: 'ended' });
    expect(extensionOffer({ ...BASE, size: 'large' })).toMatchObject({ refusal: 'location_closes' });
    expect(extensionOffer({ ...BASE, status: 'confirmed_late' }).allowed).toBe(true);
  });
});
