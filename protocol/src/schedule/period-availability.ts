// How per-day availability answers (`{ [isoDate]: { standard, large } }`) combine over a period.
// The counts are the server's; these rules only read them, on the server and in the browser alike.

/** Free lockers of each size on one day. */
export interface DayCounts {
  standard: number;
  large: number;
}

/** True when at least one locker of either size is free. */
export const hasAnyFree = (counts: DayCounts | null | undefined): counts is DayCounts =>
  !!counts && (counts.standard > 0 || counts.large > 0);

/**
 * Lockers of each size free for the whole period: a locker must be free on every day, so the
 * period's count is the smallest count over its days. Null when the answer has no days.
 */
export function countsThroughout(byDate: Readonly<Record<string, DayCounts>>): DayCounts | null {
  const days = Object.values(byDate);
  if (days.length === 0) return null;
  return {
    standard: Math.min(...days.map((day) => day.standard)),
    large: Math.min(...days.map((day) => day.large)),
  };
}

export const NIGHT_RANGE_ERRORS = {
  /** No day of the range has any locker. */
  noneAtAll: 'night.error.noAvailability',
  /** Some day of the range has none. */
  someDayFull: 'calendar.error.noAvailability',
} as const;

export type NightRangeVerdict =
  | { ok: true; counts: DayCounts }
  | { ok: false; errorKey: (typeof NIGHT_RANGE_ERRORS)[keyof typeof NIGHT_RANGE_ERRORS] };

/**
 * The night wizard's range check (customer spec §5): every day without lockers (or no days) →
 * 'night.error.noAvailability'; some day without lockers → 'calendar.error.noAvailability';
 * otherwise the counts free throughout the range.
 */
export function nightRangeVerdict(byDate: Readonly<Record<string, DayCounts>>): NightRangeVerdict {
  const days = Object.values(byDate);
  const empty = days.filter((day) => !hasAnyFree(day)).length;
  if (days.length === 0 || empty === days.length)
    return { ok: false, errorKey: NIGHT_RANGE_ERRORS.noneAtAll };
  if (empty > 0) return { ok: false, errorKey: NIGHT_RANGE_ERRORS.someDayFull };
  return { ok: true, counts: countsThroughout(byDate)! };
}
