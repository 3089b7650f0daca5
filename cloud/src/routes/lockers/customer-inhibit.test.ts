import {
  errorBodySchema,
  inhibitMultiResponseSchema,
  lockerRoutes,
  SEED_LOCATIONS,
} from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../../test/test-app';

// Clock: Friday 27 March 2026, 09:00 in Rome (08:00 UTC).
const OCA = SEED_LOCATIONS.find((location) => location.key === 'oca')!;
const STANDARD = OCA.lockerStructure.standard[0]!;
const LARGE = OCA.lockerStructure.large[0]!;

describe('POST /api/lockers/inhibit from the legacy customer page', () => {
  const { test, api } = useTestApp(() => startTestApp());

  it('holds exactly the offered locker from now for the duration, as a pending booking that expires', async () => {
    const answer = await api.post('/api/lockers/inhibit', {
      location: 'oca',
      lockerId: LARGE,
      duration: { value: 3, unit: 'ore' },
    });
    expect(answer.status).toBe(200);
    const body = inhibitMultiResponseSchema.parse(answer.body);
    // The route's published contract admits this caller's answer too (the API fuzzer checks answers by it).
    expect(lockerRoutes.inhibit.response.safeParse(answer.body).success).toBe(true);
    expect(body.reservedLockers).toEqual([LARGE]);
    // A hold nobody has put a name to yet lasts 5 minutes (ANONYMOUS_HOLD_MINUTES).
    expect(body.expiresAt).toBe('2026-03-27T08:05:00.000Z');
    const booking = await test.store.bookings.get(body.transactionId!);
    expect(booking).toMatchObject({ status: 'pending', size: 'large', quantity: 1 });
    expect(booking?.startAt.toISOString()).toBe('2026-03-27T08:00:00.000Z');
    expect(booking?.endAt.toISOString()).toBe('2026-03-27T11:00:00.000Z');

    // The same locker is not free for anyone else meanwhile.
    const again = await api.post('/api/lockers/inhibit', { location: 'oca', lockerId: LARGE, duration: 3 });
    expect(again.status).toBe(409);
    expect(errorBodySchema.parse(again.body).error.code).toBe('booking/locker_unavailable');
  });

  it('answers a clear 4xx and holds nothing for a bad locker, location or duration', async () => {
    const before = await test.store.bookings.occupancy(
      'oca',
      new Date('2026-03-27T08:00:00Z'),
      new Date('2026-03-27T20:00:00Z'),
      test.clock.now(),
    );
    for (const body of [
      { location: 'oca', lockerId: 9999, duration: 3 },
      { location: 'nowhere', lockerId: STANDARD, duration: 3 },
      { location: 'oca', lockerId: STANDARD, duration: { value: 3, unit: 'weeks' } },
      { location: 'oca', lockerId: STANDARD, duration: { value: 2, unit: 'ore' } },
      { location: 'oca', lockerId: 'x'.repeat(5000), duration: 3 },
    ]) {
      const answer = await api.post('/api/lockers/inhibit', body);
      expect(answer.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(answer.status, JSON.stringify(body)).toBeLessThan(500);
      errorBodySchema.parse(answer.body);
    }
    const after = await test.store.bookings.occupancy(
      'oca',
      new Date('2026-03-27T08:00:00Z'),
      new Date('2026-03-27T20:00:00Z'),
      test.clock.now(),
    );
    expect(after).toEqual(before);
  });

  it("still needs an operator's token for Disattiva (no duration) and refuses a wrong token", async () => {
    const noDuration = await api.post('/api/lockers/inhibit', { location: 'oca', lockerId: STANDARD });
    expect(noDuration.status).toBe(401);
    const wrongToken = await fetch(`${test.url}/api/lockers/inhibit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer not-a-token' },
      body: JSON.stringify({ location: 'oca', lockerId: STANDARD, duration: 3 }),
    });
    expect(wrongToken.status).toBe(401);
  });
});
