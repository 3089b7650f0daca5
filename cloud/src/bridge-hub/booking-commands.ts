import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import type { BookingRecord } from '../store/booking.repository';
import type { Store } from '../store/store';
import type { BridgeHub } from './bridge-hub';

// Paid bookings program their PIN on the controller (`book`, valid over the booked period);
// cancelled and expired ones take it off again (`unbook`). Ids are derived from the booking and the
// locker, so an event handled twice (or by two processes) adds nothing the second time.

export const bookCommandId = (transactionId: string, locker: number) => `book.${transactionId}.${locker}`;
export const unbookCommandId = (transactionId: string, locker: number) => `unbook.${transactionId}.${locker}`;

export interface BookingCommandsDeps {
  hub: BridgeHub;
  store: Store;
  events: DomainEvents;
  clock: Clock;
  logger: Logger;
}

/** Subscribes to the booking events; returns the unsubscribe function. */
export function subscribeBookingCommands(deps: BookingCommandsDeps): () => void {
  const offs = [
    deps.events.on('booking.confirmed', ({ booking }) => programPins(deps, booking)),
    deps.events.on('booking.cancelled', ({ booking }) => withdrawPins(deps, booking.transactionId)),
    deps.events.on('booking.expired', ({ transactionId }) => withdrawPins(deps, transactionId)),
  ];
  return () => {
    for (const off of offs) off();
  };
}

export async function programPins(deps: BookingCommandsDeps, booking: BookingRecord): Promise<void> {
  const now = deps.clock.now();
  if (booking.endAt <= now) return;
  if (!booking.pin) {
    deps.logger.error(
      { transactionId: booking.transactionId },
      'paid booking without a PIN; nothing sent to the lockers',
    );
    return;
  }
  for (const locker of booking.lockers.filter((l) => l.active)) {
    await deps.hub.issue({
      id: bookCommandId(booking.transactionId, locker.number),
      locationKey: booking.locationKey,
      op: 'book',
      lockerId: locker.number,
      params: { pin: booking.pin, from: booking.startAt.toISOString(), to: booking.endAt.toISOString() },
      transactionId: booking.transactionId,
      // A PIN is no use after the booking ends.
      expiresAt: booking.endAt,
    });
  }
}

export async function withdrawPins(deps: BookingCommandsDeps, transactionId: string): Promise<void> {
  const now = deps.clock.now();
  const commands = await deps.hub.commandsFor(transactionId);
  for (const book of commands.filter((c) => c.op === 'book' && c.lockerId !== null)) {
    // Never left the cloud: taking it back is enough.
    if (book.status === 'queued' && (await deps.hub.withdraw(book.id))) continue;
    // Refused or expired on site: there is no PIN to remove; past the booking's end the controller drops it.
    if (book.status === 'failed' || book.status === 'expired' || book.expiresAt <= now) continue;
    await deps.hub.issue({
      id: unbookCommandId(transactionId, book.lockerId!),
      locationKey: book.locationKey,
      op: 'unbook',
      lockerId: book.lockerId!,
      transactionId,
      expiresAt: book.expiresAt,
    });
  }
}
