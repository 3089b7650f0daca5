import type { Kysely } from 'kysely';
import {
  ONLINE_TAKINGS_STATUSES,
  type BookingStatus,
  type TakingsBooking,
  type TakingsRefund,
} from '@deposito/protocol';
import type { Database } from './database';
import { toDate } from './values';

/** Rows of the given locations in `[fromUtc, toUtc)`. */
export type TakingsQuery<Row> = (
  locationKeys: readonly string[],
  fromUtc: Date,
  toUtc: Date,
) => Promise<Row[]>;

export interface TakingsRepository {
  /**
   * The bookings that count as online takings (paid and kept: `countsAsOnlineTakings`) created at the given
   * locations in `[fromUtc, toUtc)`, one row per transaction, oldest first. Operators' test bookings
   * are never among them.
   */
  onlineTakingsCreatedBetween: TakingsQuery<TakingsBooking>;
  /**
   * Operators' test bookings that would otherwise count as online takings, chosen like
   * `onlineTakingsCreatedBetween`, each with `isTest: true`: what the takings show apart.
   */
  testBookingsCreatedBetween: TakingsQuery<TakingsBooking>;
  /**
   * The refunds made (a booking moved to `refunded`) at the given locations in `[fromUtc, toUtc)`,
   * by when they were made, each for the booking's discounted price (what its payment added to the
   * takings). Test bookings' refunds are not among them.
   */
  refundsMadeBetween: TakingsQuery<TakingsRefund>;
}

export class KyselyTakingsRepository implements TakingsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  readonly onlineTakingsCreatedBetween: TakingsQuery<TakingsBooking> = (locationKeys, fromUtc, toUtc) =>
    this.paidKeptCreatedBetween(locationKeys, fromUtc, toUtc, false);

  readonly testBookingsCreatedBetween: TakingsQuery<TakingsBooking> = (locationKeys, fromUtc, toUtc) =>
    this.paidKeptCreatedBetween(locationKeys, fromUtc, toUtc, true);

  private async paidKeptCreatedBetween(
    locationKeys: readonly string[],
    fromUtc: Date,
    toUtc: Date,
    tests: boolean,
  ): Promise<TakingsBooking[]> {
    if (locationKeys.length === 0) return [];
    // bookings_location_created_idx answers this; the bookings table has one row per transaction.
    const rows = await this.db
      .selectFrom('bookings')
      .select(['transaction_id', 'location_key', 'status', 'created_at', 'price_discounted_cents', 'paid_at'])
      .where('location_key', 'in', [...locationKeys])
      .where((eb) =>
        eb.or([
          eb('status', 'in', [...ONLINE_TAKINGS_STATUSES]),
          // Paid, then cancelled by an operator without a refund: the money was kept.
          eb.and([eb('status', '=', 'cancelled_by_operator'), eb('paid_at', 'is not', null)]),
          // Paid, then cancelled with a refund: the payment counts on its day, the refund on its own.
          eb.and([eb('status', 'in', ['refund_due', 'refunded']), eb('paid_at', 'is not', null)]),
        ]),
      )
      .where('is_test', '=', tests)
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
      ...(row.status === 'cancelled_by_operator' ? { paidKept: true } : {}),
      ...(row.status === 'refund_due' || row.status === 'refunded' ? { paidThenRefunded: true } : {}),
      ...(tests ? { isTest: true } : {}),
    }));
  }

  readonly refundsMadeBetween: TakingsQuery<TakingsRefund> = async (locationKeys, fromUtc, toUtc) => {
    if (locationKeys.length === 0) return [];
    // booking_events_refunded_idx answers this: refunds are few among the events.
    const rows = await this.db
      .selectFrom('booking_events as e')
      .innerJoin('bookings as b', 'b.transaction_id', 'e.transaction_id')
      .select(['e.transaction_id', 'e.at', 'b.location_key', 'b.price_discounted_cents'])
      .where('e.to_status', '=', 'refunded')
      .where('e.at', '>=', fromUtc)
      .where('e.at', '<', toUtc)
      .where('b.location_key', 'in', [...locationKeys])
      .where('b.is_test', '=', false)
      .where('b.paid_at', 'is not', null)
      .orderBy('e.at')
      .orderBy('e.id')
      .execute();
    return rows.map((row) => ({
      transactionId: row.transaction_id,
      locationKey: row.location_key,
      refundedAt: toDate(row.at).toISOString(),
      amountCents: row.price_discounted_cents ?? 0,
    }));
  };
}
