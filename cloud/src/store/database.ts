import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

// Table shapes as Kysely sees them. Instants are bound as Date (the SQLite adapter stores ISO
// strings, PostgreSQL timestamptz) and read back as Date | string, so repositories normalise them.
// JSON columns are text in both dialects.

export type Instant = ColumnType<Date | string, Date, Date>;
export type NullableInstant = ColumnType<Date | string | null, Date | null | undefined, Date | null>;
type Flag = ColumnType<boolean | number, boolean | undefined, boolean>;
type Json = ColumnType<unknown, string, string>;

export interface LocationTable {
  key: string;
  name: string;
  address: string;
  zone: string;
  max_online_standard: number;
  max_online_large: number;
  pricing: Json;
  opening_time: string;
  closing_time: string;
  controller_recipient: string | null;
  controller_port: number | null;
  controller_key: string | null;
  controller_mastercode: string | null;
  endpoint: string | null;
  created_at: Instant;
  updated_at: Instant;
  /** Edit version and last operator (migration 20251125120000, store/edit-stamp.ts). */
  version: Generated<number>;
  updated_by: string | null;
  /** This site's bookings are paused (migration 20251127100000). */
  maintenance: Flag;
}

export interface LockerTable {
  id: Generated<number>;
  location_key: string;
  number: number;
  size: string;
  in_service: Flag;
}

export interface BookingTable {
  transaction_id: string;
  location_key: string;
  status: string;
  start_at: Instant;
  end_at: Instant;
  size: string;
  quantity: number;
  duration_value: number;
  duration_unit: string;
  price_original_cents: number;
  price_discounted_cents: number;
  fee_cents: number;
  total_cents: number;
  discount_code: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  phone_prefix: string | null;
  phone_number: string | null;
  note: string;
  lang: string;
  pin: string | null;
  provider_reference: string | null;
  created_at: Instant;
  updated_at: Instant;
  expires_at: NullableInstant;
  paid_at: NullableInstant;
  /** Made by an operator as a test (Strumenti Avanzati): never counted as takings. */
  is_test: Flag;
}

export interface BookingLockerTable {
  id: Generated<number>;
  transaction_id: string;
  locker_id: number;
  start_at: Instant;
  end_at: Instant;
  active: Flag;
}

export interface DiscountTable {
  code: string;
  description: string;
  percent: number | null;
  amount_cents: number | null;
  valid_from: string | null;
  valid_to: string | null;
  usable_once: Flag;
  min_days: number | null;
  used_at: NullableInstant;
  used_by: string | null;
  created_at: Instant;
  version: Generated<number>;
  updated_by: string | null;
  updated_at: NullableInstant;
}

export interface SettingTable {
  key: string;
  value: Json;
  updated_at: Instant;
  /** The settings' edit generation: a save sets the rows it writes to the highest version + 1. */
  version: Generated<number>;
  updated_by: string | null;
}

/** One move of a booking between statuses: who, when, why (protocol/src/booking/status.ts). */
export interface BookingEventTable {
  id: Generated<number>;
  transaction_id: string;
  at: Instant;
  from_status: string;
  to_status: string;
  actor: string;
  reason: string;
  detail: string | null;
}

export interface EmailOutboxTable {
  id: Generated<number>;
  transaction_id: string;
  kind: string;
  created_at: Instant;
  attempts: Generated<number>;
  next_attempt_at: Instant;
  claimed_until: NullableInstant;
  /** The cloud process holding the lease (migration 20251128110000_email-sender). */
  claimed_by: string | null;
  sent_at: NullableInstant;
  message_id: string | null;
  last_error: string | null;
}

/** A private link to a visitor's booking page: only the token's hash is stored. */
export interface BookingLinkTable {
  token_hash: string;
  transaction_id: string;
  created_at: Instant;
  expires_at: Instant;
  revoked_at: NullableInstant;
}

export interface BookingExtensionTable {
  transaction_id: string;
  /** The stay's first booking. */
  stay_id: string;
  created_at: Instant;
}

export interface PaymentReceiptTable {
  transaction_id: string;
  provider_reference: string;
  amount_cents: number | null;
  received_at: Instant;
}

export interface ErrorLogTable {
  id: Generated<number>;
  at: Instant;
  type: string;
  location_key: string | null;
  locker_id: number | null;
  message: string;
}

export interface Database {
  locations: LocationTable;
  lockers: LockerTable;
  bookings: BookingTable;
  booking_lockers: BookingLockerTable;
  booking_events: BookingEventTable;
  email_outbox: EmailOutboxTable;
  booking_links: BookingLinkTable;
  booking_extensions: BookingExtensionTable;
  payment_receipts: PaymentReceiptTable;
  discounts: DiscountTable;
  settings: SettingTable;
  error_log: ErrorLogTable;
}

export type LocationRow = Selectable<LocationTable>;
export type LockerRow = Selectable<LockerTable>;
export type BookingRow = Selectable<BookingTable>;
export type NewBookingRow = Insertable<BookingTable>;
export type DiscountRow = Selectable<DiscountTable>;
