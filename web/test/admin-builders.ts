// Test data for the admin pages, as the cloud answers them: one builder a record, overrides on top.

/** A location as `GET /api/locations/all` lists it: Roma Termini, lockers 1–3 standard and 4 large. */
export function buildAdminLocation<T extends object>(overrides: T = {} as T) {
  return {
    key: 'roma',
    nome: 'Roma Termini',
    indirizzo: 'Via Marsala 1',
    timezone: 'Europe/Rome',
    orari: { apertura: '07:00', chiusura: '22:00' },
    lockerStructure: { standard: [1, 2, 3], large: [4] },
    maxOnline: { standard: 3, large: 1 },
    pricing: { standard: { hours: { '3': 5 }, days: {} }, large: { hours: { '3': 7 }, days: {} } },
    ...overrides,
  };
}

/** The whole location record an administrator edits, with how the cloud reaches its controller. */
export function buildFullAdminLocation<T extends object>(overrides: T = {} as T) {
  return buildAdminLocation({
    id: 'roma',
    recipient: '10.0.0.1',
    port: 11000,
    mastercode: '123456',
    endpoint: '/',
    ...overrides,
  });
}

/** One row of `GET /api/admin/bookings/recent`: a paid three-hour booking of locker 1. */
export function buildBookingRow(transactionId: string, extra: Record<string, unknown> = {}) {
  return {
    TRANSACTION_ID: transactionId,
    STATUS: 'confirmed',
    LOCATION_KEY: 'roma',
    START_TIME: '2026-07-15T08:00:00.000Z',
    END_TIME: '2026-07-15T11:00:00.000Z',
    created_at: '2026-07-15T07:00:00.000Z',
    locker_id: 1,
    locker_type: 'standard',
    nome: 'Mario',
    cognome: 'Rossi',
    email: 'mario@example.it',
    telefono_prefisso: '+39',
    telefono_numero: '3331234567',
    PIN: '482915',
    note: '',
    price_original: 5,
    price_discounted: 5,
    ...extra,
  };
}

/** `GET /api/admin/cleanup/stats` with `totalBookings` bookings, none old. */
export function buildCleanupStats(totalBookings: number) {
  return { success: true, data: { totalBookings, oldBookings: { count: 0 }, byStatus: [] } };
}

/** `GET /api/admin/settings/system` as read at version 7: no block window, fast track 06:00–21:00. */
export function buildSystemSettings<T extends object>(overrides: T = {} as T) {
  return {
    BLOCK_WINDOWS: [] as { from: string; to: string }[],
    BOOKING_EXPIRATION_MINUTES: 15,
    MAINTENANCE_MODE: false,
    FASTTRACK_FROM: '06:00',
    FASTTRACK_TO: '21:00',
    SHOW_NIGHT_BUTTON_TEST: false,
    ALWAYS_SHOW_FAST_TRACK: false,
    version: 7,
    ...overrides,
  };
}

/** A discount code as `GET /api/discounts/all` lists it: ESTATE20, 20 %, usable once and used once. */
export function buildDiscountCode<T extends object>(overrides: T = {} as T) {
  return {
    code: 'ESTATE20',
    description: 'Estate',
    discountPercent: 20,
    discountEuro: null,
    validFrom: null,
    validTo: null,
    usableOnce: true,
    minDays: null,
    timesUsed: 1,
    version: 4,
    ...overrides,
  };
}
