import type { Logger } from 'pino';
import type { Clock } from '../clock';
import type { DomainEvents } from '../domain-events';
import type { BridgeCommandRecord } from '../store/bridge.repository';
import type { ConfirmedOnLocker } from '../store/booking-admin.repository';
import type { Store } from '../store/store';
import type { BridgeHub } from './bridge-hub';

// A locker controller keeps one booking per locker (its PIN and period) and drops it once the
// period is over. So each locker's controller holds the PIN of that locker's *next* paid booking:
// the confirmed one that has not ended and starts first. A booking behind another on the same
// locker (two stays of one day on one locker) is programmed when the one before it ends; a booking
// confirmed ahead of one already programmed takes its place (`unbook` the later one, `book` this
// one), and the later one is programmed again when its turn comes. Cancelled bookings take their
// PIN off. Events start this at once; `syncLocationPins`, run every half minute, catches the
// turns that come with time.
//
// Ids are derived from the booking, the locker and how many times that booking's PIN was sent to
// that locker, so an event handled twice, or by two processes, adds nothing the second time.

function commandId(op: 'book' | 'unbook', transactionId: string, locker: number, generation: number): string {
  const base = `${op}.${transactionId}.${locker}`;
  return generation <= 1 ? base : `${base}.${generation}`;
}

export const bookCommandId = (transactionId: string, locker: number, generation = 1) =>
  commandId('book', transactionId, locker, generation);
export const unbookCommandId = (transactionId: string, locker: number, generation = 1) =>
  commandId('unbook', transactionId, locker, generation);

/** How often every location's lockers are checked for a booking whose turn has come. */
export const PIN_SYNC_INTERVAL_MS = 30_000;

export interface BookingCommandsDeps {
  hub: BridgeHub;
  store: Store;
  events: DomainEvents;
  clock: Clock;
  logger: Logger;
}

/** Subscribes to the booking events; returns the unsubscribe function. */
export function subscribeBookingCommands(deps: BookingCommandsDeps): () => void {
  const lockersOf = (booking: { lockers: ReadonlyArray<{ number: number }> }) =>
    booking.lockers.map((locker) => locker.number);
  const offs = [
    deps.events.on('booking.confirmed', ({ booking }) =>
      syncLockerPins(deps, booking.locationKey, lockersOf(booking)),
    ),
    deps.events.on('booking.cancelled', async ({ booking }) => {
      // A hold the visitor let go (`cancelled` is reached only from a hold) never had a PIN on a
      // controller and changes no paid booking's turn: nothing to take off or program. Three holds in
      // four end so in the steady-load benchmark, and each sync read every booking ahead on its lockers.
      if (booking.status === 'cancelled') return;
      await withdrawPins(deps, booking.transactionId);
      // The next booking of those lockers may be programmed now (after the take-offs).
      await syncLockerPins(deps, booking.locationKey, lockersOf(booking));
    }),
    deps.events.on('booking.expired', async ({ transactionId }) => {
      await withdrawPins(deps, transactionId);
    }),
    deps.events.on('booking.moved', async ({ booking, fromLocker }) => {
      await withdrawPins(deps, booking.transactionId, [fromLocker]);
      // Its new locker gets its PIN; the old one the PIN of whoever books it next.
      await syncLockerPins(deps, booking.locationKey, [fromLocker, ...lockersOf(booking)]);
    }),
    deps.events.on('booking.deleted', async ({ transactionId, locationKey, lockerNumbers }) => {
      await withdrawPins(deps, transactionId);
      await syncLockerPins(deps, locationKey, lockerNumbers);
    }),
  ];
  return () => {
    for (const off of offs) off();
  };
}

/** Every location: each locker's controller gets the PIN of its next booking (the periodic pass). */
export async function syncAllPins(deps: BookingCommandsDeps): Promise<void> {
  for (const location of await deps.store.locations.list()) {
    await syncLockerPins(deps, location.key, null);
  }
}

/**
 * For each of the lockers (all the location's when null): the next confirmed booking's PIN goes to
 * the controller, after any later booking's PIN already there is taken off (the bridge gets a
 * location's commands in the order they were issued).
 */
export async function syncLockerPins(
  deps: BookingCommandsDeps,
  locationKey: string,
  lockerNumbers: readonly number[] | null,
): Promise<void> {
  const now = deps.clock.now();
  const ahead = await deps.store.bookingAdmin.confirmedAhead(locationKey, lockerNumbers, now);
  const byLocker = new Map<number, ConfirmedOnLocker[]>();
  for (const booking of ahead) {
    const list = byLocker.get(booking.lockerNumber) ?? [];
    list.push(booking);
    byLocker.set(booking.lockerNumber, list);
  }
  for (const [locker, bookings] of byLocker) {
    const [next, ...later] = staysOf(bookings);
    for (const stay of later) {
      const pin = pinOnLocker(await deps.hub.commandsFor(stay.transactionId), locker);
      if (pin.sent) await takeOff(deps, locationKey, stay.transactionId, locker, pin);
    }
    const pin = pinOnLocker(await deps.hub.commandsFor(next!.transactionId), locker);
    if (pin.sent && programmedEnd(pin) !== next!.endAt.getTime()) {
      // The stay was extended (or an extension cancelled): the controller keeps one period per
      // locker, so the PIN goes off and comes back with the stay's new end.
      await takeOff(deps, locationKey, next!.transactionId, locker, pin);
      await programPin(deps, locationKey, next!, locker, pin.books + 1);
    } else if (!pin.sent && !pin.refused) {
      await programPin(deps, locationKey, next!, locker, pin.books + 1);
    }
  }
}

/**
 * One locker's bookings (earliest first) as the controller must see them: a stay and the visitor's
 * extensions that follow it end to end are one period under the stay's first booking (its commands
 * carry that id whichever piece is current). A piece of a stay after a gap (an operator cancelled
 * an extension in the middle) is not programmed: the stay's PIN must not come off for it.
 */
export function staysOf(bookings: readonly ConfirmedOnLocker[]): ConfirmedOnLocker[] {
  const stays: ConfirmedOnLocker[] = [];
  for (const booking of bookings) {
    const open = stays.find((stay) => stay.transactionId === booking.stayId);
    if (!open) {
      stays.push({ ...booking, transactionId: booking.stayId });
    } else if (open.endAt.getTime() === booking.startAt.getTime()) {
      open.endAt = booking.endAt;
    }
  }
  return stays;
}

/** The end the PIN on the controller was given (its last `book`), in milliseconds. */
function programmedEnd(pin: PinOnLocker): number | null {
  const to = pin.lastBook?.params?.to;
  return typeof to === 'string' ? Date.parse(to) : null;
}

/**
 * Takes the booking's PINs off its lockers (cancelled, or a hold that lapsed), or off `only` those
 * of them (lockers it was moved from).
 */
export async function withdrawPins(
  deps: BookingCommandsDeps,
  transactionId: string,
  only?: readonly number[],
): Promise<void> {
  const commands = await deps.hub.commandsFor(transactionId);
  const lockers = new Set(
    commands.flatMap((c) => (c.op === 'book' && c.lockerId !== null ? [c.lockerId] : [])),
  );
  for (const locker of lockers) {
    if (only && !only.includes(locker)) continue;
    const pin = pinOnLocker(commands, locker);
    if (pin.sent) await takeOff(deps, pin.lastBook!.locationKey, transactionId, locker, pin);
  }
}

export interface PinOnLocker {
  /** `book` commands for this booking and locker so far. */
  books: number;
  unbooks: number;
  lastBook: BridgeCommandRecord | null;
  /**
   * The last `book` is on its way or on the controller, and was not taken off since: by our
   * `unbook`, or by an operator's Attiva / Annulla prenotazione / Disattiva of the locker issued for
   * this booking (the controller drops its booking on each), unless the controller refused that.
   */
  sent: boolean;
  /** The controller refused the last `book` (the operators were told); not sent again by itself. */
  refused: boolean;
}

/** Where a booking's PIN stands on one locker, from its commands (oldest first). */
export function pinOnLocker(commands: readonly BridgeCommandRecord[], locker: number): PinOnLocker {
  const mine = commands.filter((c) => c.lockerId === locker);
  const books = mine.filter((c) => c.op === 'book');
  const lastBook = books.at(-1) ?? null;
  if (!lastBook) return { books: 0, unbooks: 0, lastBook, sent: false, refused: false };
  const unbooks = mine.filter((c) => c.op === 'unbook');
  const lastTakeOff = mine.findLast(
    (c) => (c.op === 'unbook' || c.op === 'inhibit') && c.status !== 'failed' && c.status !== 'expired',
  );
  const takenOff =
    (lastTakeOff !== undefined && mine.indexOf(lastTakeOff) > mine.indexOf(lastBook)) ||
    lastBook.error?.code === 'bridge/withdrawn';
  const refused = !takenOff && (lastBook.status === 'failed' || lastBook.status === 'expired');
  return { books: books.length, unbooks: unbooks.length, lastBook, sent: !takenOff && !refused, refused };
}

async function programPin(
  deps: BookingCommandsDeps,
  locationKey: string,
  booking: ConfirmedOnLocker,
  locker: number,
  generation: number,
): Promise<void> {
  if (!booking.pin) {
    deps.logger.error(
      { transactionId: booking.transactionId },
      'paid booking without a PIN; nothing sent to the lockers',
    );
    return;
  }
  await deps.hub.issue({
    id: bookCommandId(booking.transactionId, locker, generation),
    locationKey,
    op: 'book',
    lockerId: locker,
    params: { pin: booking.pin, from: booking.startAt.toISOString(), to: booking.endAt.toISOString() },
    transactionId: booking.transactionId,
    // A PIN is no use after the booking ends.
    expiresAt: booking.endAt,
  });
}

/** Takes the PIN off the locker. */
async function takeOff(
  deps: BookingCommandsDeps,
  locationKey: string,
  transactionId: string,
  locker: number,
  pin: PinOnLocker,
): Promise<void> {
  const book = pin.lastBook!;
  // Never left the cloud: taking it back is enough.
  if (book.status === 'queued' && (await deps.hub.withdraw(book.id))) return;
  // Past the booking's end the controller has dropped it by itself.
  if (book.expiresAt <= deps.clock.now()) return;
  await deps.hub.issue({
    id: unbookCommandId(transactionId, locker, pin.unbooks + 1),
    locationKey,
    op: 'unbook',
    lockerId: locker,
    transactionId,
    expiresAt: book.expiresAt,
  });
}
