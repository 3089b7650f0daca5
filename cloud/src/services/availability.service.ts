import {
  DAYTIME_END_HOUR,
  FIRST_SLOT,
  LOCKER_SIZES,
  localDateTime,
  type LockerSize,
  type SizeCounts,
} from '@deposito/protocol';
import type { AvailabilityByDate } from '@deposito/protocol';
import { DateTime } from 'luxon';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { LocationRecord } from '../store/location.repository';
import type { OccupancySnapshot } from '../store/booking.repository';
import type { Store } from '../store/store';
import type { LocationService } from './location.service';
import {
  sellableLockerCount,
  sellableLockers,
  type LockerUnit,
  type Occupation,
  type TimeWindow,
} from '@deposito/protocol/booking/locker-availability';

/** The part of a day lockers can be booked for, local time: first start slot to the latest end. */
const DAY_OPENS = FIRST_SLOT;
const DAY_CLOSES = `${String(DAYTIME_END_HOUR).padStart(2, '0')}:00`;

/** A calendar date (yyyy-MM-dd) in the zone, from a date or an instant. */
export function localDateOf(dayOrInstant: string, zone: string): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(dayOrInstant)) return dayOrInstant;
  const local = DateTime.fromISO(dayOrInstant, { setZone: true }).setZone(zone);
  if (!local.isValid) throw new AppError('validation/invalid_query', `Not a date: ${dayOrInstant}`);
  return local.toFormat('yyyy-MM-dd');
}

const DAY_MS = 24 * 3600_000;

/** A calendar date of a zone and the instants its bookable part opens and closes. */
interface CalendarDay {
  date: string;
  opens: number;
  closes: number;
}

/**
 * Per zone, per day number (days since 1970-01-01): the day's date and bounds. They never change,
 * but computing them costs luxon several Intl calls, and the availability call needs 15–200 of them
 * per request over ranges that differ from visitor to visitor. Bounded: cleared when full, which at
 * one entry per zone and day takes years of traffic.
 */
const calendarDaysMemo = new Map<string, Map<number, CalendarDay>>();
const CALENDAR_DAYS_MEMO_LIMIT = 20_000;

function calendarDay(zone: string, dayNumber: number): CalendarDay {
  let days = calendarDaysMemo.get(zone);
  if (!days) calendarDaysMemo.set(zone, (days = new Map()));
  let day = days.get(dayNumber);
  if (!day) {
    // Calendar dates carry no zone, so plain UTC day arithmetic names them exactly.
    const date = new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
    day = {
      date,
      opens: localDateTime(date, DAY_OPENS, zone).toMillis(),
      closes: localDateTime(date, DAY_CLOSES, zone).toMillis(),
    };
    if (days.size >= CALENDAR_DAYS_MEMO_LIMIT) days.clear();
    days.set(dayNumber, day);
  }
  return day;
}

/** Every day of the zone from `first` to `last` (yyyy-MM-dd), inclusive. */
function calendarDaysBetween(first: string, last: string, zone: string): CalendarDay[] {
  const days: CalendarDay[] = [];
  const lastNumber = Date.parse(`${last}T00:00:00Z`) / DAY_MS;
  for (let n = Date.parse(`${first}T00:00:00Z`) / DAY_MS; n <= lastNumber; n += 1) {
    days.push(calendarDay(zone, n));
  }
  return days;
}

/** The part of `day` at the location still bookable at `now`; null when none is left. */
function bookableWindow({ opens, closes }: CalendarDay, now: Date): TimeWindow | null {
  const startAt = opens < now.getTime() ? now : new Date(opens);
  return startAt.getTime() < closes ? { startAt, endAt: new Date(closes) } : null;
}

function sellableFrom(
  location: LocationRecord,
  snapshot: OccupancySnapshot,
  window: TimeWindow,
): Record<LockerSize, LockerUnit[]> {
  const sellable = (size: LockerSize) =>
    sellableLockers({
      lockers: snapshot.lockers.filter((l) => l.size === size),
      occupations: snapshot.occupations.filter((o) => o.size === size),
      window,
      maxOnline: location.maxOnline[size],
    });
  return Object.fromEntries(LOCKER_SIZES.map((size) => [size, sellable(size)])) as Record<
    LockerSize,
    LockerUnit[]
  >;
}

interface SizeSnapshot {
  lockers: LockerUnit[];
  occupations: Occupation[];
}

function bySize(snapshot: OccupancySnapshot): Record<LockerSize, SizeSnapshot> {
  const sizes: Record<LockerSize, SizeSnapshot> = {
    standard: { lockers: [], occupations: [] },
    large: { lockers: [], occupations: [] },
  };
  for (const locker of snapshot.lockers) sizes[locker.size].lockers.push(locker);
  for (const occupation of snapshot.occupations) sizes[occupation.size].occupations.push(occupation);
  return sizes;
}

// Written out per size, no closures or spreads: this runs for every day of every availability call.
function countsFrom(
  location: LocationRecord,
  { standard, large }: Record<LockerSize, SizeSnapshot>,
  window: TimeWindow,
): SizeCounts {
  return {
    standard: sellableLockerCount(
      standard.lockers,
      standard.occupations,
      window,
      location.maxOnline.standard,
    ),
    large: sellableLockerCount(large.lockers, large.occupations, window, location.maxOnline.large),
  };
}

/**
 * How long a calendar answer is reused when nothing was written meanwhile. Every visitor's page asks
 * the same 15 days of the same location, and writes are rare next to those reads: recomputing each
 * answer (three reads and 30 counts) was most of the call (availability throughput benchmark). Within
 * this process an answer never outlives a write (`Store.writeVersion`); a write by another process,
 * a hold lapsing or the day moving on shows within this long. A calendar is advice either way: the
 * reservation decides, atomically, on what the store holds then.
 */
export const AVAILABILITY_REUSE_MS = 1_000;
const AVAILABILITY_CACHE_LIMIT = 2_000;

interface ReusableAnswer {
  writeVersion: number;
  /** On the service's clock (tests move it) and on the process's own, which only moves forward. */
  computedAt: number;
  computedAtMonotonic: number;
  answer: Readonly<AvailabilityByDate>;
}

export class AvailabilityService {
  readonly #recent = new Map<string, ReusableAnswer>();

  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
    private readonly locations: LocationService,
  ) {}

  /** Lockers of each size that can still be sold online for the whole window, lowest number first. */
  async sellableForWindow(
    location: LocationRecord,
    window: TimeWindow,
  ): Promise<Record<LockerSize, LockerUnit[]>> {
    const snapshot = await this.store.bookings.occupancy(
      location.key,
      window.startAt,
      window.endAt,
      this.clock.now(),
    );
    return sellableFrom(location, snapshot, window);
  }

  /** How many lockers of each size can still be sold online for the whole window. */
  async countsForWindow(location: LocationRecord, window: TimeWindow): Promise<SizeCounts> {
    const sellable = await this.sellableForWindow(location, window);
    return { standard: sellable.standard.length, large: sellable.large.length };
  }

  /**
   * For each date of the range (in the location's zone), the lockers of each size free over that
   * day's bookable window (06:00–22:00, from now on for today); 0 for days already over. A frozen
   * answer, reused for up to AVAILABILITY_REUSE_MS while nothing is written.
   */
  async availabilityForRange(
    locationKey: string,
    startDate: string,
    endDate: string,
  ): Promise<Readonly<AvailabilityByDate>> {
    const key = `${locationKey}\n${startDate}\n${endDate}`;
    const writeVersion = this.store.writeVersion();
    const now = this.clock.now().getTime();
    const monotonic = performance.now();
    const recent = this.#recent.get(key);
    if (
      recent &&
      recent.writeVersion === writeVersion &&
      now >= recent.computedAt &&
      now - recent.computedAt < AVAILABILITY_REUSE_MS &&
      monotonic - recent.computedAtMonotonic < AVAILABILITY_REUSE_MS
    ) {
      return recent.answer;
    }
    const answer = freezeAnswer(await this.computeAvailabilityForRange(locationKey, startDate, endDate));
    if (this.#recent.size >= AVAILABILITY_CACHE_LIMIT) this.#recent.clear();
    // Kept under the version read before computing: a write meanwhile makes it stale at once.
    this.#recent.set(key, { writeVersion, computedAt: now, computedAtMonotonic: monotonic, answer });
    return answer;
  }

  private async computeAvailabilityForRange(
    locationKey: string,
    startDate: string,
    endDate: string,
  ): Promise<AvailabilityByDate> {
    const location = await this.locations.require(locationKey);
    const now = this.clock.now();
    const first = localDateOf(startDate, location.zone);
    const last = localDateOf(endDate, location.zone);
    const days = calendarDaysBetween(first, last, location.zone).map((day) => ({
      date: day.date,
      window: bookableWindow(day, now),
    }));
    const windows = days.flatMap((d) => (d.window ? [d.window] : []));
    const result: AvailabilityByDate = {};
    if (windows.length === 0) {
      for (const day of days) result[day.date] = { standard: 0, large: 0 };
      return result;
    }
    // One read for the whole range; each day is then counted from the same snapshot.
    const snapshot = await this.store.bookings.occupancy(
      location.key,
      windows[0].startAt,
      windows[windows.length - 1].endAt,
      now,
    );
    const sizes = bySize(snapshot);
    for (const day of days) {
      result[day.date] = day.window ? countsFrom(location, sizes, day.window) : { standard: 0, large: 0 };
    }
    return result;
  }

  /** Night wizard, one size over one window: how many are free and whether `quantity` fit. */
  async nightCheck(input: {
    locationKey: string;
    size: LockerSize;
    quantity: number;
    window: TimeWindow;
  }): Promise<{ disponibili: number; disponibile: boolean }> {
    const location = await this.locations.require(input.locationKey);
    const counts = await this.countsForWindow(location, input.window);
    const disponibili = counts[input.size];
    return { disponibili, disponibile: disponibili >= input.quantity };
  }

  /** Night wizard, day stays: per-day counts for every local date the range touches. */
  async nightRange(input: {
    locationKey: string;
    startAt: Date;
    endAt: Date;
  }): Promise<Readonly<AvailabilityByDate>> {
    const location = await this.locations.require(input.locationKey);
    const lastInstant = new Date(input.endAt.getTime() - 1).toISOString();
    return this.availabilityForRange(
      location.key,
      localDateOf(input.startAt.toISOString(), location.zone),
      localDateOf(lastInstant, location.zone),
    );
  }
}

function freezeAnswer(answer: AvailabilityByDate): Readonly<AvailabilityByDate> {
  for (const counts of Object.values(answer)) Object.freeze(counts);
  return Object.freeze(answer);
}
