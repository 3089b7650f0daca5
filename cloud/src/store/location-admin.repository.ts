import type { Kysely } from 'kysely';
import type { LockerSize } from '@deposito/protocol';
import type { Database } from './database';
import { isStale, toEditStamp, type StaleEdit } from './edit-stamp';
import { locationColumns, type LocationChanges, type LocationRecord } from './location.repository';
import type { SqlDialect } from './migrate';
import { ReadCache } from './read-cache';
import { toCount } from './values';
import { writeTransaction } from './write-transaction';

export type DeleteLocationResult = 'deleted' | 'not_found' | 'has_bookings';

/** The outcome of setting a location's lockers; `busy` lists numbers that could not change. */
export type ReplaceLockersResult =
  | { ok: true; added: number; removed: number; resized: number }
  | { ok: false; reason: 'not_found' }
  | { ok: false; reason: 'busy'; lockers: number[] };

/** One location of an operator's save: the fields it changed and the version its page read. */
export interface LocationEdit {
  key: string;
  changes: LocationChanges;
  /** Undefined: a client that sends no version (the spec's payloads); not checked. */
  expectedVersion: number | undefined;
}

/** The outcome of an operator's save of some locations; on a refusal nothing changed. */
export type EditLocationsResult =
  { ok: true } | { ok: false; reason: 'not_found'; keys: string[] } | (StaleEdit & { key: string });

export interface LocationAdminRepository {
  /**
   * Writes an operator's changes to the listed locations, and only to those rows and fields, in one
   * transaction: every version is checked first (all or nothing), then each row's version rises and
   * `updated_by` names the operator. An empty `changes` only checks and raises the version (the
   * location's lockers changed).
   */
  edit(edits: readonly LocationEdit[], actor: string, now: Date): Promise<EditLocationsResult>;
  /** Deletes a location and its lockers; refused while any booking refers to it. */
  delete(key: string): Promise<DeleteLocationResult>;
  /**
   * Makes the location's lockers exactly `lockers`: new numbers are added, missing ones removed and
   * a changed size updated. A locker a booking still holds after `now` is never removed or resized:
   * then nothing changes and the busy numbers are reported.
   */
  replaceLockers(
    key: string,
    lockers: ReadonlyArray<{ number: number; size: LockerSize }>,
    now: Date,
  ): Promise<ReplaceLockersResult>;
}

export class KyselyLocationAdminRepository implements LocationAdminRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: SqlDialect,
    /** The location repository's read cache: a deleted location must not be served from it. */
    private readonly locationCache: ReadCache<LocationRecord | null> = new ReadCache(),
  ) {}

  async edit(edits: readonly LocationEdit[], actor: string, now: Date): Promise<EditLocationsResult> {
    const keys = edits.map((e) => e.key);
    const result = await writeTransaction(
      this.db,
      this.dialect,
      async (trx): Promise<EditLocationsResult> => {
        let query = trx
          .selectFrom('locations')
          .select(['key', 'version', 'updated_by', 'updated_at'])
          .where('key', 'in', keys);
        if (this.dialect === 'postgres') query = query.orderBy('key').forUpdate();
        const rows = new Map((await query.execute()).map((row) => [row.key, row]));
        const missing = keys.filter((key) => !rows.has(key));
        if (missing.length > 0) return { ok: false, reason: 'not_found', keys: missing };
        for (const edit of edits) {
          const row = rows.get(edit.key)!;
          if (isStale({ actor, expectedVersion: edit.expectedVersion }, row)) {
            return { ok: false, reason: 'stale', key: edit.key, current: toEditStamp(row) };
          }
        }
        for (const edit of edits) {
          await trx
            .updateTable('locations')
            .set((eb) => ({
              ...locationColumns(edit.changes),
              version: eb('version', '+', 1),
              updated_by: actor,
              updated_at: now,
            }))
            .where('key', '=', edit.key)
            .execute();
        }
        return { ok: true };
      },
    );
    for (const key of keys) this.locationCache.invalidate(key);
    return result;
  }

  async delete(key: string): Promise<DeleteLocationResult> {
    const outcome = await writeTransaction(this.db, this.dialect, async (trx) => {
      const exists = await trx
        .selectFrom('locations')
        .select('key')
        .where('key', '=', key)
        .executeTakeFirst();
      if (!exists) return 'not_found';
      const bookings = await trx
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('location_key', '=', key)
        .executeTakeFirstOrThrow();
      if (toCount(bookings.n as string | number) > 0) return 'has_bookings';
      await trx.deleteFrom('lockers').where('location_key', '=', key).execute();
      await trx.deleteFrom('locations').where('key', '=', key).execute();
      return 'deleted' as const;
    });
    if (outcome === 'deleted') this.locationCache.invalidate(key);
    return outcome;
  }

  async replaceLockers(
    key: string,
    lockers: ReadonlyArray<{ number: number; size: LockerSize }>,
    now: Date,
  ): Promise<ReplaceLockersResult> {
    return writeTransaction(this.db, this.dialect, async (trx): Promise<ReplaceLockersResult> => {
      const exists = await trx
        .selectFrom('locations')
        .select('key')
        .where('key', '=', key)
        .executeTakeFirst();
      if (!exists) return { ok: false, reason: 'not_found' };
      const wanted = new Map(lockers.map((l) => [l.number, l.size]));
      const current = await trx
        .selectFrom('lockers')
        .select(['id', 'number', 'size'])
        .where('location_key', '=', key)
        .execute();
      const removed = current.filter((l) => !wanted.has(l.number));
      const resized = current.filter((l) => wanted.has(l.number) && wanted.get(l.number) !== l.size);
      const changing = [...removed, ...resized];
      if (changing.length > 0) {
        const held = await trx
          .selectFrom('booking_lockers')
          .select('locker_id')
          .distinct()
          .where(
            'locker_id',
            'in',
            changing.map((l) => l.id),
          )
          .where('active', '=', true)
          .where('end_at', '>', now)
          .execute();
        if (held.length > 0) {
          const heldIds = new Set(held.map((row) => row.locker_id));
          return {
            ok: false,
            reason: 'busy',
            lockers: changing
              .filter((l) => heldIds.has(l.id))
              .map((l) => l.number)
              .sort((a, b) => a - b),
          };
        }
      }
      if (removed.length > 0) {
        await trx
          .deleteFrom('lockers')
          .where(
            'id',
            'in',
            removed.map((l) => l.id),
          )
          .execute();
      }
      for (const locker of resized) {
        await trx
          .updateTable('lockers')
          .set({ size: wanted.get(locker.number)! })
          .where('id', '=', locker.id)
          .execute();
      }
      const known = new Set(current.map((l) => l.number));
      const added = lockers.filter((l) => !known.has(l.number));
      if (added.length > 0) {
        await trx
          .insertInto('lockers')
          .values(added.map((l) => ({ location_key: key, number: l.number, size: l.size, in_service: true })))
          .execute();
      }
      return { ok: true, added: added.length, removed: removed.length, resized: resized.length };
    });
  }
}
