import type { Kysely } from 'kysely';
import type { LockerSize } from '@deposito/protocol';
import type { Database } from './database';
import type { LocationRecord } from './location.repository';
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

export interface LocationAdminRepository {
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
