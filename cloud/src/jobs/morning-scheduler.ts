import { DateTime } from 'luxon';
import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { BookingEmailService } from '../services/booking-email.service';
import type { BookingService, RandomSource } from '../services/booking.service';
import { assignPin } from '../services/payment.service';
import type { LocationRecord } from '../store/location.repository';
import type { Store } from '../store/store';

/** Local hour from which a location's scheduled bookings of the day get their PIN (before opening). */
export const MORNING_HOUR = 5;
/** How often the job looks whether a location's morning has come. */
export const MORNING_CHECK_INTERVAL_MS = 60_000;

export interface MorningRunReport {
  /** Bookings that got their PIN and lockers now, per location key. */
  released: Record<string, string[]>;
  message: string;
}

export interface MorningSchedulerDeps {
  store: Store;
  clock: Clock;
  logger: Logger;
  bookings: BookingService;
  emails: BookingEmailService;
  random: RandomSource;
  intervalMs?: number;
}

/** The run's result as the operator reads it in Strumenti Avanzati (Italian), with the count per location. */
export function morningRunMessage(released: Record<string, string[]>): string {
  const perLocation = Object.entries(released).filter(([, ids]) => ids.length > 0);
  const count = perLocation.reduce((sum, [, ids]) => sum + ids.length, 0);
  if (count === 0) return 'Morning Scheduler eseguito: nessuna prenotazione programmata da attivare oggi';
  const what = count === 1 ? '1 prenotazione programmata ha' : `${count} prenotazioni programmate hanno`;
  const where = perLocation.map(([key, ids]) => `${key}: ${ids.length}`).join(', ');
  return `Morning Scheduler eseguito: ${what} ricevuto il PIN di oggi (${where})`;
}

/**
 * Paid bookings for a later day wait as `scheduled`, their lockers held but not handed over. On
 * their day, from MORNING_HOUR in the location's zone, each becomes `confirmed` with a fresh PIN
 * (the bridge hub programs it on `booking.confirmed`) and the customer gets "your PIN for today".
 * Safe to run any number of times and on several instances: the status change decides who sends.
 */
export class MorningScheduler {
  #timer: NodeJS.Timeout | null = null;
  #running: Promise<unknown> | null = null;
  /** The local day each location was last run for, so the automatic run happens once a morning. */
  readonly #lastRunDay = new Map<string, string>();

  constructor(private readonly deps: MorningSchedulerDeps) {}

  /** Every location's bookings of its current local day, now (the admin's "run now"). */
  async runNow(now: Date = this.deps.clock.now()): Promise<MorningRunReport> {
    const released: Record<string, string[]> = {};
    for (const location of await this.deps.store.locations.list()) {
      released[location.key] = await this.runForLocation(location, now);
    }
    return { released, message: morningRunMessage(released) };
  }

  /** The location's scheduled bookings that start before the end of its local day and have not ended. */
  async runForLocation(location: LocationRecord, now: Date): Promise<string[]> {
    const { store, bookings, logger } = this.deps;
    const endOfDay = DateTime.fromJSDate(now, { zone: location.zone })
      .startOf('day')
      .plus({ days: 1 })
      .toJSDate();
    const due = (await store.bookings.scheduledStartingBefore(location.key, endOfDay)).filter(
      (booking) => booking.endAt > now,
    );
    const released: string[] = [];
    for (const booking of due) {
      const confirmed = await bookings.changeStatus(booking.transactionId, {
        from: ['scheduled'],
        to: 'confirmed',
        actor: 'scheduler',
        reason: 'morning_of_stay',
        pin: await assignPin(store, this.deps.random, location.key, now),
        email: 'todayPin',
      });
      if (!confirmed) continue;
      released.push(confirmed.transactionId);
      await this.deps.emails.deliver(confirmed.transactionId);
    }
    if (released.length > 0)
      logger.info({ location: location.key, count: released.length }, 'scheduled bookings released');
    return released;
  }

  /** Runs each location whose local morning has come and which has not been run that local day. */
  async tick(now: Date = this.deps.clock.now()): Promise<void> {
    for (const location of await this.deps.store.locations.list()) {
      const local = DateTime.fromJSDate(now, { zone: location.zone });
      const day = local.toISODate()!;
      if (local.hour < MORNING_HOUR || this.#lastRunDay.get(location.key) === day) continue;
      await this.runForLocation(location, now);
      this.#lastRunDay.set(location.key, day);
    }
  }

  start(): void {
    if (this.#timer) return;
    const run = () => {
      if (this.#running) return;
      this.#running = this.tick()
        .catch((error: unknown) => this.deps.logger.error({ err: error }, 'morning scheduler failed'))
        .finally(() => {
          this.#running = null;
        });
    };
    this.#timer = setInterval(run, this.deps.intervalMs ?? MORNING_CHECK_INTERVAL_MS);
    this.#timer.unref();
    run();
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
    await this.#running;
  }
}
