import { CompiledQuery, type Kysely } from 'kysely';
import { isActiveBookingStatus, type LockerSize } from '@deposito/protocol';
import { sellableLockers } from '@deposito/protocol/booking/locker-availability';
import { lapsedHoldsExpiry, type BookingQueries } from './booking-queries';
import type { Database } from './database';
import {
  bookingRow,
  MAX_GROUPED_RESERVATIONS,
  ReservationRejected,
  reservedBooking,
  type BookingRecord,
  type ReservationRequest,
  type ReservationResult,
} from './reservation-records';
import type { SqliteSync } from './sqlite-database';
import { toBoolean, toDate, toDateOrNull } from './values';
import { writeTransaction } from './write-transaction';

const SAVEPOINT = CompiledQuery.raw('savepoint reservation');
const ROLLBACK_TO_SAVEPOINT = CompiledQuery.raw('rollback to reservation');
const RELEASE_SAVEPOINT = CompiledQuery.raw('release reservation');

/**
 * SQLite: reservations that arrive while one is being written share the next immediate transaction,
 * each in a savepoint of its own, and so one commit. The commit (the WAL write) cost more than all
 * of a reservation's statements (reservation-sqlite benchmark); each caller still gets its answer only
 * once its rows are committed, a refused one undoes only its own savepoint, and the reservations
 * run one after another, each seeing the ones before, exactly as separate transactions would.
 *
 * Inside the transaction (begun and committed through Kysely, which counts them as writes for the
 * store's write version) every reservation runs synchronously on the handle, with the same compiled
 * statements: going through Kysely's asynchronous execution statement by statement cost more CPU
 * than SQLite itself (a profile of the cloud under the benchmark's HTTP load). Kysely's connection is
 * held meanwhile, so no other query can run on the handle between them.
 */
export class SqliteReservationGroups {
  private readonly waiting: Array<{
    request: ReservationRequest;
    resolve: (result: ReservationResult) => void;
    reject: (error: unknown) => void;
  }> = [];
  private writing = false;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly queries: BookingQueries,
    private readonly sqlite: SqliteSync,
  ) {}

  reserve(request: ReservationRequest): Promise<ReservationResult> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ request, resolve, reject });
      if (this.writing) return;
      this.writing = true;
      // Starts after the requests already read in this turn of the event loop have queued theirs:
      // under load they then share one commit instead of each paying its own.
      setImmediate(() => void this.writeWaiting());
    });
  }

  private async writeWaiting(): Promise<void> {
    while (this.waiting.length > 0) {
      const group = this.waiting.splice(0, MAX_GROUPED_RESERVATIONS);
      try {
        const outcomes = await writeTransaction(this.db, 'sqlite', async () =>
          group.map(({ request }) => this.reserveInSavepoint(request)),
        );
        outcomes.forEach((outcome, index) => {
          if ('result' in outcome) group[index]!.resolve(outcome.result);
          else group[index]!.reject(outcome.error);
        });
      } catch (error) {
        for (const waiter of group) waiter.reject(error);
      }
    }
    this.writing = false;
  }

  private reserveInSavepoint(
    request: ReservationRequest,
  ): { result: ReservationResult } | { error: unknown } {
    this.sqlite.all(SAVEPOINT);
    try {
      return { result: reserveNow(this.db, this.sqlite, this.queries, request) };
    } catch (error) {
      this.sqlite.all(ROLLBACK_TO_SAVEPOINT);
      return { error };
    } finally {
      this.sqlite.all(RELEASE_SAVEPOINT);
    }
  }
}

/** One reservation, in the group's transaction (see SqliteReservationGroups), which serialises every writer. */
function reserveNow(
  db: Kysely<Database>,
  sqlite: SqliteSync,
  queries: BookingQueries,
  request: ReservationRequest,
): ReservationResult {
  const { now } = request;
  let booking = request.booking;
  const window = { startAt: booking.startAt, endAt: booking.endAt };
  const scope = { locationKey: booking.locationKey, size: booking.size };
  const expired = expireLapsedHolds(db, sqlite, queries, { ...scope, now });

  if (request.replaceHold) {
    const [hold] = sqlite.all(queries.holdToReplace.withValues({ transactionId: booking.transactionId }));
    // Only a hold still open to changes (not one whose payment page is open) may be moved.
    if (!hold || hold.status !== 'pending' || hold.location_key !== booking.locationKey) {
      throw new ReservationRejected({ ok: false, reason: 'hold_missing' });
    }
    sqlite.all(queries.deleteBookingLockers.withValues({ transactionId: booking.transactionId }));
  }

  const lockers = sqlite.all(queries.lockersOfSize.withValues(scope)).map((row) => ({
    id: row.id,
    number: row.number,
    size: row.size as LockerSize,
    inService: toBoolean(row.in_service),
  }));
  const occupations = sqlite
    .all(queries.occupationsOfSize.withValues({ ...scope, from: window.startAt, to: window.endAt }))
    .map((row) => ({ lockerId: row.locker_id, startAt: toDate(row.start_at), endAt: toDate(row.end_at) }));

  const sellable = sellableLockers({ lockers, occupations, window, maxOnline: request.maxOnline });
  const chosen = request.lockerNumbers
    ? sellable.filter((locker) => request.lockerNumbers!.includes(locker.number))
    : sellable.slice(0, booking.quantity);
  const wanted = request.lockerNumbers ? request.lockerNumbers.length : booking.quantity;
  if (chosen.length < wanted) {
    throw new ReservationRejected({ ok: false, reason: 'unavailable', available: sellable.length });
  }
  if (request.pinCandidates) {
    const candidates = request.pinCandidates;
    const taken = new Set(
      candidates.length === 0
        ? []
        : sqlite.all(queries.pinsInUseQuery(booking.locationKey, candidates, now)).map((row) => row.pin),
    );
    const pin = candidates.find((candidate) => !taken.has(candidate));
    if (pin === undefined) throw new ReservationRejected({ ok: false, reason: 'pins_taken' });
    booking = { ...booking, pin };
  }

  const row = bookingRow(booking, now);
  let kept: Pick<BookingRecord, 'createdAt' | 'providerReference' | 'paidAt'> = {
    createdAt: now,
    providerReference: null,
    paidAt: null,
  };
  if (request.replaceHold) {
    const { transaction_id: _id, created_at: _created, ...fields } = row;
    const [updated] = sqlite.all(queries.replaceHoldQuery(booking.transactionId, fields));
    if (!updated) throw new Error(`Hold ${booking.transactionId} vanished while it was replaced`);
    kept = {
      createdAt: toDate(updated.created_at),
      providerReference: updated.provider_reference,
      paidAt: toDateOrNull(updated.paid_at),
    };
  } else {
    sqlite.all(queries.insertBookingQuery(row));
  }
  const active = isActiveBookingStatus(booking.status);
  for (const locker of chosen) {
    sqlite.all(
      queries.insertBookingLocker.withValues({
        transactionId: booking.transactionId,
        lockerId: locker.id,
        startAt: window.startAt,
        endAt: window.endAt,
        active,
      }),
    );
  }
  // Built from what was written rather than read back (two queries per hold).
  const reserved = chosen.map((locker) => ({ lockerId: locker.id, number: locker.number, active }));
  return { ok: true, booking: reservedBooking(booking, now, reserved, kept), expired };
}

/** Marks the lapsed holds of the location and size expired (as the repository's expiry does); their ids. */
function expireLapsedHolds(
  db: Kysely<Database>,
  sqlite: SqliteSync,
  queries: BookingQueries,
  scope: { locationKey: string; size: LockerSize; now: Date },
): string[] {
  const lapsed = sqlite.all(queries.lapsedHoldsOfSize.withValues(scope));
  if (lapsed.length === 0) return [];
  for (const write of lapsedHoldsExpiry(db, lapsed, scope.now)) sqlite.all(write.compile());
  return lapsed.map((row) => row.transaction_id);
}
