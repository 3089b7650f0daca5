import {
  centsToEuros,
  LOCKER_SIZES,
  type Locker,
  type LocationTimezone,
  type LockerSize,
  type PriceTable,
  type PublicLocation,
} from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';
import { overlaps } from '@deposito/protocol/booking/locker-availability';

type EuroMap = Record<string, number>;

function toEuroMap(cents: Record<string, number>): EuroMap {
  return Object.fromEntries(
    Object.entries(cents).map(([duration, price]) => [duration, centsToEuros(price)]),
  );
}

function pricesBySize(location: LocationRecord, unit: keyof PriceTable): Record<LockerSize, EuroMap> {
  return Object.fromEntries(
    LOCKER_SIZES.map((size) => [size, toEuroMap(location.pricing[size]?.[unit] ?? {})]),
  ) as Record<LockerSize, EuroMap>;
}

export class LocationService {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** The location, or `location/not_found`. */
  async require(key: string): Promise<LocationRecord> {
    const location = await this.store.locations.get(key);
    if (!location) throw new AppError('location/not_found', `No location '${key}'`);
    return location;
  }

  /** What a visitor's page loads: names, zone, hours and prices in euros; no controller settings. */
  async publicLocation(key: string): Promise<PublicLocation> {
    const location = await this.require(key);
    return {
      key: location.key,
      nome: location.name,
      indirizzo: location.address,
      timezone: location.zone as LocationTimezone,
      orari: { apertura: location.openingHours.opening, chiusura: location.openingHours.closing },
      hourlyPrices: pricesBySize(location, 'hours'),
      dailyPrices: pricesBySize(location, 'days'),
      // Only when paused: an open site's answer stays as the spec has it.
      ...(location.maintenance ? { manutenzione: true } : {}),
    };
  }

  /**
   * Each locker's state right now as our bookings see it: occupied while a booking holds it,
   * maintenance when taken out of service. No booking references for visitors.
   */
  async lockerState(key: string): Promise<Locker[]> {
    await this.require(key);
    const now = this.clock.now();
    const instant = { startAt: now, endAt: new Date(now.getTime() + 1) };
    const snapshot = await this.store.bookings.occupancy(key, instant.startAt, instant.endAt, now);
    const busy = new Set(snapshot.occupations.filter((o) => overlaps(o, instant)).map((o) => o.lockerId));
    return [...snapshot.lockers]
      .sort((a, b) => a.number - b.number)
      .map((locker) => ({
        id: locker.number,
        size: locker.size,
        status: !locker.inService ? 'maintenance' : busy.has(locker.id) ? 'occupied' : 'available',
      }));
  }
}
