import { sql, type Kysely } from 'kysely';
import type { SqlDialect } from '../migrate';
import { createIndex, dialectColumns, type DialectColumns } from '../migration-schema';

// Locations, lockers, bookings with their reserved lockers, discounts, settings and the error log.

/** The sites, their opening hours, prices and controller. */
async function createLocations(db: Kysely<unknown>, { instant, json }: DialectColumns): Promise<void> {
  await db.schema
    .createTable('locations')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('zone', 'text', (c) => c.notNull())
    .addColumn('max_online_standard', 'integer', (c) => c.notNull())
    .addColumn('max_online_large', 'integer', (c) => c.notNull())
    .addColumn('pricing', json, (c) => c.notNull())
    .addColumn('opening_time', 'text', (c) => c.notNull())
    .addColumn('closing_time', 'text', (c) => c.notNull())
    .addColumn('controller_recipient', 'text')
    .addColumn('controller_port', 'integer')
    .addColumn('controller_key', 'text')
    .addColumn('controller_mastercode', 'text')
    .addColumn('endpoint', 'text')
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
}

/** Each site's lockers by number and size. */
async function createLockers(db: Kysely<unknown>, { identityKey }: DialectColumns): Promise<void> {
  await db.schema
    .createTable('lockers')
    .addColumn('id', 'integer', identityKey)
    .addColumn('location_key', 'text', (c) => c.notNull().references('locations.key').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('size', 'text', (c) => c.notNull().check(sql`size in ('standard', 'large')`))
    .addColumn('in_service', 'boolean', (c) => c.notNull().defaultTo(true))
    .addUniqueConstraint('lockers_location_number_unique', ['location_key', 'number'])
    .execute();
  await createIndex(db, 'lockers_location_size_idx', 'lockers', ['location_key', 'size']);
}

/** Bookings: who, where, when, for how much. */
async function createBookings(db: Kysely<unknown>, { instant }: DialectColumns): Promise<void> {
  await db.schema
    .createTable('bookings')
    .addColumn('transaction_id', 'text', (c) => c.primaryKey())
    .addColumn('location_key', 'text', (c) => c.notNull().references('locations.key'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('start_at', instant, (c) => c.notNull())
    .addColumn('end_at', instant, (c) => c.notNull())
    .addColumn('size', 'text', (c) => c.notNull())
    .addColumn('quantity', 'integer', (c) => c.notNull())
    .addColumn('duration_value', 'integer', (c) => c.notNull())
    .addColumn('duration_unit', 'text', (c) => c.notNull())
    .addColumn('price_original_cents', 'integer', (c) => c.notNull())
    .addColumn('price_discounted_cents', 'integer', (c) => c.notNull())
    .addColumn('fee_cents', 'integer', (c) => c.notNull())
    .addColumn('total_cents', 'integer', (c) => c.notNull())
    .addColumn('discount_code', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('phone_prefix', 'text')
    .addColumn('phone_number', 'text')
    .addColumn('note', 'text', (c) => c.notNull())
    .addColumn('lang', 'text', (c) => c.notNull())
    .addColumn('pin', 'text')
    .addColumn('provider_reference', 'text')
    .addColumn('created_at', instant, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .addColumn('expires_at', instant)
    .addColumn('paid_at', instant)
    .addCheckConstraint('bookings_window_check', sql`start_at < end_at`)
    .execute();
  await createIndex(db, 'bookings_status_expires_idx', 'bookings', ['status', 'expires_at']);
  await createIndex(db, 'bookings_location_created_idx', 'bookings', ['location_key', 'created_at']);
}

/** The lockers each booking holds, for which window; never two overlapping active ones (PostgreSQL). */
async function createBookingLockers(
  db: Kysely<unknown>,
  { pg, instant, identityKey }: DialectColumns,
): Promise<void> {
  await db.schema
    .createTable('booking_lockers')
    .addColumn('id', 'integer', identityKey)
    .addColumn('transaction_id', 'text', (c) =>
      c.notNull().references('bookings.transaction_id').onDelete('cascade'),
    )
    .addColumn('locker_id', 'integer', (c) => c.notNull().references('lockers.id').onDelete('cascade'))
    .addColumn('start_at', instant, (c) => c.notNull())
    .addColumn('end_at', instant, (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull())
    .addCheckConstraint('booking_lockers_window_check', sql`start_at < end_at`)
    .execute();
  await createIndex(db, 'booking_lockers_transaction_idx', 'booking_lockers', ['transaction_id']);
  await createIndex(db, 'booking_lockers_locker_window_idx', 'booking_lockers', [
    'locker_id',
    'end_at',
    'start_at',
  ]);
  if (pg) {
    // No locker can ever hold two active reservations whose time ranges overlap, whichever cloud
    // instance writes them. Half-open ranges: a booking may start when the previous one ends.
    await sql`
      ALTER TABLE booking_lockers ADD CONSTRAINT booking_lockers_no_overlap
      EXCLUDE USING gist (locker_id WITH =, tstzrange(start_at, end_at) WITH &&) WHERE (active)
    `.execute(db);
  }
}

/** Discount codes: a percentage or an amount. */
async function createDiscounts(db: Kysely<unknown>, { pg, instant }: DialectColumns): Promise<void> {
  await db.schema
    .createTable('discounts')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('percent', pg ? 'double precision' : 'real')
    .addColumn('amount_cents', 'integer')
    .addColumn('valid_from', 'text')
    .addColumn('valid_to', 'text')
    .addColumn('usable_once', 'boolean', (c) => c.notNull())
    .addColumn('min_days', 'integer')
    .addColumn('used_at', instant)
    .addColumn('used_by', 'text')
    .addColumn('created_at', instant, (c) => c.notNull())
    .addCheckConstraint('discounts_one_kind_check', sql`(percent is null) <> (amount_cents is null)`)
    .execute();
}

/** Settings by key. */
async function createSettings(db: Kysely<unknown>, { instant, json }: DialectColumns): Promise<void> {
  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', json, (c) => c.notNull())
    .addColumn('updated_at', instant, (c) => c.notNull())
    .execute();
}

/** The operators' error log. */
async function createErrorLog(db: Kysely<unknown>, { instant, identityKey }: DialectColumns): Promise<void> {
  await db.schema
    .createTable('error_log')
    .addColumn('id', 'integer', identityKey)
    .addColumn('at', instant, (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('location_key', 'text')
    .addColumn('locker_id', 'integer')
    .addColumn('message', 'text', (c) => c.notNull())
    .execute();
  await createIndex(db, 'error_log_at_idx', 'error_log', ['at']);
}

export async function up(db: Kysely<unknown>, dialect: SqlDialect): Promise<void> {
  const types = dialectColumns(dialect);
  const { pg } = types;

  if (pg) {
    // Lets the exclusion constraint below compare locker ids (a btree type) in a GiST index.
    // Installed once in `public`, which every schema's search_path includes.
    await sql`CREATE EXTENSION IF NOT EXISTS btree_gist WITH SCHEMA public`.execute(db);
  }

  await createLocations(db, types);
  await createLockers(db, types);
  await createBookings(db, types);
  await createBookingLockers(db, types);
  await createDiscounts(db, types);
  await createSettings(db, types);
  await createErrorLog(db, types);
}
