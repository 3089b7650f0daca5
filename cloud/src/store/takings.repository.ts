import type { Kysely } from 'kysely';
import { ONLINE_TAKINGS_STATUSES, type BookingStatus, type TakingsBooking } from '@deposito/protocol';
import type { Database } from './database';
import { toDate } from './values';

export interface TakingsRepository {
  /**
   * The bookings that count as online takings (confirmed or scheduled) created at the given
   * locations in `[fromUtc, toUtc)`, one row per transaction, oldest first.
   */
  onlineTakingsCreatedBetween(
    locationKeys: readonly string[],
    fromUtc: Date,
    toUtc: Date,
  ): Promise<TakingsBooking[]>;
}

export class KyselyTakingsRepository implements TakingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async onlineTakingsCreatedBetween(
    locationKeys: readonly string[],
    fromUtc: Date,
    toUtc: Date,
  ): Promise<TakingsBooking[]> {
    if (locationKeys.length === 0) return [];
    // bookings_location_created_idx answers this; the bookings table has one row per transaction.
    const rows = await this.db
      .selectFrom('bookings')
      .select(['transaction_id', 'location_key', 'status', 'created_at', 'price_discounted_cents'])
      .where('location_key', 'in', [...locationKeys])
      .where('status', 'in', [...ONLINE_TAKINGS_STATUSES])
      .where('created_at', '>=', fromUtc)
      .where('created_at', '<', toUtc)
      .orderBy('created_at')
      .orderBy('transaction_id')
      .execute();
    return rows.map((row) => ({
      transactionId: row.transaction_id,
      locationKey: row.location_key,
      status: row.status as BookingStatus,
      createdAt: toDate(row.created_at).toISOString(),
      priceDiscountedCents: row.price_discounted_cents,
    }));
  }
}
