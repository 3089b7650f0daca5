import { sql, type Kysely } from 'kysely';
import { HANDED_OVER_BOOKING_STATUSES, type BookingStatus, type LockerSize } from '@deposito/protocol';
import { activeReservationsAt, lapsedHoldIds } from './booking-queries';
import type { Database } from './database';
import { containing, likeLower } from './like-pattern';
import type { SqlDialect } from './migrate';
import { toBoolean, toCount, toDate } from './values';
import { writeTransaction } from './write-transaction';

/** One booking row per locker (a booking without lockers yet gives one row with no locker). */
export interface BookingListRow {
  transactionId: string;
  status: BookingStatus;
  locationKey: string;
  startAt: Date;
  endAt: Date;
  createdAt: Date;
  lockerNumber: number | null;
  size: LockerSize;
  firstName: string | null;
  lastName: string | null;
  email: string | null;
  phonePrefix: string | null;
  phoneNumber: string | null;
  pin: string | null;
  note: string;
  priceOriginalCents: number;
  priceDiscountedCents: number;
  /** Made by an operator as a test: kept out of the takings. */
  isTest: boolean;
}

/**
 * Which bookings a cleanup selects: these statuses, created before `createdBefore`, maybe only
 * those holding no locker; never those `keep` names (statuses whose period ends after an instant).
 */
export interface CleanupSelection {
  statuses: readonly BookingStatus[];
  createdBefore: Date;
  excludeWithLocker: boolean;
  keep: { statuses: readonly BookingStatus[]; endingAfter: Date; always?: readonly BookingStatus[] };
}

/** A selected booking with how many booking-list rows it makes (one per locker, at least one). */
export interface CleanupCandidate {
  transactionId: string;
  status: BookingStatus;
  rows: number;
}

/** What the filter matches: what it would delete, and what `keep` leaves. */
export interface CleanupMatch {
  selected: CleanupCandidate[];
  kept: CleanupCandidate[];
}

/** A deleted booking whose period was not over, with the lockers it had (its PIN may be on them). */
export interface DeletedUnendedBooking {
  transactionId: string;
  locationKey: string;
  lockerNumbers: number[];
}

export interface CleanupDeletion extends CleanupMatch {
  /** The deleted ones whose period was not over at `keep.endingAfter`. */
  unended: DeletedUnendedBooking[];
}

export interface BookingAdminRepository {
  /** The newest bookings' rows, newest first, at most `limit` rows. */
  /**
   * Booking rows, one per locker, newest first; `search` keeps the bookings whose reference, name,
   * e-mail or phone (by its digits, prefix included) contains it, in any case.
   */
  recentRows(limit: number, search?: string): Promise<BookingListRow[]>;
  /** Marks a booking as an operator's test, which the takings leave out; false when there is no such booking. */
  markTest(transactionId: string): Promise<boolean>;
  /** Bookings the selection would delete, and those it matches but keeps. */
  cleanupCandidates(selection: CleanupSelection): Promise<CleanupMatch>;
  /**
   * Deletes what the selection selects at this moment, with their locker reservations and their
   * recorded status moves, in one step.
   */
  deleteSelected(selection: CleanupSelection): Promise<CleanupDeletion>;
  /** Booking rows by status (the list's rows, as the cleanup counts them). */
  rowsByStatus(): Promise<Array<{ status: BookingStatus; rows: number }>>;
  /** Booking rows created before an instant. */
  rowsCreatedBefore(instant: Date): Promise<number>;
  /** Which booking holds each of the location's lockers at `now` (lapsed holds excluded). */
  currentHolders(
    locationKey: string,
    now: Date,
  ): Promise<Array<{ lockerNumber: number; transactionId: string }>>;
  /**
   * Confirmed (paid, PIN given) bookings of the location's lockers that have not ended, by locker
   * number then start: what each locker's controller must hold, the first of each locker first.
   * `lockerNumbers` narrows it to those lockers.
   */
  confirmedAhead(
    locationKey: string,
    lockerNumbers: readonly number[] | null,
    now: Date,
  ): Promise<ConfirmedOnLocker[]>;
}

export interface ConfirmedOnLocker {
  lockerNumber: number;
  transactionId: string;
  /** The stay's first booking: itself, unless it is a visitor's extension of another. */
  stayId: string;
  pin: string | null;
  startAt: Date;
  endAt: Date;
}

/**
 * The bookings an operator's search finds: the text in the reference, the name (first, last or
 * both), or the e-mail, in any case; its digits (three or more) in the phone, prefix included.
 */
function matchesSearch(search: string) {
  const text = containing(search);
  const digits = search.replace(/\D/g, '');
  return sql<boolean>`(${sql.join(
    [
      likeLower(sql`b.transaction_id`, text),
      likeLower(sql`coalesce(b.first_name, '') || ' ' || coalesce(b.last_name, '')`, text),
      likeLower(sql`coalesce(b.email, '')`, text),
      ...(digits.length >= 3
        ? [
            likeLower(
              sql`replace(coalesce(b.phone_prefix, ''), '+', '') || coalesce(b.phone_number, '')`,
              `%${digits}%`,
            ),
          ]
        : []),
    ],
    sql` or `,
  )})`;
}

/** Deletes in slices so a large cleanup stays under the databases' bound-parameter limits. */
const DELETE_SLICE = 500;

export class KyselyBookingAdminRepository implements BookingAdminRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
  ) {}

  async recentRows(limit: number, search?: string): Promise<BookingListRow[]> {
    let query = this.db
      .selectFrom('bookings as b')
      .leftJoin('booking_lockers as bl', 'bl.transaction_id', 'b.transaction_id')
      .leftJoin('lockers as l', 'l.id', 'bl.locker_id')
      .select([
        'b.transaction_id',
        'b.status',
        'b.location_key',
        'b.start_at',
        'b.end_at',
        'b.created_at',
        'b.size',
        'b.first_name',
        'b.last_name',
        'b.email',
        'b.phone_prefix',
        'b.phone_number',
        'b.pin',
        'b.note',
        'b.price_original_cents',
        'b.price_discounted_cents',
        'b.is_test',
        'l.number',
      ]);
    if (search) query = query.where(matchesSearch(search));
    const rows = await query
      .orderBy('b.created_at', 'desc')
      .orderBy('b.transaction_id')
      .orderBy('l.number')
      .limit(limit)
      .execute();
    return rows.map((row) => ({
      transactionId: row.transaction_id,
      status: row.status as BookingStatus,
      locationKey: row.location_key,
      startAt: toDate(row.start_at),
      endAt: toDate(row.end_at),
      createdAt: toDate(row.created_at),
      lockerNumber: row.number ?? null,
      size: row.size as LockerSize,
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phonePrefix: row.phone_prefix,
      phoneNumber: row.phone_number,
      pin: row.pin,
      note: row.note,
      priceOriginalCents: row.price_original_cents,
      priceDiscountedCents: row.price_discounted_cents,
      isTest: toBoolean(row.is_test),
    }));
  }

  async markTest(transactionId: string): Promise<boolean> {
    const result = await this.db
      .updateTable('bookings')
      .set({ is_test: true })
      .where('transaction_id', '=', transactionId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  cleanupCandidates(selection: CleanupSelection): Promise<CleanupMatch> {
    return selectCandidates(this.db, selection);
  }

  async deleteSelected(selection: CleanupSelection): Promise<CleanupDeletion> {
    return writeTransaction(this.db, this.dialect, async (trx) => {
      const match = await selectCandidates(trx, selection);
      const unended = await unendedWithLockers(trx, match.selected, selection.keep.endingAfter);
      for (let index = 0; index < match.selected.length; index += DELETE_SLICE) {
        const ids = match.selected.slice(index, index + DELETE_SLICE).map((c) => c.transactionId);
        await trx.deleteFrom('booking_lockers').where('transaction_id', 'in', ids).execute();
        // A booking's history goes with it: without the booking it explains nothing.
        await trx.deleteFrom('booking_events').where('transaction_id', 'in', ids).execute();
        // Extensions go with their booking (either side of the tie).
        await trx.deleteFrom('booking_extensions').where('transaction_id', 'in', ids).execute();
        await trx.deleteFrom('booking_extensions').where('stay_id', 'in', ids).execute();
        await trx.deleteFrom('bookings').where('transaction_id', 'in', ids).execute();
      }
      return { ...match, unended };
    });
  }

  async rowsByStatus(): Promise<Array<{ status: BookingStatus; rows: number }>> {
    const rows = await this.db
      .selectFrom('bookings as b')
      .leftJoin('booking_lockers as bl', 'bl.transaction_id', 'b.transaction_id')
      .select(['b.status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('b.status')
      .orderBy('b.status')
      .execute();
    return rows.map((row) => ({
      status: row.status as BookingStatus,
      rows: toCount(row.n as string | number),
    }));
  }

  async rowsCreatedBefore(instant: Date): Promise<number> {
    const row = await this.db
      .selectFrom('bookings as b')
      .leftJoin('booking_lockers as bl', 'bl.transaction_id', 'b.transaction_id')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('b.created_at', '<', instant)
      .executeTakeFirstOrThrow();
    return toCount(row.n as string | number);
  }

  async confirmedAhead(
    locationKey: string,
    lockerNumbers: readonly number[] | null,
    now: Date,
  ): Promise<ConfirmedOnLocker[]> {
    if (lockerNumbers !== null && lockerNumbers.length === 0) return [];
    let query = activeReservationsAt(this.db, locationKey)
      .innerJoin('bookings as b', 'b.transaction_id', 'bl.transaction_id')
      .leftJoin('booking_extensions as e', 'e.transaction_id', 'bl.transaction_id')
      .leftJoin('bookings as r', 'r.transaction_id', 'e.stay_id')
      .select([
        'l.number',
        'bl.transaction_id',
        'r.transaction_id as stay_id',
        'b.pin',
        'bl.start_at',
        'bl.end_at',
      ])
      // An extension counts while its stay does: a stay cancelled takes its PIN off, whatever
      // becomes of its extensions a moment later (one whose stay was deleted stands alone).
      .where((eb) =>
        eb.or([eb('r.transaction_id', 'is', null), eb('r.status', 'in', [...HANDED_OVER_BOOKING_STATUSES])]),
      )
      // Paid late and honoured is as paid as on time: its PIN belongs on the locker too.
      .where('b.status', 'in', [...HANDED_OVER_BOOKING_STATUSES])
      .where('bl.end_at', '>', now);
    if (lockerNumbers !== null) query = query.where('l.number', 'in', [...lockerNumbers]);
    // Sorted here, not in SQL: asked for that order, SQLite walked the locker's active reservations
    // by start (past ones included) instead of searching only those not yet ended (the index
    // booking_lockers_locker_active_end_idx).
    const rows = await query.execute();
    return rows
      .map((row) => ({
        lockerNumber: row.number,
        transactionId: row.transaction_id,
        stayId: row.stay_id ?? row.transaction_id,
        pin: row.pin,
        startAt: toDate(row.start_at),
        endAt: toDate(row.end_at),
      }))
      .sort((a, b) => a.lockerNumber - b.lockerNumber || a.startAt.getTime() - b.startAt.getTime());
  }

  async currentHolders(
    locationKey: string,
    now: Date,
  ): Promise<Array<{ lockerNumber: number; transactionId: string }>> {
    const rows = await activeReservationsAt(this.db, locationKey)
      .select(['l.number', 'bl.transaction_id'])
      .where('bl.start_at', '<=', now)
      .where('bl.end_at', '>', now)
      .where('bl.transaction_id', 'not in', lapsedHoldIds(this.db, now, locationKey))
      .orderBy('l.number')
      .execute();
    return rows.map((row) => ({ lockerNumber: row.number, transactionId: row.transaction_id }));
  }
}

async function selectCandidates(db: Kysely<Database>, selection: CleanupSelection): Promise<CleanupMatch> {
  if (selection.statuses.length === 0) return { selected: [], kept: [] };
  let query = db
    .selectFrom('bookings as b')
    .leftJoin('booking_lockers as bl', 'bl.transaction_id', 'b.transaction_id')
    .select(['b.transaction_id', 'b.status', 'b.end_at', (eb) => eb.fn.count('bl.id').as('lockers')])
    .where('b.status', 'in', [...selection.statuses])
    .where('b.created_at', '<', selection.createdBefore)
    .groupBy(['b.transaction_id', 'b.status', 'b.end_at']);
  if (selection.excludeWithLocker) {
    // "With a locker": still holding one. Expired and cancelled bookings gave theirs back.
    query = query.where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('booking_lockers as held')
            .select('held.id')
            .whereRef('held.transaction_id', '=', 'b.transaction_id')
            .where('held.active', '=', true),
        ),
      ),
    );
  }
  const rows = await query.orderBy('b.transaction_id').execute();
  const match: CleanupMatch = { selected: [], kept: [] };
  const keepEndingAfter = selection.keep.endingAfter.getTime();
  for (const row of rows) {
    const candidate: CleanupCandidate = {
      transactionId: row.transaction_id,
      status: row.status as BookingStatus,
      rows: Math.max(1, toCount(row.lockers as string | number)),
    };
    const kept =
      (selection.keep.always ?? []).includes(candidate.status) ||
      (selection.keep.statuses.includes(candidate.status) && toDate(row.end_at).getTime() > keepEndingAfter);
    (kept ? match.kept : match.selected).push(candidate);
  }
  return match;
}

/** Of the candidates, those whose period ends after `now`, with the numbers of their lockers. */
async function unendedWithLockers(
  db: Kysely<Database>,
  candidates: readonly CleanupCandidate[],
  now: Date,
): Promise<DeletedUnendedBooking[]> {
  const found = new Map<string, DeletedUnendedBooking>();
  for (let index = 0; index < candidates.length; index += DELETE_SLICE) {
    const ids = candidates.slice(index, index + DELETE_SLICE).map((c) => c.transactionId);
    const rows = await db
      .selectFrom('bookings as b')
      .leftJoin('booking_lockers as bl', 'bl.transaction_id', 'b.transaction_id')
      .leftJoin('lockers as l', 'l.id', 'bl.locker_id')
      .select(['b.transaction_id', 'b.location_key', 'l.number'])
      .where('b.transaction_id', 'in', ids)
      .where('b.end_at', '>', now)
      .orderBy('b.transaction_id')
      .orderBy('l.number')
      .execute();
    for (const row of rows) {
      const booking = found.get(row.transaction_id) ?? {
        transactionId: row.transaction_id,
        locationKey: row.location_key,
        lockerNumbers: [],
      };
      if (row.number !== null && !booking.lockerNumbers.includes(row.number)) {
        booking.lockerNumbers.push(row.number);
      }
      found.set(row.transaction_id, booking);
    }
  }
  return [...found.values()];
}
