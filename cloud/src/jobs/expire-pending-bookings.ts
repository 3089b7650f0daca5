import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import type { Store } from '../store/store';

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
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<unknown> | null = null;

  async function expirePendingBookings(now: Date = deps.clock.now()): Promise<string[]> {
    const expired = await deps.store.bookings.expirePending(now);
    for (const transactionId of expired) deps.events.emit({ type: 'booking.expired', transactionId });
    if (expired.length > 0) deps.logger.info({ count: expired.length }, 'expired pending bookings');
    return expired;
  }

  function tick(): void {
    // A slow sweep is never overlapped by the next one.
    if (running) return;
    running = expirePendingBookings()
      .catch((error: unknown) => deps.logger.error({ err: error }, 'pending booking expiry failed'))
      .finally(() => {
        running = null;
      });
  }

  return {
    expirePendingBookings,
    start() {
      if (timer) return;
      timer = setInterval(tick, deps.intervalMs ?? EXPIRY_INTERVAL_MS);
      timer.unref();
    },
    async stop() {
      if (timer) clearInterval(timer);
      timer = null;
      await running;
    },
  };
}
