import type { LockerFullState } from '@deposito/protocol';
import type { Clock } from '../clock';
import { AppError } from '../errors';
import type { Store } from '../store/store';

/** What an operator can do to one locker from "Gestione Locker" (admin spec §4). */
export const LOCKER_OPERATIONS = ['open', 'inhibit', 'unbook', 'unbook-soap'] as const;
export type LockerOperation = (typeof LOCKER_OPERATIONS)[number];

/** The operations after which the controller holds no booking on the locker (only `open` keeps it). */
export const OPERATIONS_DROPPING_BOOKINGS: readonly LockerOperation[] = ['inhibit', 'unbook', 'unbook-soap'];

/** `executed` when the controller confirmed; `queued` when the bridge is offline and runs it later. */
export interface LockerCommandOutcome {
  outcome: 'executed' | 'queued';
  commandId?: string;
  message?: string;
}

/**
 * The admin area's view of the lockers on site. The bridge hub implements it for real: the full
 * state from the controller via the location's bridge, and commands sent with an id and an expiry.
 * Failures are AppErrors with the `bridge/*` codes (offline 503, timeout 504, refused 502).
 */
export interface LockerControl {
  fullState(locationKey: string): Promise<LockerFullState[]>;
  /** `forBooking`: the booking whose PIN the command takes off the locker (recorded with it). */
  command(
    locationKey: string,
    lockerId: number,
    operation: LockerOperation,
    options?: { forBooking?: string },
  ): Promise<LockerCommandOutcome>;
  /**
   * Paid bookings whose PIN is on the locker's controller, or on its way there, and not taken off:
   * what an unbook or inhibit of the locker would drop. Usually none or one.
   */
  bookingsProgrammedOn(locationKey: string, lockerId: number): Promise<string[]>;
  /** Whether the site's bridge is online, and when the cloud last heard from it (null: never). */
  siteStatus(locationKey: string): Promise<{ online: boolean; lastSeenAt: Date | null }>;
}

/**
 * Until the bridge hub is there: the state as our own bookings see it (occupied while a booking
 * holds a locker, maintenance when out of service), and every command refused as `bridge/offline`.
 */
export class StoreLockerControl implements LockerControl {
  constructor(
    private readonly store: Store,
    private readonly clock: Clock,
  ) {}

  /** No bridge without the hub: never online. */
  siteStatus(): Promise<{ online: boolean; lastSeenAt: Date | null }> {
    return Promise.resolve({ online: false, lastSeenAt: null });
  }

  async fullState(locationKey: string): Promise<LockerFullState[]> {
    if (!(await this.store.locations.get(locationKey))) {
      throw new AppError('location/not_found', `No location '${locationKey}'`);
    }
    const [lockers, holders] = await Promise.all([
      this.store.locations.lockers(locationKey),
      this.store.bookingAdmin.currentHolders(locationKey, this.clock.now()),
    ]);
    const holderOf = new Map(holders.map((h) => [h.lockerNumber, h.transactionId]));
    return lockers.map((locker): LockerFullState => {
      const transactionId = holderOf.get(locker.number);
      if (!locker.inService)
        return { id: locker.number, size: locker.size, status: 'maintenance', transactionId };
      if (transactionId)
        return { id: locker.number, size: locker.size, status: 'occupied', transactionId, online: true };
      return { id: locker.number, size: locker.size, status: 'available' };
    });
  }

  /** No bridge, so no PIN ever reached a controller from here. */
  async bookingsProgrammedOn(): Promise<string[]> {
    return [];
  }

  async command(locationKey: string, lockerId: number): Promise<LockerCommandOutcome> {
    const lockers = await this.store.locations.lockers(locationKey);
    if (!lockers.some((l) => l.number === lockerId)) {
      throw new AppError('locker/not_found', `Nessun locker ${lockerId} a ${locationKey}`);
    }
    throw new AppError(
      'bridge/offline',
      'La sede non è collegata: nessun bridge attivo per inviare il comando',
    );
  }
}
