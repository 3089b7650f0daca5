import type { LockerSize } from '../pricing/locker-size';

// The availability rule, pure so the store can apply it inside its reservation transaction and the
// services can apply it to a snapshot: a locker is free for a window when it is in service and no
// active reservation of it overlaps the window (half-open ranges), and a location never has more
// than `maxOnline` lockers of a size sold online at the same instant.

export interface LockerUnit {
  id: number;
  number: number;
  size: LockerSize;
  inService: boolean;
}

export interface Occupation {
  lockerId: number;
  startAt: Date;
  endAt: Date;
}

export interface TimeWindow {
  startAt: Date;
  endAt: Date;
}

export function overlaps(a: TimeWindow, b: TimeWindow): boolean {
  return a.startAt.getTime() < b.endAt.getTime() && b.startAt.getTime() < a.endAt.getTime();
}

/** In-service lockers with no occupation overlapping the window, lowest number first. */
export function freeLockers(
  lockers: readonly LockerUnit[],
  occupations: readonly Occupation[],
  window: TimeWindow,
): LockerUnit[] {
  const busy = new Set(occupations.filter((o) => overlaps(o, window)).map((o) => o.lockerId));
  return lockers.filter((l) => l.inService && !busy.has(l.id)).sort((a, b) => a.number - b.number);
}

/** The most occupations in force at any one instant of the window. */
export function peakOccupation(occupations: readonly Occupation[], window: TimeWindow): number {
  const events: Array<[number, number]> = [];
  for (const o of occupations) {
    if (!overlaps(o, window)) continue;
    events.push([Math.max(o.startAt.getTime(), window.startAt.getTime()), 1]);
    events.push([Math.min(o.endAt.getTime(), window.endAt.getTime()), -1]);
  }
  // Ends before starts at the same instant: back-to-back bookings do not overlap.
  events.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  let current = 0;
  let peak = 0;
  for (const [, delta] of events) {
    current += delta;
    peak = Math.max(peak, current);
  }
  return peak;
}

/**
 * The lockers of one size that can still be sold online for the window: free ones, but no more
 * than `maxOnline` minus the peak already sold. `lockers` and `occupations` are of that size only.
 */
export function sellableLockers(input: {
  lockers: readonly LockerUnit[];
  occupations: readonly Occupation[];
  window: TimeWindow;
  maxOnline: number;
}): LockerUnit[] {
  const free = freeLockers(input.lockers, input.occupations, input.window);
  const headroom = Math.max(0, input.maxOnline - peakOccupation(input.occupations, input.window));
  return free.slice(0, headroom);
}

/**
 * How many lockers `sellableLockers` would return, without building the list: the availability
 * call counts 15–200 windows per request from one snapshot.
 */
export function sellableLockerCount(
  lockers: readonly LockerUnit[],
  occupations: readonly Occupation[],
  window: TimeWindow,
  maxOnline: number,
): number {
  const headroom = Math.max(0, maxOnline - peakOccupation(occupations, window));
  if (headroom === 0) return 0;
  let busy: Set<number> | null = null;
  for (const o of occupations) if (overlaps(o, window)) (busy ??= new Set()).add(o.lockerId);
  let free = 0;
  for (const l of lockers) if (l.inService && !busy?.has(l.id)) free += 1;
  return Math.min(free, headroom);
}
