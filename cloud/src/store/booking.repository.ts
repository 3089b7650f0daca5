import { sql, type Kysely } from 'kysely';
import {
  HANDED_OVER_BOOKING_STATUSES,
  ACTIVE_BOOKING_STATUSES,
  assertTransition,
  BOOKING_STATUSES,
  HOLD_BOOKING_STATUSES,
  isActiveBookingStatus,
  isBookingStatus,
  isHoldBookingStatus,
  type BookingActor,
  type BookingStatus,
  type TransitionReason,
  type Duration,
  type Language,
  type LockerSize,
} from '@deposito/protocol';
import {
  freeLockers,
  type LockerUnit,
  type Occupation,
} from '@deposito/protocol/booking/locker-availability';
import {
  activeReservationsAt,
  bookingEventsInsert,
  bookingQueries,
  discountClaimsRelease,
  holdsToExpire,
  lapsedHoldsExpiry,
  pinsInUseSelect,
  type BookingEventRow,
  type BookingQueries,
} from './booking-queries';
import type { BookingRow, Database } from './database';
import { enqueueBookingEmail } from './email-outbox.repository';
import type { SqlDialect } from './migrate';
import { toBoolean, toCount, toDate, toDateOrNull } from './values';
import { retryingConflicts, writeTransaction } from './write-transaction';
import { ReadCache, READ_CACHE_TTL_MS } from './read-cache';
import type { SqliteSync } from './sqlite-database';
import { SqliteReservationGroups } from './sqlite-reservations';
import {
  bookingRow,
  customerColumns,
  MAX_GROUPED_RESERVATIONS,
  ReservationRejected,
  reservedBooking,
  type BookingRecord,
  type Customer,
  type ReservationRequest,
  type ReservationResult,
  type ReservedLocker,
} from './reservation-records';

export type {
  BookingRecord,
  Customer,
  NewBooking,
  ReservationRequest,
  ReservationResult,
  ReservedLocker,
} from './reservation-records';

export interface HoldUpdate {
  /** A later lapse (a hold its visitor has put a name to); only while the hold is still live. */
  expiresAt?: Date;
  duration?: Duration;
  priceOriginalCents?: number;
  priceDiscountedCents?: number;
  feeCents?: number;
  totalCents?: number;
  discountCode?: string | null;
  customer?: Customer;
  note?: string;
  lang?: Language;
}

/** A move of the state machine (protocol/src/booking/status.ts), recorded with who, when and why. */
export interface StatusTransition {
  from: readonly BookingStatus[];
  to: BookingStatus;
  now: Date;
  actor: BookingActor;
  reason: TransitionReason;
  /** Words of the actor's own (an operator's reason, a provider's reference); kept with the move. */
  detail?: string | null;
  paidAt?: Date;
  pin?: string;
  providerReference?: string;
  /** A hold moving to another hold status keeps its expiry unless given a new one. */
  expiresAt?: Date;
  /** The visitor's e-mail this move calls for, queued in the same transaction (email_outbox). */
  email?: string;
}

/** One recorded move of a booking. */
export interface BookingEvent {
  at: Date;
  from: BookingStatus;
  to: BookingStatus;
  actor: BookingActor;
  reason: string;
  detail: string | null;
}

/** A payment that arrived for a booking whose hold had already lapsed (or been cancelled). */
export interface LatePaymentRequest {
  transactionId: string;
  now: Date;
  /** Given to the booking when lockers can be found for it. */
  pin: string;
  providerReference: string | null;
  /** Only the lockers it held (an extension of a stay continues on the stay's lockers or not at all). */
  sameLockersOnly?: boolean;
  /** The e-mail of a late confirmation (the confirmation unless said otherwise). */
  email?: 'confirmation' | 'extension';
}

export interface LockerMoveRequest {
  transactionId: string;
  /** The booking's locker to give up, and the free one of the same size to take instead. */
  fromNumber: number;
  toNumber: number;
  now: Date;
  actor: BookingActor;
  /** Who moved it and why, kept with the recorded move. */
  detail: string;
}

export type LockerMoveResult =
  | { ok: true; booking: BookingRecord; expired: string[] }
  | {
      ok: false;
      /**
       * not_found: no such booking; invalid_state: not a paid booking holding lockers now or later,
       * or over; not_its_locker: `fromNumber` is not one of its lockers; no_such_locker: no locker
       * `toNumber` of its size at its location; taken: that locker is out of service or held
       * during the booking's remaining period.
       */
      reason: 'not_found' | 'invalid_state' | 'not_its_locker' | 'no_such_locker' | 'taken';
    };

export type LatePaymentResult =
  /** Its lockers, or others of its size, were free: they are the booking's again. */
  | { outcome: 'confirmed_late'; booking: BookingRecord; expired: string[] }
  /** Nothing of its size is free any more: paid, but no lockers (an operator must refund). */
  | { outcome: 'failed_after_payment'; booking: BookingRecord; expired: string[] }
  /** The booking is not (or no longer) an unpaid lapsed hold, e.g. a concurrent notification won. */
  | { outcome: 'not_late'; booking: BookingRecord | null };

/** Occupations of a location's lockers over a period, with the lockers themselves. */
export interface OccupancySnapshot {
  lockers: readonly LockerUnit[];
  occupations: Array<Occupation & { size: LockerSize }>;
}

export interface BookingRepository {
  /** Picks free lockers and writes the booking with them in one atomic step; never double-books. */
  reserveLockers(request: ReservationRequest): Promise<ReservationResult>;
  get(transactionId: string): Promise<BookingRecord | null>;
  /** Changes a hold (pending unless `statuses` says) that has not lapsed; null when there is none. */
  updateHold(
    transactionId: string,
    update: HoldUpdate,
    now: Date,
    statuses?: readonly BookingStatus[],
  ): Promise<BookingRecord | null>;
  /** When an operator's test booking was paid (not a move of its status). */
  setPaidAt(transactionId: string, paidAt: Date): Promise<void>;
  /**
   * Moves a booking from one of `from` to `to`; a status that holds no lockers gives them back and
   * releases a single-use discount it claimed. Null when the booking is not in one of `from`.
   */
  transition(transactionId: string, transition: StatusTransition): Promise<BookingRecord | null>;
  /** Every recorded move of the booking, oldest first. */
  events(transactionId: string): Promise<BookingEvent[]>;
  /** Expires every pending hold whose time is up and frees its lockers; returns their ids. */
  expirePending(now: Date): Promise<string[]>;
  /** Lockers of the location and the reservations holding them during [from, to) as of `now`. */
  occupancy(locationKey: string, from: Date, to: Date, now: Date): Promise<OccupancySnapshot>;
  /** PINs of bookings that currently hold lockers at the location, to avoid handing out a duplicate. */
  activePins(locationKey: string, now: Date): Promise<Set<string>>;
  /** Which of `pins` a booking that currently holds lockers at the location already uses (indexed lookup). */
  pinsInUse(locationKey: string, pins: readonly string[], now: Date): Promise<Set<string>>;
  /**
   * Settles a payment for a lapsed, expired or cancelled hold in one atomic step: its own lockers
   * when still free, else other free lockers of its size (confirmed_late, with its confirmation
   * e-mail queued), else failed_after_payment.
   */
  confirmLatePayment(request: LatePaymentRequest): Promise<LatePaymentResult>;
  /**
   * Moves a paid booking from one of its lockers to another free one of the same size for the rest
   * of its period, atomically with the check (never double-books), recording the move.
   */
  moveLocker(request: LockerMoveRequest): Promise<LockerMoveResult>;
  /** Scheduled (paid, future-day) bookings of the location starting before `before`, earliest first. */
  scheduledStartingBefore(locationKey: string, before: Date): Promise<BookingRecord[]>;
  /** How many bookings have each status (every status present, zero when none), for metrics. */
  countByStatus(): Promise<Record<BookingStatus, number>>;
}

const MAX_RESERVATION_ATTEMPTS = 8;

export class KyselyBookingRepository implements BookingRepository {
  private readonly sqliteReservations: SqliteReservationGroups | null;
  private readonly postgresReservations: PostgresReservationBatches;
  private readonly queries: BookingQueries;
  /**
   * Each location's lockers for the occupancy read (every calendar call asks for them, they change
   * only when an operator edits the location): dropped at this process's next write of anything, and
   * after READ_CACHE_TTL_MS for another process's, as the location rows themselves.
   */
  private readonly lockerCache: ReadCache<readonly LockerUnit[]>;

  /**
   * `sqlite`: the handle under Kysely's SQLite dialect, on which reservations run synchronously
   * (null on PostgreSQL). `writeVersion`: the store's count of this process's writes
   * (`Store.writeVersion`), without which the kept lockers would outlive a write of this process.
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    sqlite: SqliteSync | null,
    writeVersion: () => number,
  ) {
    if (dialect === 'sqlite' && !sqlite) throw new Error('A SQLite booking repository needs its handle');
    this.queries = bookingQueries(db);
    this.lockerCache = new ReadCache(READ_CACHE_TTL_MS, writeVersion);
    this.sqliteReservations = sqlite ? new SqliteReservationGroups(db, this.queries, sqlite) : null;
    this.postgresReservations = new PostgresReservationBatches(db);
  }

  async reserveLockers(request: ReservationRequest): Promise<ReservationResult> {
    try {
      // PostgreSQL: another instance took a locker we picked (exclusion constraint) or a deadlock
      // with the expiry job; pick again from a fresh view.
      return await retryingConflicts(MAX_RESERVATION_ATTEMPTS, () =>
        this.dialect === 'postgres'
          ? this.postgresReservations.reserve(request)
          : this.sqliteReservations!.reserve(request),
      );
    } catch (error) {
      if (error instanceof ReservationRejected) return error.result;
      throw error;
    }
  }

  get(transactionId: string): Promise<BookingRecord | null> {
    return loadBooking(this.db, transactionId);
  }

  async updateHold(
    transactionId: string,
    update: HoldUpdate,
    now: Date,
    statuses: readonly BookingStatus[] = ['pending'],
  ): Promise<BookingRecord | null> {
    const result = await this.db
      .updateTable('bookings')
      .set({
        ...(update.duration && {
          duration_value: update.duration.value,
          duration_unit: update.duration.unit,
        }),
        ...(update.priceOriginalCents !== undefined && { price_original_cents: update.priceOriginalCents }),
        ...(update.priceDiscountedCents !== undefined && {
          price_discounted_cents: update.priceDiscountedCents,
        }),
        ...(update.feeCents !== undefined && { fee_cents: update.feeCents }),
        ...(update.totalCents !== undefined && { total_cents: update.totalCents }),
        ...(update.discountCode !== undefined && { discount_code: update.discountCode }),
        ...(update.customer && customerColumns(update.customer)),
        ...(update.note !== undefined && { note: update.note }),
        ...(update.lang !== undefined && { lang: update.lang }),
        ...(update.expiresAt !== undefined && { expires_at: update.expiresAt }),
        updated_at: now,
      })
      .where('transaction_id', '=', transactionId)
      .where('status', 'in', [...statuses])
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? loadBooking(this.db, transactionId) : null;
  }

  async transition(transactionId: string, transition: StatusTransition): Promise<BookingRecord | null> {
    // A caller asking for a move the machine forbids is a bug, whatever the booking's state.
    for (const from of transition.from) assertTransition(from, transition.to, transition.actor);
    return writeTransaction(this.db, this.dialect, async (trx) => {
      const current = await lockBookingRow(trx, this.dialect, transactionId);
      if (!current || !transition.from.includes(current.status as BookingStatus)) return null;
      const holdsLockers = isActiveBookingStatus(transition.to);
      const updated = await trx
        .updateTable('bookings')
        .set({
          status: transition.to,
          updated_at: transition.now,
          ...(!isHoldBookingStatus(transition.to) && { expires_at: null }),
          ...(transition.expiresAt && { expires_at: transition.expiresAt }),
          ...(transition.paidAt && { paid_at: transition.paidAt }),
          ...(transition.pin && { pin: transition.pin }),
          ...(transition.providerReference && { provider_reference: transition.providerReference }),
        })
        .where('transaction_id', '=', transactionId)
        .where('status', '=', current.status)
        .executeTakeFirst();
      if (Number(updated.numUpdatedRows) === 0) return null;
      await recordEvents(trx, [
        {
          transactionId,
          at: transition.now,
          from: current.status as BookingStatus,
          to: transition.to,
          actor: transition.actor,
          reason: transition.reason,
          detail: transition.detail ?? null,
        },
      ]);
      if (transition.email) {
        await enqueueBookingEmail(trx, { transactionId, kind: transition.email, now: transition.now });
      }
      if (!holdsLockers) {
        await trx
          .updateTable('booking_lockers')
          .set({ active: false })
          .where('transaction_id', '=', transactionId)
          .execute();
        await releaseDiscountClaims(trx, [transactionId]);
      }
      return loadBooking(trx, transactionId);
    });
  }

  async setPaidAt(transactionId: string, paidAt: Date): Promise<void> {
    await this.db
      .updateTable('bookings')
      .set({ paid_at: paidAt })
      .where('transaction_id', '=', transactionId)
      .execute();
  }

  async events(transactionId: string): Promise<BookingEvent[]> {
    const rows = await this.db
      .selectFrom('booking_events')
      .selectAll()
      .where('transaction_id', '=', transactionId)
      .orderBy('id')
      .execute();
    return rows.map((row) => ({
      at: toDate(row.at),
      from: row.from_status as BookingStatus,
      to: row.to_status as BookingStatus,
      actor: row.actor as BookingActor,
      reason: row.reason,
      detail: row.detail,
    }));
  }

  expirePending(now: Date): Promise<string[]> {
    return this.writeRetrying((trx) => expireStaleHolds(trx, now));
  }

  async occupancy(locationKey: string, from: Date, to: Date, now: Date): Promise<OccupancySnapshot> {
    const lockers = await this.lockerCache.get(locationKey, () => this.lockersAt(locationKey));
    const occupationRows = await this.queries.occupations.rows({ locationKey, from, to, now });
    return {
      lockers,
      occupations: occupationRows.map((row) => ({
        lockerId: row.locker_id,
        startAt: toDate(row.start_at),
        endAt: toDate(row.end_at),
        size: row.size as LockerSize,
      })),
    };
  }

  private async lockersAt(locationKey: string): Promise<readonly LockerUnit[]> {
    const rows = await this.queries.lockers.rows({ locationKey });
    // Frozen: every snapshot until the next write shares them.
    return Object.freeze(
      rows.map((row) =>
        Object.freeze({
          id: row.id,
          number: row.number,
          size: row.size as LockerSize,
          inService: toBoolean(row.in_service),
        }),
      ),
    );
  }

  async activePins(locationKey: string, now: Date): Promise<Set<string>> {
    const rows = await this.db
      .selectFrom('bookings')
      .select('pin')
      .where('location_key', '=', locationKey)
      .where('status', 'in', [...ACTIVE_BOOKING_STATUSES])
      .where('end_at', '>', now)
      .where('pin', 'is not', null)
      .execute();
    return new Set(rows.map((row) => row.pin!));
  }

  pinsInUse(locationKey: string, pins: readonly string[], now: Date): Promise<Set<string>> {
    return pinsInUse(this.db, locationKey, pins, now);
  }

  confirmLatePayment(request: LatePaymentRequest): Promise<LatePaymentResult> {
    return this.writeRetrying((trx) => confirmLateIn(trx, this.dialect, request));
  }

  moveLocker(request: LockerMoveRequest): Promise<LockerMoveResult> {
    return this.writeRetrying((trx) => moveLockerIn(trx, this.dialect, request));
  }

  /** `work` as one write transaction, run again from the start while it meets a retryable conflict. */
  private writeRetrying<T>(work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return retryingConflicts(MAX_RESERVATION_ATTEMPTS, () => writeTransaction(this.db, this.dialect, work));
  }

  async scheduledStartingBefore(locationKey: string, before: Date): Promise<BookingRecord[]> {
    const rows = await this.db
      .selectFrom('bookings')
      .select('transaction_id')
      .where('location_key', '=', locationKey)
      .where('status', '=', 'scheduled')
      .where('start_at', '<', before)
      .orderBy('start_at')
      .orderBy('transaction_id')
      .execute();
    const bookings = await Promise.all(rows.map((row) => loadBooking(this.db, row.transaction_id)));
    return bookings.filter((booking): booking is BookingRecord => booking !== null);
  }

  async countByStatus(): Promise<Record<BookingStatus, number>> {
    const rows = await this.db
      .selectFrom('bookings')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    const counts = Object.fromEntries(BOOKING_STATUSES.map((status) => [status, 0])) as Record<
      BookingStatus,
      number
    >;
    for (const row of rows) {
      if (isBookingStatus(row.status)) counts[row.status] = toCount(row.n as string | number);
    }
    return counts;
  }
}

/** What the PostgreSQL `reserve_lockers` function answers (migration 20251122180000). */
interface ReserveLockersAnswer {
  lockerIds: number[];
  lockerNumbers: number[];
  expired: string[];
  pin: string | null;
  createdAt: string;
  providerReference: string | null;
  paidAt: string | null;
}

/** SQLSTATEs `reserve_lockers` raises to refuse a reservation (its writes are undone). */
const PG_RESERVATION_UNAVAILABLE = 'DP001';
const PG_RESERVATION_HOLD_MISSING = 'DP002';
const PG_RESERVATION_PINS_TAKEN = 'DP003';

/**
 * PostgreSQL: the whole reservation in one round trip, in autocommit, so the advisory lock is held
 * only while the server runs it (see the migration for why and how it stays safe across instances).
 */
/**
 * PostgreSQL: reservations that arrive in one turn of the event loop go to PostgreSQL together, as
 * one call of `reserve_lockers_batch` (migration 20251122200000): one round trip and one commit for
 * all of them, each item still one atomic `reserve_lockers` in a subtransaction of its own. Items are
 * sent ordered by location and size, the order of the function's advisory locks. Unlike SQLite's
 * single writer, several batches may be under way at once (one per pooled connection).
 */
class PostgresReservationBatches {
  private waiting: Array<{
    request: ReservationRequest;
    resolve: (result: ReservationResult) => void;
    reject: (error: unknown) => void;
  }> = [];
  private scheduled = false;

  constructor(private readonly db: Kysely<Database>) {}

  reserve(request: ReservationRequest): Promise<ReservationResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (this.scheduled) return;
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        const waiting = this.waiting;
        this.waiting = [];
        for (let i = 0; i < waiting.length; i += MAX_GROUPED_RESERVATIONS) {
          void this.send(waiting.slice(i, i + MAX_GROUPED_RESERVATIONS));
        }
      });
    });
  }

  private async send(batch: PostgresReservationBatches['waiting']): Promise<void> {
    const ordered = [...batch].sort((a, b) => lockOrder(a.request).localeCompare(lockOrder(b.request)));
    try {
      const answers = await reserveBatchInOneStatement(
        this.db,
        ordered.map((waiter) => waiter.request),
      );
      ordered.forEach((waiter, index) => {
        const outcome = answers[index];
        if (!outcome) waiter.reject(new Error('reserve_lockers_batch answered fewer items than sent'));
        else if ('answer' in outcome) waiter.resolve(reservationFromAnswer(waiter.request, outcome.answer));
        else waiter.reject(refusalError(outcome.code, outcome.detail));
      });
    } catch (error) {
      // The whole call failed (a deadlock with the expiry job, a lost connection): every item is
      // answered with it, and reserveLockers retries the retryable ones.
      for (const waiter of ordered) waiter.reject(error);
    }
  }
}

/** The key of reserve_lockers' advisory lock, by which a batch's items are ordered. */
function lockOrder(request: ReservationRequest): string {
  return `${request.booking.locationKey}\u0000${request.booking.size}`;
}

type BatchOutcome = { answer: ReserveLockersAnswer } | { code: string; detail: string | null };

async function reserveBatchInOneStatement(
  db: Kysely<Database>,
  requests: readonly ReservationRequest[],
): Promise<BatchOutcome[]> {
  const items = requests.map((request) => ({
    booking: bookingRow(request.booking, request.now),
    maxOnline: request.maxOnline,
    now: request.now.toISOString(),
    lockerNumbers: request.lockerNumbers ? [...request.lockerNumbers] : null,
    replaceHold: request.replaceHold ?? false,
    active: isActiveBookingStatus(request.booking.status),
    pinCandidates: request.pinCandidates ? [...request.pinCandidates] : null,
  }));
  const { rows } = await sql<{ answers: BatchOutcome[] }>`select reserve_lockers_batch(
    ${JSON.stringify(items)}::jsonb, ${[...ACTIVE_BOOKING_STATUSES]}::text[]) as answers`.execute(db);
  return rows[0]!.answers;
}

/** The error reserveLockers turns into its answer: a refusal, or a conflict it retries. */
function refusalError(code: string, detail: string | null | undefined): Error {
  if (code === PG_RESERVATION_UNAVAILABLE) {
    return new ReservationRejected({ ok: false, reason: 'unavailable', available: Number(detail) });
  }
  if (code === PG_RESERVATION_HOLD_MISSING)
    return new ReservationRejected({ ok: false, reason: 'hold_missing' });
  if (code === PG_RESERVATION_PINS_TAKEN) return new ReservationRejected({ ok: false, reason: 'pins_taken' });
  return Object.assign(new Error(`reserve_lockers refused with SQLSTATE ${code}`), { code });
}

function reservationFromAnswer(request: ReservationRequest, answer: ReserveLockersAnswer): ReservationResult {
  const { booking, now } = request;
  const lockers = answer.lockerIds.map((lockerId, index) => ({
    lockerId,
    number: answer.lockerNumbers[index]!,
    active: isActiveBookingStatus(booking.status),
  }));
  return {
    ok: true,
    booking: reservedBooking({ ...booking, pin: answer.pin }, now, lockers, {
      createdAt: new Date(answer.createdAt),
      providerReference: answer.providerReference,
      paidAt: toDateOrNull(answer.paidAt),
    }),
    expired: answer.expired,
  };
}

async function pinsInUse(
  db: Kysely<Database>,
  locationKey: string,
  pins: readonly string[],
  now: Date,
): Promise<Set<string>> {
  if (pins.length === 0) return new Set();
  const rows = await pinsInUseSelect(db, locationKey, pins, now).execute();
  return new Set(rows.map((row) => row.pin!));
}

/** What a write that picks lockers for an existing booking reads of it, once its lock is held. */
type LockedBooking = Pick<BookingRow, 'status' | 'start_at' | 'end_at' | 'quantity'>;

/**
 * The first step of a write that picks lockers for an existing booking (a late payment, a move): in
 * the caller's transaction, takes the same lock as reserveLockers on the booking's location and size
 * (PostgreSQL; SQLite's write transaction is exclusive already) and expires the lapsed holds of that
 * size, this booking's own too; then reads the booking as that leaves it. Null when there is no such
 * booking.
 */
async function lockBookingsLockers(
  trx: Kysely<Database>,
  dialect: SqlDialect,
  transactionId: string,
  now: Date,
): Promise<{ locationKey: string; size: LockerSize; expired: string[]; booking: LockedBooking } | null> {
  const target = await trx
    .selectFrom('bookings')
    .select(['location_key', 'size'])
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  if (!target) return null;
  if (dialect === 'postgres') {
    const lockKey = `deposito:reserve:${target.location_key}:${target.size}`;
    await sql`select pg_advisory_xact_lock(hashtext(${lockKey}))`.execute(trx);
  }
  const size = target.size as LockerSize;
  const expired = await expireStaleHolds(trx, now, { locationKey: target.location_key, size });
  const booking = await trx
    .selectFrom('bookings')
    .select(['status', 'start_at', 'end_at', 'quantity'])
    .where('transaction_id', '=', transactionId)
    .executeTakeFirstOrThrow();
  return { locationKey: target.location_key, size, expired, booking };
}

/** Statuses a payment may still settle late: lapsed or cancelled holds (a live hold is paid on time). */
const LATE_PAYABLE_STATUSES: readonly BookingStatus[] = [...HOLD_BOOKING_STATUSES, 'expired', 'cancelled'];

async function confirmLateIn(
  trx: Kysely<Database>,
  dialect: SqlDialect,
  request: LatePaymentRequest,
): Promise<LatePaymentResult> {
  const { transactionId, now } = request;
  const target = await lockBookingsLockers(trx, dialect, transactionId, now);
  if (!target) return { outcome: 'not_late', booking: null };
  const { size, expired, booking } = target;
  if (
    isHoldBookingStatus(booking.status) ||
    !LATE_PAYABLE_STATUSES.includes(booking.status as BookingStatus)
  ) {
    return { outcome: 'not_late', booking: await loadBooking(trx, transactionId) };
  }

  const window = { startAt: toDate(booking.start_at), endAt: toDate(booking.end_at) };
  const previous = new Set(
    (
      await trx
        .selectFrom('booking_lockers')
        .select('locker_id')
        .where('transaction_id', '=', transactionId)
        .execute()
    ).map((row) => row.locker_id),
  );
  const lockers = (
    await trx
      .selectFrom('lockers')
      .select(['id', 'number', 'size', 'in_service'])
      .where('location_key', '=', target.locationKey)
      .where('size', '=', size)
      .execute()
  ).map((row) => ({ id: row.id, number: row.number, size, inService: toBoolean(row.in_service) }));
  const occupations = (
    await activeReservationsAt(trx, target.locationKey)
      .select(['bl.locker_id', 'bl.start_at', 'bl.end_at'])
      .where('l.size', '=', size)
      .where('bl.transaction_id', '!=', transactionId)
      .where('bl.start_at', '<', window.endAt)
      .where('bl.end_at', '>', window.startAt)
      .execute()
  ).map((row) => ({ lockerId: row.locker_id, startAt: toDate(row.start_at), endAt: toDate(row.end_at) }));
  // A paid booking is honoured whenever lockers are physically free (the online cap is for sales).
  const free = freeLockers(lockers, occupations, window);
  const chosen = [
    ...free.filter((locker) => previous.has(locker.id)),
    ...(request.sameLockersOnly ? [] : free.filter((locker) => !previous.has(locker.id))),
  ].slice(0, booking.quantity);
  const paid = {
    updated_at: now,
    paid_at: now,
    expires_at: null,
    ...(request.providerReference && { provider_reference: request.providerReference }),
  };

  const event = {
    transactionId,
    at: now,
    from: booking.status as BookingStatus,
    actor: 'provider' as const,
    detail: request.providerReference,
  };
  if (chosen.length < booking.quantity) {
    await trx
      .updateTable('bookings')
      .set({ ...paid, status: 'failed_after_payment' })
      .where('transaction_id', '=', transactionId)
      .execute();
    await recordEvents(trx, [{ ...event, to: 'failed_after_payment', reason: 'paid_no_lockers' }]);
    await enqueueBookingEmail(trx, { transactionId, kind: 'refund', now });
    await trx
      .updateTable('booking_lockers')
      .set({ active: false })
      .where('transaction_id', '=', transactionId)
      .execute();
    return { outcome: 'failed_after_payment', booking: (await loadBooking(trx, transactionId))!, expired };
  }
  await trx.deleteFrom('booking_lockers').where('transaction_id', '=', transactionId).execute();
  await trx
    .insertInto('booking_lockers')
    .values(
      chosen.map((locker) => ({
        transaction_id: transactionId,
        locker_id: locker.id,
        start_at: window.startAt,
        end_at: window.endAt,
        active: true,
      })),
    )
    .execute();
  await trx
    .updateTable('bookings')
    .set({ ...paid, status: 'confirmed_late', pin: request.pin })
    .where('transaction_id', '=', transactionId)
    .execute();
  await recordEvents(trx, [{ ...event, to: 'confirmed_late', reason: 'paid_late' }]);
  await enqueueBookingEmail(trx, { transactionId, kind: request.email ?? 'confirmation', now });
  return { outcome: 'confirmed_late', booking: (await loadBooking(trx, transactionId))!, expired };
}

/** Paid bookings whose lockers an operator may move: holding them now or later in the day. */
const MOVABLE_STATUSES: readonly BookingStatus[] = HANDED_OVER_BOOKING_STATUSES;

async function moveLockerIn(
  trx: Kysely<Database>,
  dialect: SqlDialect,
  request: LockerMoveRequest,
): Promise<LockerMoveResult> {
  const { transactionId, now } = request;
  const target = await lockBookingsLockers(trx, dialect, transactionId, now);
  if (!target) return { ok: false, reason: 'not_found' };
  const { size, expired, booking } = target;
  const endAt = toDate(booking.end_at);
  if (!MOVABLE_STATUSES.includes(booking.status as BookingStatus) || endAt <= now) {
    return { ok: false, reason: 'invalid_state' };
  }
  const lockerRows = await trx
    .selectFrom('lockers')
    .select(['id', 'number', 'in_service'])
    .where('location_key', '=', target.locationKey)
    .where('size', '=', size)
    .where('number', 'in', [request.fromNumber, request.toNumber])
    .execute();
  const from = lockerRows.find((row) => row.number === request.fromNumber);
  const to = lockerRows.find((row) => row.number === request.toNumber);
  const held = from
    ? await trx
        .selectFrom('booking_lockers')
        .select('locker_id')
        .where('transaction_id', '=', transactionId)
        .where('locker_id', '=', from.id)
        .where('active', '=', true)
        .executeTakeFirst()
    : undefined;
  if (!held) return { ok: false, reason: 'not_its_locker' };
  if (!to || to.id === from!.id) return { ok: false, reason: 'no_such_locker' };
  // From now on for a booking under way: the new locker need only be free for what is left of it,
  // and the locker's reservations never overlap (availability relies on it).
  const startAt = new Date(Math.max(toDate(booking.start_at).getTime(), now.getTime()));
  const clash = await trx
    .selectFrom('booking_lockers')
    .select('transaction_id')
    .where('locker_id', '=', to.id)
    .where('active', '=', true)
    .where('start_at', '<', endAt)
    .where('end_at', '>', startAt)
    .executeTakeFirst();
  if (!toBoolean(to.in_service) || clash) return { ok: false, reason: 'taken' };

  await trx
    .deleteFrom('booking_lockers')
    .where('transaction_id', '=', transactionId)
    .where('locker_id', '=', from!.id)
    .execute();
  await trx
    .insertInto('booking_lockers')
    .values({
      transaction_id: transactionId,
      locker_id: to.id,
      start_at: startAt,
      end_at: endAt,
      active: true,
    })
    .execute();
  await trx
    .updateTable('bookings')
    .set({ updated_at: now })
    .where('transaction_id', '=', transactionId)
    .execute();
  const status = booking.status as BookingStatus;
  await recordEvents(trx, [
    {
      transactionId,
      at: now,
      from: status,
      to: status,
      actor: request.actor,
      reason: 'operator_moved_locker',
      detail: `locker ${request.fromNumber} → ${request.toNumber}: ${request.detail}`,
    },
  ]);
  return { ok: true, booking: (await loadBooking(trx, transactionId))!, expired };
}

/**
 * A lower bound for the start of any active reservation of the locker that overlaps a period from
 * `from` on: the latest active start at or before `from` (a locker's active reservations never
 * overlap, so earlier ones end before it). With it the index on (locker_id, active, start_at) reads
 * only the period's rows; `end_at > from` alone read every later booking of the locker, which made
 * the availability call slow down as future bookings accumulated (availability-latency benchmark).
 */
/** Marks lapsed holds expired, frees their lockers and discount claims, in the caller's transaction. */
async function expireStaleHolds(
  trx: Kysely<Database>,
  now: Date,
  scope?: { locationKey: string; size: LockerSize },
): Promise<string[]> {
  const lapsed = await holdsToExpire(trx, now, scope).execute();
  if (lapsed.length === 0) return [];
  for (const write of lapsedHoldsExpiry(trx, lapsed, now)) await trx.executeQuery(write);
  return lapsed.map((row) => row.transaction_id);
}

/** The booking's status, its row locked until the transaction ends (PostgreSQL; SQLite's writers are serial). */
async function lockBookingRow(
  trx: Kysely<Database>,
  dialect: SqlDialect,
  transactionId: string,
): Promise<{ status: string } | undefined> {
  const query = trx.selectFrom('bookings').select('status').where('transaction_id', '=', transactionId);
  return (dialect === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
}

/** Writes moves of bookings in the caller's transaction, so a move and its record stand or fall together. */
async function recordEvents(trx: Kysely<Database>, events: ReadonlyArray<BookingEventRow>): Promise<void> {
  if (events.length === 0) return;
  await trx.executeQuery(bookingEventsInsert(trx, events));
}

/** A single-use code claimed by an unpaid booking becomes usable again when that booking ends unpaid. */
async function releaseDiscountClaims(trx: Kysely<Database>, transactionIds: string[]): Promise<void> {
  await trx.executeQuery(discountClaimsRelease(trx, transactionIds));
}

async function loadBooking(db: Kysely<Database>, transactionId: string): Promise<BookingRecord | null> {
  const row = await db
    .selectFrom('bookings')
    .selectAll()
    .where('transaction_id', '=', transactionId)
    .executeTakeFirst();
  if (!row) return null;
  const lockers = await db
    .selectFrom('booking_lockers as bl')
    .innerJoin('lockers as l', 'l.id', 'bl.locker_id')
    .select(['bl.locker_id', 'l.number', 'bl.active'])
    .where('bl.transaction_id', '=', transactionId)
    .orderBy('l.number')
    .execute();
  return toBooking(
    row,
    lockers.map((l) => ({ lockerId: l.locker_id, number: l.number, active: toBoolean(l.active) })),
  );
}

function toBooking(row: BookingRow, lockers: ReservedLocker[]): BookingRecord {
  return {
    transactionId: row.transaction_id,
    locationKey: row.location_key,
    status: row.status as BookingStatus,
    startAt: toDate(row.start_at),
    endAt: toDate(row.end_at),
    size: row.size as LockerSize,
    quantity: row.quantity,
    duration: { value: row.duration_value, unit: row.duration_unit as Duration['unit'] },
    priceOriginalCents: row.price_original_cents,
    priceDiscountedCents: row.price_discounted_cents,
    feeCents: row.fee_cents,
    totalCents: row.total_cents,
    discountCode: row.discount_code,
    customer: {
      firstName: row.first_name,
      lastName: row.last_name,
      email: row.email,
      phonePrefix: row.phone_prefix,
      phoneNumber: row.phone_number,
    },
    note: row.note,
    lang: row.lang as Language,
    pin: row.pin,
    providerReference: row.provider_reference,
    createdAt: toDate(row.created_at),
    updatedAt: toDate(row.updated_at),
    expiresAt: toDateOrNull(row.expires_at),
    paidAt: toDateOrNull(row.paid_at),
    lockers,
  };
}
