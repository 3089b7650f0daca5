import type { Kysely } from 'kysely';
import { ACTIVE_BOOKING_STATUSES } from '@deposito/protocol';
import type { Database } from './database';
import { toDate } from './values';

/** Which stay each extension belongs to (its first booking), and who else wants its lockers next. */
export interface BookingExtensionRepository {
  /** Ties the extension booking to its stay. */
  add(link: { transactionId: string; stayId: string; createdAt: Date }): Promise<void>;
  /** The stay an extension belongs to; null for a booking that extends nothing. */
  stayOf(transactionId: string): Promise<string | null>;
  /** The stay's extension bookings, in the order they were made. */
  ofStay(stayId: string): Promise<string[]>;
  /**
   * The earliest instant from `from` at which another booking (a hold or a paid one, other than
   * `except`) occupies one of the lockers; null when they are free from `from` on.
   */
  nextOccupied(lockerIds: readonly number[], from: Date, except: readonly string[]): Promise<Date | null>;
}

export class KyselyBookingExtensionRepository implements BookingExtensionRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async add(link: { transactionId: string; stayId: string; createdAt: Date }): Promise<void> {
    await this.db
      .insertInto('booking_extensions')
      .values({ transaction_id: link.transactionId, stay_id: link.stayId, created_at: link.createdAt })
      .execute();
  }

  async stayOf(transactionId: string): Promise<string | null> {
    const row = await this.db
      .selectFrom('booking_extensions')
      .select('stay_id')
      .where('transaction_id', '=', transactionId)
      .executeTakeFirst();
    return row?.stay_id ?? null;
  }

  async ofStay(stayId: string): Promise<string[]> {
    const rows = await this.db
      .selectFrom('booking_extensions')
      .select('transaction_id')
      .where('stay_id', '=', stayId)
      .orderBy('created_at')
      .orderBy('transaction_id')
      .execute();
    return rows.map((row) => row.transaction_id);
  }

  async nextOccupied(
    lockerIds: readonly number[],
    from: Date,
    except: readonly string[],
  ): Promise<Date | null> {
    if (lockerIds.length === 0) return null;
    let query = this.db
      .selectFrom('booking_lockers as bl')
      .innerJoin('bookings as b', 'b.transaction_id', 'bl.transaction_id')
      .select('bl.start_at')
      .where('bl.locker_id', 'in', [...lockerIds])
      .where('bl.active', '=', true)
      .where('b.status', 'in', [...ACTIVE_BOOKING_STATUSES])
      .where('bl.end_at', '>', from);
    if (except.length > 0) query = query.where('bl.transaction_id', 'not in', [...except]);
    const row = await query.orderBy('bl.start_at').limit(1).executeTakeFirst();
    if (!row) return null;
    const start = toDate(row.start_at);
    return start > from ? start : from;
  }
}
