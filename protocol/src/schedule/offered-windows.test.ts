import { describe, expect, it } from 'vitest';
import type { Duration } from '../pricing/price-table';
import { localDateTime } from './local-time';
import { offeredWindowVerdict, type BookingFlow } from './offered-windows';

const ROME = 'Europe/Rome';
const LONDON = 'Europe/London';
const hours = (value: number): Duration => ({ value, unit: 'hours' });
const days = (value: number): Duration => ({ value, unit: 'days' });

function verdict(
  flow: BookingFlow,
  start: string | Date,
  duration: Duration,
  now: string,
  zone = ROME,
  fastTrackHours = {},
) {
  const startAt =
    typeof start === 'string' ? localDateTime(start.slice(0, 10), start.slice(11), zone).toJSDate() : start;
  return offeredWindowVerdict({ flow, startAt, duration, now: new Date(now), zone, fastTrackHours });
}

// 10:00 in Rome on Wednesday 10 June 2026.
const NOW = '2026-06-10T08:00:00.000Z';

describe('offeredWindowVerdict', () => {
  it('takes the daytime slots with their hour and day options', () => {
    expect(verdict('daytime', '2026-06-10 10:15', hours(3), NOW)).toEqual({ ok: true, kind: 'slot' });
    expect(verdict('daytime', '2026-06-11 16:00', hours(6), NOW)).toEqual({ ok: true, kind: 'slot' });
    expect(verdict('daytime', '2026-06-11 20:00', days(15), NOW)).toEqual({ ok: true, kind: 'slot' });
  });

  it('names what is wrong with a period the pages never offer', () => {
    expect(verdict('daytime', '2026-06-11 02:00', hours(3), NOW)).toEqual({
      ok: false,
      refusal: 'start_not_offered',
    });
    expect(verdict('daytime', '2026-06-11 10:07', hours(3), NOW)).toMatchObject({
      refusal: 'start_not_offered',
    });
    expect(verdict('daytime', '2026-06-11 16:45', hours(6), NOW)).toMatchObject({
      refusal: 'ends_after_closing',
    });
    expect(verdict('daytime', '2026-06-11 10:00', hours(7), NOW)).toMatchObject({
      refusal: 'duration_not_offered',
    });
    expect(verdict('daytime', '2026-06-11 10:00', days(16), NOW)).toMatchObject({
      refusal: 'duration_not_offered',
    });
    // Beyond the six-month horizon.
    expect(verdict('daytime', '2026-12-11 10:00', hours(3), NOW)).toMatchObject({
      refusal: 'start_not_offered',
    });
  });

  it('keeps a slot offered during the last 15 minutes', () => {
    // 10:00 was offered until 09:59; at 10:14 it still is taken, at 10:16 no longer.
    expect(verdict('daytime', '2026-06-10 10:00', hours(4), '2026-06-10T08:14:00.000Z')).toMatchObject({
      ok: true,
    });
    expect(verdict('daytime', '2026-06-10 10:00', hours(4), '2026-06-10T08:16:00.000Z')).toMatchObject({
      ok: false,
    });
  });

  it('takes a start-now of 3 hours inside the fast-track hours only', () => {
    const now = new Date('2026-06-10T08:03:27.123Z');
    expect(verdict('daytime', now, hours(3), now.toISOString())).toEqual({ ok: true, kind: 'fastTrack' });
    expect(verdict('daytime', now, hours(4), now.toISOString())).toMatchObject({
      refusal: 'duration_not_offered',
    });
    // 21:30 in Rome.
    const late = new Date('2026-06-10T19:30:00.000Z');
    expect(verdict('daytime', late, hours(3), late.toISOString())).toMatchObject({
      refusal: 'fast_track_closed',
    });
    expect(
      verdict('daytime', late, hours(3), late.toISOString(), ROME, { from: '06:00', to: '23:00' }),
    ).toMatchObject({ ok: true });
    // 20:30 in London: still open there.
    expect(verdict('daytime', late, hours(3), late.toISOString(), LONDON)).toMatchObject({ ok: true });
    // The night wizard has no start-now.
    expect(verdict('night', now, hours(3), now.toISOString())).toMatchObject({
      refusal: 'start_not_offered',
    });
  });

  it("applies the night wizard's slots and its 22:45 end", () => {
    expect(verdict('night', '2026-06-11 19:45', hours(3), NOW)).toMatchObject({ ok: true });
    expect(verdict('night', '2026-06-11 20:00', hours(3), NOW)).toMatchObject({
      refusal: 'start_not_offered',
    });
    expect(verdict('night', '2026-06-11 19:00', hours(4), NOW)).toMatchObject({
      refusal: 'ends_after_closing',
    });
  });

  it('reads slots on the local wall clock on daylight-saving days', () => {
    const beforeSpring = '2026-03-27T08:00:00.000Z';
    expect(verdict('daytime', '2026-03-29 06:00', hours(3), beforeSpring)).toMatchObject({ ok: true });
    expect(verdict('daytime', '2026-03-29 06:00', hours(3), beforeSpring, LONDON)).toMatchObject({
      ok: true,
    });
    // 05:00 UTC is 07:00 in Rome but 06:00 in London that day.
    const fiveUtc = new Date('2026-03-29T05:00:00.000Z');
    expect(verdict('daytime', fiveUtc, hours(3), beforeSpring, LONDON)).toMatchObject({ ok: true });
    expect(verdict('daytime', new Date('2026-10-25T04:30:00.000Z'), hours(3), NOW)).toMatchObject({
      refusal: 'start_not_offered',
    });
  });
});
