import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { apiClient, startTestApp, TEST_NOW, type TestApp, useTestApp } from '../../test/test-app';
import { AVAILABILITY_REUSE_MS } from './availability.service';

// Per-day availability is counted over each day's 06:00–22:00 in the location's own zone, which
// moves in UTC on daylight-saving days. Campo is London: 8 standard lockers, 7 sold online at once.
// The stays straddling a day's edges (03:30, 22:00) are fast track's start-now (3 hours from the
// clock), which the operator's fast-track hours allow round the clock here: the pages offer no other
// start at those hours. Each is held at its start with the clock set there, the latest first, so no
// hold is past its expiry when a later one is made (a hold expires the lapsed ones of its size).

describe('availability per day across DST changes', () => {
  const { test, api } = useTestApp(() => startTestApp());

  beforeAll(async () => {
    await test.cloud.context.services.settings.update({ FASTTRACK_FROM: '00:00', FASTTRACK_TO: '23:59' });
  });

  /** A 3-hour start-now hold at `startTimeIso`; the clock goes back to `clockAfter` afterwards. */
  const holdStartingNow = async (locationKey: string, startTimeIso: string, clockAfter = TEST_NOW) => {
    test.clock.set(startTimeIso);
    try {
      const answer = await api.post<{ transactionId: string }>('/api/lockers/inhibit-multi', {
        locationKey,
        dimensione: 'standard',
        quantita: 1,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      const booking = await test.store.bookings.get(answer.body.transactionId);
      expect(booking?.startAt.toISOString()).toBe(startTimeIso);
    } finally {
      test.clock.set(clockAfter);
    }
  };

  const hold = async (locationKey: string, startTimeIso: string, endTimeIso: string) => {
    const answer = await api.post('/api/lockers/inhibit-multi', {
      locationKey,
      dimensione: 'standard',
      quantita: 1,
      startTimeIso,
      endTimeIso,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  const standardByDay = async (location: string, startDate: string, endDate: string) => {
    const answer = await api.get<Record<string, { standard: number }>>(
      `/api/bookings/future?location=${location}&startDate=${startDate}&endDate=${endDate}`,
    );
    expect(answer.status).toBe(200);
    return Object.fromEntries(Object.entries(answer.body).map(([date, counts]) => [date, counts.standard]));
  };

  it('London, spring forward (Sunday 29 March 2026): the day runs 05:00–21:00 UTC', async () => {
    // 22:00–01:00 BST: after the 29th's window, before the 30th's.
    await holdStartingNow('campo', '2026-03-29T21:00:00.000Z');
    // 03:30–06:30 BST: inside the 29th's window only because 06:00 BST is 05:00 UTC.
    await holdStartingNow('campo', '2026-03-29T02:30:00.000Z');
    expect(await standardByDay('campo', '2026-03-28', '2026-03-30')).toEqual({
      '2026-03-28': 7,
      '2026-03-29': 6,
      '2026-03-30': 7,
    });
  });

  it('London, a normal day in winter time: 06:00 GMT is 06:00 UTC', async () => {
    // 05:30–08:30 GMT overlaps the 28th's window, which opens at 06:00 GMT = 06:00 UTC.
    await holdStartingNow('campo', '2026-03-28T05:30:00.000Z');
    expect((await standardByDay('campo', '2026-03-28', '2026-03-28'))['2026-03-28']).toBe(6);
  });

  it('Rome, fall back (Sunday 25 October 2026): the day runs 05:00–21:00 UTC', async () => {
    const monday = '2026-10-20T08:00:00.000Z';
    try {
      // 03:00–06:00 CET ends as the 25th's window opens: it does not count.
      await holdStartingNow('magna', '2026-10-25T02:00:00.000Z', monday);
      // 06:00–09:00 CEST on the 24th (04:00 UTC) counts there.
      await holdStartingNow('magna', '2026-10-24T04:00:00.000Z', monday);
      // A day-long stay from the 25th at 20:00 CET (19:00 UTC) to the 26th counts on both days.
      await hold('magna', '2026-10-25T19:00:00.000Z', '2026-10-26T19:00:00.000Z');
      expect(await standardByDay('magna', '2026-10-24', '2026-10-26')).toEqual({
        '2026-10-24': 7,
        '2026-10-25': 7,
        '2026-10-26': 7,
      });
      expect(await standardByDay('magna', '2026-10-23', '2026-10-23')).toEqual({ '2026-10-23': 8 });
    } finally {
      test.clock.set('2026-03-27T08:00:00.000Z');
    }
  });

  it('counts today only from now, and nothing once the day is over', async () => {
    test.clock.set('2026-03-27T21:30:00.000Z'); // 22:30 in Rome
    try {
      expect(await standardByDay('oca', '2026-03-26', '2026-03-28')).toEqual({
        '2026-03-26': 0,
        '2026-03-27': 0,
        '2026-03-28': 8,
      });
    } finally {
      test.clock.set('2026-03-27T08:00:00.000Z');
    }
  });

  it('accepts instants as range bounds and reads them in the location zone', async () => {
    // 23:30 UTC on the 28th is already the 29th in Rome (CET+1 → 00:30).
    const answer = await api.get<Record<string, unknown>>(
      '/api/bookings/availability?location=oca&startDate=2026-03-28T23:30:00Z&endDate=2026-03-29T10:00:00Z',
    );
    expect(Object.keys(answer.body)).toEqual(['2026-03-29']);
  });
});

describe('availability answers reused between writes', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    first = await startTestApp();
    // Another cloud process on the same database.
    second = await startTestApp({ database: first.database, seed: false });
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  const DAY = '2026-03-30';
  const path = `/api/bookings/future?location=vicolo&startDate=${DAY}&endDate=${DAY}`;
  const standard = async (app: TestApp) => {
    const answer = await apiClient(app.url).get<Record<string, { standard: number }>>(path);
    expect(answer.status).toBe(200);
    return answer.body[DAY]!.standard;
  };
  const hold = async (app: TestApp) => {
    const answer = await apiClient(app.url).post('/api/lockers/inhibit-multi', {
      locationKey: 'vicolo',
      dimensione: 'standard',
      quantita: 1,
      startTimeIso: `${DAY}T08:00:00.000Z`,
      endTimeIso: `${DAY}T11:00:00.000Z`,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  };

  it('reads the store once for repeated calls, and again after any write of its own', async () => {
    const reads = vi.spyOn(first.store.bookings, 'occupancy');
    try {
      const before = await standard(first);
      expect(await standard(first)).toBe(before);
      expect(reads).toHaveBeenCalledTimes(1);
      await hold(first);
      // The hold is seen at once: no waiting for the reuse to end.
      expect(await standard(first)).toBe(before - 1);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it("shows another process's write once the reuse time has passed", async () => {
    const before = await standard(first);
    await hold(second);
    expect(await standard(second)).toBe(before - 1);
    first.clock.advanceMinutes(AVAILABILITY_REUSE_MS / 60_000);
    expect(await standard(first)).toBe(before - 1);
  });

  it('never reuses an answer when the clock went back', async () => {
    const reads = vi.spyOn(first.store.bookings, 'occupancy');
    try {
      first.clock.advanceMinutes(5);
      await standard(first);
      first.clock.advanceMinutes(-1);
      await standard(first);
      expect(reads).toHaveBeenCalledTimes(2);
    } finally {
      reads.mockRestore();
    }
  });

  it('hands out answers nobody can change', async () => {
    const answer = await first.cloud.context.services.availability.availabilityForRange('vicolo', DAY, DAY);
    expect(Object.isFrozen(answer)).toBe(true);
    expect(Object.isFrozen(answer[DAY])).toBe(true);
  });
});
