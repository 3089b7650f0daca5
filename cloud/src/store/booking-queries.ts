import { sql, type Compilable, type Kysely } from 'kysely';
import {
  ACTIVE_BOOKING_STATUSES,
  HOLD_BOOKING_STATUSES,
  type BookingActor,
  type BookingStatus,
  type LockerSize,
  type TransitionReason,
} from '@deposito/protocol';
import type { Database } from './database';
import { PreparedQuery } from './prepared-query';

// The reads every availability call and every hold makes, prepared once per store (prepared-query.ts).

/**
 * Bounds an occupation read from below: a locker's active reservations never overlap, so none that
 * overlaps `from` starts before the latest active start at or before `from`. The locker id comes from
 * the joined lockers row so SQLite can use the bound in the index search.
 */
export function startsNoEarlierThanOverlapping(
  startColumn: 'bl.start_at',
  lockerIdColumn: 'l.id',
  from: unknown,
) {
  return sql<boolean>`${sql.ref(startColumn)} >= coalesce((
    select max(prior.start_at) from booking_lockers as prior
    where prior.locker_id = ${sql.ref(lockerIdColumn)} and prior.active = ${true}
      and prior.start_at <= ${from}), ${from})`;
}

/**
 * The rule of a lapsed hold, once for every read and write of the store: a hold (`status` a hold's)
 * whose `expires_at` is not after `now` no longer holds its lockers, whether or not the expiry has
 * marked it yet. Every hold carries an expiry (`bookingRow` refuses one without).
 *
 * Reads that leave lapsed holds out (the calendar's occupancy, who holds a locker now) exclude the
 * ids of the location's lapsed holds, which the holds' own index finds (SQLite's keeps only rows with
 * an expiry, PostgreSQL's only holds). Asked without the location, or with a hold's expiry allowed to
 * be missing, SQLite read every booking instead once it had statistics saying most bookings share a
 * few statuses (150 ms with 1,000,000 bookings).
 */
export function lapsedHoldIds(db: Kysely<Database>, now: Date, locationKey: string) {
  return db
    .selectFrom('bookings')
    .select('transaction_id')
    .where('location_key', '=', locationKey)
    .where('status', 'in', [...HOLD_BOOKING_STATUSES])
    .where('expires_at', '<=', now);
}

/**
 * The lapsed holds the expiry marks (`lapsedHoldsExpiry`), with the status each lapses from: all of
 * them, or those of one location and size (a reservation expires those it may take the lockers of).
 */
export function holdsToExpire(
  db: Kysely<Database>,
  now: Date,
  scope?: { locationKey: string; size: LockerSize },
) {
  const lapsed = db
    .selectFrom('bookings')
    .select(['transaction_id', 'status'])
    .where('status', 'in', [...HOLD_BOOKING_STATUSES])
    .where('expires_at', '<=', now);
  return scope ? lapsed.where('location_key', '=', scope.locationKey).where('size', '=', scope.size) : lapsed;
}

/** The active reservations (`bl`) at a location, each with its locker (`l`). */
export function activeReservationsAt(db: Kysely<Database>, locationKey: string) {
  return db
    .selectFrom('booking_lockers as bl')
    .innerJoin('lockers as l', 'l.id', 'bl.locker_id')
    .where('l.location_key', '=', locationKey)
    .where('bl.active', '=', true);
}

export type BookingQueries = ReturnType<typeof bookingQueries>;

/** A booking row as a reservation inserts it: the same columns every time. */
export type BookingInsertRow = Record<string, unknown>;

/** A recorded move of a booking, as `booking_events` keeps it. */
export interface BookingEventRow {
  transactionId: string;
  at: Date;
  from: BookingStatus;
  to: BookingStatus;
  actor: BookingActor;
  reason: TransitionReason;
  detail: string | null;
}

/** Inserts moves of bookings (at least one). */
export function bookingEventsInsert(
  db: Kysely<Database>,
  events: ReadonlyArray<BookingEventRow>,
): Compilable {
  return db.insertInto('booking_events').values(
    events.map((event) => ({
      transaction_id: event.transactionId,
      at: event.at,
      from_status: event.from,
      to_status: event.to,
      actor: event.actor,
      reason: event.reason,
      detail: event.detail,
    })),
  );
}

/** Makes single-use codes claimed by these bookings usable again. */
export function discountClaimsRelease(db: Kysely<Database>, transactionIds: readonly string[]): Compilable {
  return db
    .updateTable('discounts')
    .set({ used_at: null, used_by: null })
    .where('used_by', 'in', [...transactionIds]);
}

/**
 * The writes, in order, that expire these lapsed holds (at least one): the status with its recorded
 * move, their lockers given back, their discount claims released.
 */
export function lapsedHoldsExpiry(
  db: Kysely<Database>,
  lapsed: ReadonlyArray<{ transaction_id: string; status: string }>,
  now: Date,
): Compilable[] {
  const expired = lapsed.map((row) => row.transaction_id);
  return [
    db
      .updateTable('bookings')
      .set({ status: 'expired', updated_at: now, expires_at: null })
      .where('transaction_id', 'in', expired)
      .where('status', 'in', [...HOLD_BOOKING_STATUSES]),
    bookingEventsInsert(
      db,
      lapsed.map((row) => ({
        transactionId: row.transaction_id,
        at: now,
        from: row.status as BookingStatus,
        to: 'expired' as const,
        actor: 'system' as const,
        reason: 'hold_lapsed' as const,
        detail: null,
      })),
    ),
    db.updateTable('booking_lockers').set({ active: false }).where('transaction_id', 'in', expired),
    discountClaimsRelease(db, expired),
  ];
}

/** A statement prepared once per set of columns of the row it writes (`bookingRow`'s are always the same). */
function byColumns<Q>(prepare: (columns: string[]) => Q): (row: BookingInsertRow) => Q {
  const prepared = new Map<string, Q>();
  return (row) => {
    const columns = Object.keys(row);
    const key = columns.join(',');
    let query = prepared.get(key);
    if (!query) {
      query = prepare(columns);
      prepared.set(key, query);
    }
    return query;
  };
}

/** A column left undefined would be skipped by a query built each time; a prepared one writes null. */
function nullForUndefined(row: BookingInsertRow): BookingInsertRow {
  return Object.fromEntries(Object.entries(row).map(([column, value]) => [column, value ?? null]));
}

/** A hold's own reads and writes of its booking row, prepared once per store. */
function holdQueries(db: Kysely<Database>) {
  const bookingInsert = byColumns(
    (columns) =>
      new PreparedQuery(db, columns, (q, p: BookingInsertRow) => q.insertInto('bookings').values(p as never)),
  );
  const holdReplacement = byColumns(
    (columns) =>
      new PreparedQuery(db, [...columns, 'holdId'], (q, p: BookingInsertRow) => {
        const { holdId, ...fields } = p;
        return q
          .updateTable('bookings')
          .set(fields as never)
          .where('transaction_id', '=', holdId as string)
          .returning(['created_at', 'provider_reference', 'paid_at']);
      }),
  );
  // Keyed by how many PINs are asked about.
  const pinsInUseByCount = new Map<
    number,
    PreparedQuery<Database, Record<string, unknown>, { pin: string | null }>
  >();
  return {
    /** The insert of a booking row (prepared once per set of columns), with its values. */
    insertBookingQuery(row: BookingInsertRow) {
      return bookingInsert(row).withValues(nullForUndefined(row));
    },

    /** Writes a pending hold's row anew (`row` without its id and creation time); answers what it kept. */
    replaceHoldQuery(holdId: string, row: BookingInsertRow) {
      return holdReplacement(row).withValues({ ...nullForUndefined(row), holdId });
    },

    /** Which of `pins` a booking holding lockers at the location uses (indexed, as `pinsInUse`). */
    pinsInUseQuery(locationKey: string, pins: readonly string[], now: Date) {
      let query = pinsInUseByCount.get(pins.length);
      if (!query) {
        const names = pins.map((_, index) => `pin${index}`);
        query = new PreparedQuery(db, ['locationKey', 'now', ...names], (q, p: Record<string, unknown>) =>
          pinsInUseSelect(
            q,
            p.locationKey as string,
            names.map((name) => p[name] as string),
            p.now as Date,
          ),
        );
        pinsInUseByCount.set(pins.length, query);
      }
      return query.withValues({
        locationKey,
        now,
        ...Object.fromEntries(pins.map((pin, index) => [`pin${index}`, pin])),
      });
    },

    /** A booking's status and location, for a hold about to be replaced. */
    holdToReplace: new PreparedQuery(db, ['transactionId'], (q, p: { transactionId: string }) =>
      q
        .selectFrom('bookings')
        .select(['status', 'location_key'])
        .where('transaction_id', '=', p.transactionId),
    ),

    /** Gives up every locker row of a booking. */
    deleteBookingLockers: new PreparedQuery(db, ['transactionId'], (q, p: { transactionId: string }) =>
      q.deleteFrom('booking_lockers').where('transaction_id', '=', p.transactionId),
    ),
  };
}

export function bookingQueries(db: Kysely<Database>) {
  return {
    ...holdQueries(db),

    /** One reserved locker of a booking. */
    insertBookingLocker: new PreparedQuery(
      db,
      ['transactionId', 'lockerId', 'startAt', 'endAt', 'active'],
      (q, p: { transactionId: string; lockerId: number; startAt: Date; endAt: Date; active: boolean }) =>
        q.insertInto('booking_lockers').values({
          transaction_id: p.transactionId,
          locker_id: p.lockerId,
          start_at: p.startAt,
          end_at: p.endAt,
          active: p.active,
        }),
    ),

    /** A location's lockers. */
    lockers: new PreparedQuery(db, ['locationKey'], (q, p: { locationKey: string }) =>
      q
        .selectFrom('lockers')
        .select(['id', 'number', 'size', 'in_service'])
        .where('location_key', '=', p.locationKey),
    ),

    /** A location's lockers of one size. */
    lockersOfSize: new PreparedQuery(
      db,
      ['locationKey', 'size'],
      (q, p: { locationKey: string; size: LockerSize }) =>
        q
          .selectFrom('lockers')
          .select(['id', 'number', 'size', 'in_service'])
          .where('location_key', '=', p.locationKey)
          .where('size', '=', p.size),
    ),

    /** Active reservations at a location overlapping [from, to), lapsed holds left out. */
    occupations: new PreparedQuery(
      db,
      ['locationKey', 'from', 'to', 'now'],
      (q, p: { locationKey: string; from: Date; to: Date; now: Date }) =>
        activeReservationsAt(q, p.locationKey)
          .select(['bl.locker_id', 'bl.start_at', 'bl.end_at', 'l.size'])
          .where('bl.start_at', '<', p.to)
          .where('bl.end_at', '>', p.from)
          .where(startsNoEarlierThanOverlapping('bl.start_at', 'l.id', p.from))
          // A lapsed hold the expiry job has not reached yet no longer counts. Asked as one list of
          // the few holds that lapsed rather than a booking read per reservation: the calendar's
          // reservations grow as it fills, and that read was half the call (steady-load benchmark).
          .where('bl.transaction_id', 'not in', lapsedHoldIds(q, p.now, p.locationKey)),
    ),

    /** Active reservations of one size at a location overlapping [from, to) (lapsed holds expired first). */
    occupationsOfSize: new PreparedQuery(
      db,
      ['locationKey', 'size', 'from', 'to'],
      (q, p: { locationKey: string; size: LockerSize; from: Date; to: Date }) =>
        activeReservationsAt(q, p.locationKey)
          .select(['bl.locker_id', 'bl.start_at', 'bl.end_at'])
          .where('l.size', '=', p.size)
          .where('bl.start_at', '<', p.to)
          .where('bl.end_at', '>', p.from)
          .where(startsNoEarlierThanOverlapping('bl.start_at', 'l.id', p.from)),
    ),

    /** A location's lapsed holds of one size, with the status each lapses from. */
    lapsedHoldsOfSize: new PreparedQuery(
      db,
      ['locationKey', 'size', 'now'],
      (q, p: { locationKey: string; size: LockerSize; now: Date }) => holdsToExpire(q, p.now, p),
    ),
  };
}

/** Bookings holding lockers at the location that use one of `pins` (the PIN index answers it). */
export function pinsInUseSelect(
  db: Kysely<Database>,
  locationKey: string,
  pins: readonly string[],
  now: Date,
) {
  return db
    .selectFrom('bookings')
    .select('pin')
    .where('location_key', '=', locationKey)
    .where('pin', 'in', [...pins])
    .where('status', 'in', [...ACTIVE_BOOKING_STATUSES])
    .where('end_at', '>', now);
}
