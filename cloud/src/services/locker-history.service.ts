import type { LockerHistoryEntry } from '@deposito/protocol';
import { isBookingStatus, type BookingStatus } from '@deposito/protocol';
import { AppError } from '../errors';
import type { Store } from '../store/store';

/** The most entries a locker's history shows (each source is read up to this many, newest first). */
export const LOCKER_HISTORY_LIMIT = 200;

const status = (value: string): BookingStatus => (isBookingStatus(value) ? value : 'pending');

/**
 * One locker's history for Gestione Locker (issue 17, audit trail): every record that concerns it,
 * merged newest first. `locker/not_found` for a locker the location does not have.
 */
export class LockerHistoryService {
  constructor(private readonly store: Store) {}

  async of(locationKey: string, lockerNumber: number): Promise<LockerHistoryEntry[]> {
    const lockers = await this.store.locations.lockers(locationKey);
    if (!lockers.some((locker) => locker.number === lockerNumber)) {
      throw new AppError('locker/not_found', `Nessun locker ${lockerNumber} nella sede ${locationKey}`);
    }
    const records = await this.store.lockerHistory.of(locationKey, lockerNumber, LOCKER_HISTORY_LIMIT);
    return records
      .sort((a, b) => b.at.getTime() - a.at.getTime())
      .slice(0, LOCKER_HISTORY_LIMIT)
      .map((record): LockerHistoryEntry => {
        const at = record.at.toISOString();
        switch (record.source) {
          case 'booking':
            return {
              ...record,
              at,
              status: status(record.status),
              startAt: record.startAt.toISOString(),
              endAt: record.endAt.toISOString(),
              name: record.name.slice(0, 120),
            };
          case 'booking_event':
            return { ...record, at, from: status(record.from), to: status(record.to) };
          case 'command':
          case 'controller':
            return { ...record, at };
          case 'operator':
            return { ...record, at, message: record.message.slice(0, 4000) };
        }
      });
  }
}
