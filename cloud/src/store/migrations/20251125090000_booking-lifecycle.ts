import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns } from '../migration-schema';

// One life for every booking (protocol/src/booking/status.ts). Every move between statuses is
// recorded in `booking_events` with who made it, when and why, in the transaction that makes it.
// Unpaid holds now have three statuses (pending, paying once a payment page is open, and
// payment_declined), all of which lapse at `expires_at`: PostgreSQL's reserve_lockers (migration
// 20251122190000, otherwise unchanged) expires all three, records their expiry, and the partial
// index that serves it covers all three.

/** reserve_lockers of migration 20251122190000, expiring and recording every kind of unpaid hold. */
const REPLACE_RESERVE_LOCKERS = sql`
    CREATE OR REPLACE FUNCTION reserve_lockers(
      p_booking jsonb,
      p_max_online integer,
      p_now timestamptz,
      p_locker_numbers integer[],
      p_replace_hold boolean,
      p_active boolean,
      p_pin_candidates text[],
      p_active_statuses text[]
    ) RETURNS jsonb
    LANGUAGE plpgsql VOLATILE AS $fn$
    DECLARE
      b bookings%ROWTYPE;
      v_window tstzrange;
      v_expired text[];
      v_hold record;
      v_peak integer;
      v_sellable_ids integer[];
      v_sellable_numbers integer[];
      v_ids integer[];
      v_numbers integer[];
      v_wanted integer;
      v_created_at timestamptz;
      v_provider_reference text;
      v_paid_at timestamptz;
      v_pin text;
      v_candidate text;
      v_busy integer[];
    BEGIN
      b := jsonb_populate_record(NULL::bookings, p_booking);
      v_window := tstzrange(b.start_at, b.end_at);
      -- The key reserveLockers and confirmLatePayment have always used.
      PERFORM pg_advisory_xact_lock(hashtext('deposito:reserve:' || b.location_key || ':' || b.size));

      WITH lapsing AS (
        SELECT transaction_id, status FROM bookings
        WHERE status IN ('pending', 'paying', 'payment_declined') AND expires_at <= p_now
          AND location_key = b.location_key AND size = b.size
        FOR UPDATE
      ), lapsed AS (
        UPDATE bookings SET status = 'expired', updated_at = p_now, expires_at = NULL
        FROM lapsing WHERE bookings.transaction_id = lapsing.transaction_id
        RETURNING bookings.transaction_id, lapsing.status AS from_status
      ), recorded AS (
        INSERT INTO booking_events (transaction_id, at, from_status, to_status, actor, reason)
        SELECT transaction_id, p_now, from_status, 'expired', 'system', 'hold_lapsed' FROM lapsed
      )
      SELECT coalesce(array_agg(transaction_id), '{}') INTO v_expired FROM lapsed;
      IF cardinality(v_expired) > 0 THEN
        UPDATE booking_lockers SET active = false WHERE transaction_id = ANY (v_expired);
        UPDATE discounts SET used_at = NULL, used_by = NULL WHERE used_by = ANY (v_expired);
      END IF;

      IF p_replace_hold THEN
        SELECT status, location_key INTO v_hold FROM bookings WHERE transaction_id = b.transaction_id;
        IF NOT FOUND OR v_hold.status <> 'pending' OR v_hold.location_key <> b.location_key THEN
          RAISE EXCEPTION 'hold_missing' USING ERRCODE = 'DP002';
        END IF;
        DELETE FROM booking_lockers WHERE transaction_id = b.transaction_id;
      END IF;

      -- The reservations of this size overlapping the window: the lockers they keep busy, and the
      -- most in force at one instant (reached at some reservation's clamped start; half-open ranges).
      WITH held AS (
        SELECT bl.locker_id, greatest(bl.start_at, b.start_at) AS s, least(bl.end_at, b.end_at) AS e
        FROM lockers l JOIN booking_lockers bl ON bl.locker_id = l.id
        WHERE l.location_key = b.location_key AND l.size = b.size AND bl.active
          AND tstzrange(bl.start_at, bl.end_at) && v_window
      )
      SELECT coalesce(max((SELECT count(*) FROM held h2 WHERE h2.s <= h1.s AND h1.s < h2.e)), 0),
        coalesce(array_agg(DISTINCT h1.locker_id), '{}')
      INTO v_peak, v_busy FROM held h1;

      SELECT coalesce(array_agg(id ORDER BY number), '{}'), coalesce(array_agg(number ORDER BY number), '{}')
      INTO v_sellable_ids, v_sellable_numbers
      FROM (
        SELECT l.id, l.number FROM lockers l
        WHERE l.location_key = b.location_key AND l.size = b.size AND l.in_service AND l.id <> ALL (v_busy)
        ORDER BY l.number
        LIMIT greatest(0, p_max_online - v_peak)
      ) sellable;

      IF p_locker_numbers IS NULL THEN
        v_wanted := b.quantity;
        v_ids := v_sellable_ids[1:b.quantity];
        v_numbers := v_sellable_numbers[1:b.quantity];
      ELSE
        v_wanted := cardinality(p_locker_numbers);
        SELECT coalesce(array_agg(id ORDER BY number), '{}'), coalesce(array_agg(number ORDER BY number), '{}')
        INTO v_ids, v_numbers
        FROM unnest(v_sellable_ids, v_sellable_numbers) AS s(id, number)
        WHERE number = ANY (p_locker_numbers);
      END IF;
      IF cardinality(v_ids) < v_wanted THEN
        RAISE EXCEPTION 'unavailable' USING ERRCODE = 'DP001', DETAIL = cardinality(v_sellable_ids)::text;
      END IF;

      IF p_pin_candidates IS NOT NULL THEN
        -- One equality search of (location_key, pin) per candidate; usually the first is free.
        FOREACH v_candidate IN ARRAY p_pin_candidates LOOP
          PERFORM 1 FROM bookings
          WHERE location_key = b.location_key AND pin = v_candidate
            AND status = ANY (p_active_statuses) AND end_at > p_now;
          IF NOT FOUND THEN
            v_pin := v_candidate;
            EXIT;
          END IF;
        END LOOP;
        IF v_pin IS NULL THEN
          RAISE EXCEPTION 'pins_taken' USING ERRCODE = 'DP003';
        END IF;
        b.pin := v_pin;
      END IF;

      IF p_replace_hold THEN
        UPDATE bookings SET
          location_key = b.location_key, status = b.status, start_at = b.start_at, end_at = b.end_at,
          size = b.size, quantity = b.quantity, duration_value = b.duration_value,
          duration_unit = b.duration_unit, price_original_cents = b.price_original_cents,
          price_discounted_cents = b.price_discounted_cents, fee_cents = b.fee_cents,
          total_cents = b.total_cents, discount_code = b.discount_code, first_name = b.first_name,
          last_name = b.last_name, email = b.email, phone_prefix = b.phone_prefix,
          phone_number = b.phone_number, note = b.note, lang = b.lang, pin = b.pin,
          updated_at = b.updated_at, expires_at = b.expires_at
        WHERE transaction_id = b.transaction_id
        RETURNING created_at, provider_reference, paid_at
        INTO v_created_at, v_provider_reference, v_paid_at;
      ELSE
        INSERT INTO bookings (
          transaction_id, location_key, status, start_at, end_at, size, quantity, duration_value,
          duration_unit, price_original_cents, price_discounted_cents, fee_cents, total_cents,
          discount_code, first_name, last_name, email, phone_prefix, phone_number, note, lang, pin,
          created_at, updated_at, expires_at
        ) VALUES (
          b.transaction_id, b.location_key, b.status, b.start_at, b.end_at, b.size, b.quantity,
          b.duration_value, b.duration_unit, b.price_original_cents, b.price_discounted_cents,
          b.fee_cents, b.total_cents, b.discount_code, b.first_name, b.last_name, b.email,
          b.phone_prefix, b.phone_number, b.note, b.lang, b.pin, b.created_at, b.updated_at,
          b.expires_at
        );
        v_created_at := b.created_at;
      END IF;
      INSERT INTO booking_lockers (transaction_id, locker_id, start_at, end_at, active)
      SELECT b.transaction_id, id, b.start_at, b.end_at, p_active FROM unnest(v_ids) AS id;

      RETURN jsonb_build_object(
        'lockerIds', to_jsonb(v_ids),
        'lockerNumbers', to_jsonb(v_numbers),
        'expired', to_jsonb(v_expired),
        'pin', b.pin,
        'createdAt', v_created_at,
        'providerReference', v_provider_reference,
        'paidAt', v_paid_at
      );
    END
    $fn$
  `;

/** Every move between statuses: who made it, when and why. */
async function createBookingEvents(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const { instant, bigSerial } = dialectColumns(dialect);

  await db.schema
    .createTable('booking_events')
    .addColumn('id', bigSerial.type, bigSerial.key)
    .addColumn('transaction_id', 'text', (c) => c.notNull())
    .addColumn('at', instant, (c) => c.notNull())
    .addColumn('from_status', 'text', (c) => c.notNull())
    .addColumn('to_status', 'text', (c) => c.notNull())
    .addColumn('actor', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('detail', 'text')
    .execute();
  await createIndex(db, 'booking_events_transaction_idx', 'booking_events', ['transaction_id', 'id']);
}

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const pg = dialect === 'postgres';
  await createBookingEvents(db, dialect);

  if (!pg) return;
  await sql`DROP INDEX IF EXISTS bookings_pending_expiry_idx`.execute(db);
  await sql`
    CREATE INDEX bookings_hold_expiry_by_size_idx ON bookings (location_key, size, expires_at)
    WHERE status IN ('pending', 'paying', 'payment_declined')
  `.execute(db);
  await REPLACE_RESERVE_LOCKERS.execute(db);
}
