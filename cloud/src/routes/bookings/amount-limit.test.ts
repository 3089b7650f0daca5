import { errorBodySchema } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../../test/test-app';

// Every amount on the wire is at most MAX_EUROS (100,000 €): a price table set near it, times
// several lockers, must be refused when held — never become a booking no answer can carry.

describe('a hold whose total would pass the largest amount', () => {
  const { test } = useTestApp(() => startTestApp());

  it('is refused with booking/amount_too_high and holds nothing', async () => {
    const location = (await test.store.locations.get('oca'))!;
    const pricing = {
      ...location.pricing,
      standard: { ...location.pricing.standard, hours: { ...location.pricing.standard.hours, 3: 6_000_000 } },
    };
    await test.store.locations.save({ ...location, pricing }, test.clock.now());
    const hold = (quantita: number) =>
      fetch(`${test.url}/api/lockers/inhibit-multi`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          locationKey: 'oca',
          dimensione: 'standard',
          quantita,
          startTimeIso: '2026-03-27T11:00:00.000Z',
          endTimeIso: '2026-03-27T14:00:00.000Z',
        }),
      });
    // One locker: 60,000 € and the fee, an amount we carry.
    expect((await hold(1)).status).toBe(200);
    const refused = await hold(2);
    expect(refused.status).toBe(409);
    expect(errorBodySchema.parse(await refused.json()).error.code).toBe('booking/amount_too_high');
    const held = (await test.store.bookings.countByStatus()).pending;
    expect(held).toBe(1);
  });
});
