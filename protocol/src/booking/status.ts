/** Every status a booking can have (the admin area's list, in its order). */
export const BOOKING_STATUSES = [
  'pending',
  'scheduled',
  'confirmed',
  'cancelled',
  'expired',
  'confirmed_late',
  'failed_after_payment',
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];

/**
 * Statuses that hold lockers: an unpaid booking still inside its payment window, a paid future-day
 * booking, a paid booking, and one confirmed after its window. Availability counts these.
 */
export const ACTIVE_BOOKING_STATUSES = [
  'pending',
  'scheduled',
  'confirmed',
  'confirmed_late',
] as const satisfies readonly BookingStatus[];
export type ActiveBookingStatus = (typeof ACTIVE_BOOKING_STATUSES)[number];

export function isBookingStatus(value: unknown): value is BookingStatus {
  return typeof value === 'string' && (BOOKING_STATUSES as readonly string[]).includes(value);
}

export function isActiveBookingStatus(status: string): status is ActiveBookingStatus {
  return (ACTIVE_BOOKING_STATUSES as readonly string[]).includes(status);
}
