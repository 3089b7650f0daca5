import { sql, type Kysely } from 'kysely';
import { HOLD_BOOKING_STATUSES, type LockerSize } from '@deposito/protocol';
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

export function bookingQueries(db: Kysely<Database>) {
  // Keyed by the row's columns, which are the same for every reservation (`bookingRow`).
  const insertBookingByColumns = new Map<string, PreparedQuery<Database, BookingInsertRow, unknown>>();
  return {
    /** Inserts a booking row, prepared once per set of columns. */
    insertBooking(row: BookingInsertRow, executor: Kysely<Database>) {
      const columns = Object.keys(row);
      const key = columns.join(',');
      let insert = insertBookingByColumns.get(key);
      if (!insert) {
        insert = new PreparedQuery(db, columns, (q, p: BookingInsertRow) =>
          q.insertInto('bookings').values(p as never),
        );
        insertBookingByColumns.set(key, insert);
      }
      // A column left undefined would be skipped by a query built each time; here it is null.
      const values = Object.fromEntries(
        Object.entries(row).map(([column, value]) => [column, value ?? null]),
      );
      return insert.execute(values, executor);
    },

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
          .innerJoin('bookings as b', 'b.transaction_id', 'bl.transaction_id')
          .select(['bl.locker_id', 'bl.start_at', 'bl.end_at', 'l.size'])
          .where('bl.start_at', '<', p.to)
          .where('bl.end_at', '>', p.from)
          .where(startsNoEarlierThanOverlapping('bl.start_at', 'l.id', p.from))
          // A lapsed hold the expiry job has not reached yet no longer counts.
          .where((eb) =>
            eb.not(
              eb.and([eb('b.status', 'in', [...HOLD_BOOKING_STATUSES]), eb('b.expires_at', '<=', p.now)]),
            ),
          ),
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
      (q, p: { locationKey: string; size: LockerSize; now: Date }) =>
        q
          .selectFrom('bookings')
          .select(['transaction_id', 'status'])
          .where('status', 'in', [...HOLD_BOOKING_STATUSES])
          .where('expires_at', '<=', p.now)
          .where('location_key', '=', p.locationKey)
          .where('size', '=', p.size),
    ),
  };
}
