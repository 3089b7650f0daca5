import type { Duration } from '../pricing/price-table';
import { isDateBookableAt } from './calendar';
import { readWallClock, type WallClockReading } from './local-time';
import { FAST_TRACK_HOURS, isInFastTrackWindow, type DailyWindow } from './daily-windows';
import {
  DAY_OPTIONS,
  MAX_BOOKING_HOURS,
  MIN_BOOKING_HOURS,
  daytimeHourOptions,
  nightHourOptions,
} from './durations';
import { isDaytimeStartSlotAt, isNightStartSlotAt } from './start-slots';
import { timeOfDay } from './time-of-day';

// Whether a booking period is one the customer pages offer, for the server to refuse any other.
// The pages build their choices from the same functions (start slots, hour and day options, the
// fast-track window); this file only asks them whether a given period is among their answers.

/**
 * How long a choice shown on a page stays good: the page was left open on a step, or the browser's
 * clock is a little off. A slot offered at any instant of the last 15 minutes is still taken.
 */
export const OFFER_GRACE_MINUTES = 15;

/** A "start now" may be this far ahead of the server's clock (a browser clock running fast). */
export const START_NOW_AHEAD_MINUTES = 2;

/**
 * Which page the period comes from: the daytime flow (its calendar slots, or fast track's "start
 * now") or the night wizard (its own slots and hour options, no start-now).
 */
export type BookingFlow = 'daytime' | 'night';

/** Why a period is not one the pages offer, most specific first. */
export type OfferRefusal =
  /** The start is not a slot of the flow's calendar (off the 15-minute grid, before 06:00, too late, past). */
  | 'start_not_offered'
  /** The duration is not among the options (not 3–6 hours or 1–15 days, or a start-now not of 3 hours). */
  | 'duration_not_offered'
  /** An hour stay the flow sells, but ending after the day's last end (22:00 daytime, 22:45 night). */
  | 'ends_after_closing'
  /** A start-now outside the fast-track hours. */
  | 'fast_track_closed';

export type OfferVerdict = { ok: true; kind: 'slot' | 'fastTrack' } | { ok: false; refusal: OfferRefusal };

export interface OfferedWindowInput {
  flow: BookingFlow;
  startAt: Date;
  /** The period's duration (already known to match its end). */
  duration: Duration;
  now: Date;
  zone: string;
  /** The fast-track hours the pages read (admin settings), each bound defaulting separately. */
  fastTrackHours: Partial<DailyWindow>;
}

/**
 * Whether the pages offer this period: a start slot of the flow's calendar (offered now or at some
 * instant of the last {@link OFFER_GRACE_MINUTES}) with one of the duration options for that slot;
 * or, in the daytime flow, fast track's start-now (now, within the grace) for 3 hours inside the
 * fast-track hours. Everything in the location's zone.
 */
export function offeredWindowVerdict(input: OfferedWindowInput): OfferVerdict {
  const { flow, startAt, duration, now, zone } = input;
  const start = wallClockOrNull(startAt, zone);
  const time = start ? timeOfDay(start.minutes) : '';
  if (start && isOfferedSlot(flow, start, startAt, now, zone)) {
    if (duration.unit === 'days') {
      return (DAY_OPTIONS as readonly number[]).includes(duration.value)
        ? { ok: true, kind: 'slot' }
        : { ok: false, refusal: 'duration_not_offered' };
    }
    const hourOptions = flow === 'daytime' ? daytimeHourOptions(time) : nightHourOptions(time);
    if (hourOptions.includes(duration.value)) return { ok: true, kind: 'slot' };
    const soldLength = duration.value >= MIN_BOOKING_HOURS && duration.value <= MAX_BOOKING_HOURS;
    return { ok: false, refusal: soldLength ? 'ends_after_closing' : 'duration_not_offered' };
  }
  if (flow === 'daytime' && isStartNow(startAt, now)) {
    if (duration.unit !== 'hours' || duration.value !== FAST_TRACK_HOURS) {
      return { ok: false, refusal: 'duration_not_offered' };
    }
    return isInFastTrackWindow(startAt, zone, input.fastTrackHours)
      ? { ok: true, kind: 'fastTrack' }
      : { ok: false, refusal: 'fast_track_closed' };
  }
  return { ok: false, refusal: 'start_not_offered' };
}

/** Fast track's "start now": the visitor's accept instant, as the browser's clock read it. */
function isStartNow(startAt: Date, now: Date): boolean {
  const offsetMs = startAt.getTime() - now.getTime();
  return offsetMs >= -OFFER_GRACE_MINUTES * 60_000 && offsetMs <= START_NOW_AHEAD_MINUTES * 60_000;
}

/** The start on the location's wall clock; null when it cannot be read there (never a slot). */
function wallClockOrNull(startAt: Date, zone: string): WallClockReading | null {
  try {
    return readWallClock(startAt, zone);
  } catch {
    return null;
  }
}

function isOfferedSlot(
  flow: BookingFlow,
  start: WallClockReading,
  startAt: Date,
  now: Date,
  zone: string,
): boolean {
  // Slots are whole minutes on the 15-minute grid; 10:15:30 is no slot.
  if (start.second !== 0 || startAt.getTime() % 1000 !== 0) return false;
  const { date, minutes } = start;
  // The slots the pages list (daytimeStartSlots, nightStartSlots), asked without listing them.
  const isSlot = flow === 'daytime' ? isDaytimeStartSlotAt : isNightStartSlotAt;
  // Today's slots only shrink as time passes and the calendar's horizon only grows: a choice offered
  // at some instant of the grace period was offered at its beginning or is offered now.
  const earlier = new Date(now.getTime() - OFFER_GRACE_MINUTES * 60_000);
  return [now, earlier].some((at) => {
    const local = readWallClock(at, zone);
    return isDateBookableAt(date, local) && isSlot(date, minutes, local);
  });
}
