import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import type { Store } from '../store/store';
import { intervalJob } from './interval-job';

/** How often lapsed holds are swept; reservations ignore lapsed holds anyway, so this only tidies up. */
export const EXPIRY_INTERVAL_MS = 30_000;

export interface PendingBookingExpiry {
  /** Expires every pending booking whose hold lapsed by `now`, frees its lockers, and returns their ids. */
  expirePendingBookings(now?: Date): Promise<string[]>;
  start(): void;
  stop(): Promise<void>;
}

export function createPendingBookingExpiry(deps: {
  store: Store;
  clock: Clock;
  events: DomainEvents;
  logger: Logger;
  intervalMs?: number;
}): PendingBookingExpiry {
  async function expirePendingBookings(now: Date = deps.clock.now()): Promise<string[]> {
    const expired = await deps.store.bookings.expirePending(now);
    for (const transactionId of expired) deps.events.emit({ type: 'booking.expired', transactionId });
    if (expired.length > 0) deps.logger.info({ count: expired.length }, 'expired pending bookings');
    return expired;
  }

  const job = intervalJob({
    intervalMs: deps.intervalMs ?? EXPIRY_INTERVAL_MS,
    pass: () => expirePendingBookings(),
    logger: deps.logger,
    failure: 'pending booking expiry failed',
  });
  return { expirePendingBookings, start: () => job.start(), stop: async () => job.stop() };
}
