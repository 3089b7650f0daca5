import { describe, expect, it } from 'vitest';
import {
  DEFAULT_SYSTEM_SETTINGS,
  adminUserSchema,
  bookingReadBackSchema,
  bookingRowSchema,
  cleanupFilterSchema,
  cleanupPreviewSchema,
  cleanupStatsSchema,
  discountCodeInputSchema,
  discountValidationSchema,
  errorLogEntrySchema,
  frontendOverridesSchema,
  locationSchema,
  lockerFullStateSchema,
  lockerSchema,
  processLogEntrySchema,
  publicLocationSchema,
  savedBookingSchema,
  systemSettingsSchema,
  testBookingSchema,
  totemRevenueRecordSchema,
  hasAtMostTwoDecimals,
  zEmail,
  zEuros,
  zFullPhone,
  zIsoDate,
  zIsoDateTime,
  zLocationKey,
  zPersonName,
  zPhoneNumber,
  zPin,
  zTimeOfDay,
} from './index';

const accepts = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)?.slice(0, 200)).toBe(true);
const rejects = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  expect(schema.safeParse(value).success, JSON.stringify(value)?.slice(0, 200)).toBe(false);

const location = {
  id: 'vicolo',
  key: 'vicolo',
  nome: 'Deposito Vicolo',
  indirizzo: 'Vicolo del Cinque 12, 00153 Roma',
  timezone: 'Europe/Rome',
  recipient: '127.0.0.1',
  port: 11001,
  mastercode: '603917',
  lockerStructure: { standard: [1, 2, 3], large: [4, 5] },
  maxOnline: { standard: 2, large: 1 },
  pricing: {
    standard: { hours: { '3': 5, '4': 6 }, days: { '1': 12, '2': 21 } },
    large: { hours: { '3': 7, '4': 8.5 }, days: { '1': 16, '2': 28 } },
  },
  endpoint: '/',
  orari: { apertura: '06:00', chiusura: '23:00' },
};

describe('primitives', () => {
  it('reads instants with Z or an offset only', () => {
    accepts(zIsoDateTime, '2026-03-29T01:30:00Z');
    accepts(zIsoDateTime, '2026-03-29T03:30:00.123+02:00');
    rejects(zIsoDateTime, '2026-03-29T03:30:00');
    rejects(zIsoDateTime, '2026-02-30T10:00:00Z');
    rejects(zIsoDateTime, 1_700_000_000_000);
  });

  it('reads only real calendar days', () => {
    accepts(zIsoDate, '2028-02-29');
    rejects(zIsoDate, '2026-02-30');
    rejects(zIsoDate, '2027-02-29');
    rejects(zIsoDate, '2026-13-01');
    rejects(zIsoDate, '26-01-01');
  });

  it('reads times of day HH:mm', () => {
    accepts(zTimeOfDay, '00:00');
    accepts(zTimeOfDay, '23:59');
    rejects(zTimeOfDay, '25:00');
    rejects(zTimeOfDay, '24:00');
    rejects(zTimeOfDay, '6:00');
    rejects(zTimeOfDay, '06:60');
  });

  it('reads location keys as short lowercase slugs', () => {
    accepts(zLocationKey, 'areadebug');
    accepts(zLocationKey, 'campo-2');
    rejects(zLocationKey, 'Campo');
    rejects(zLocationKey, '-oca');
    rejects(zLocationKey, '../etc');
    rejects(zLocationKey, 'a'.repeat(41));
  });

  it('reads euros in whole cents, however small the number sent', () => {
    for (const cents of [0, 1, 7, 10, 99, 1_999, 123_456, 9_999_999, 10_000_000]) {
      expect(zEuros.safeParse(cents / 100).success).toBe(true);
      expect(hasAtMostTwoDecimals(cents / 100)).toBe(true);
      expect(hasAtMostTwoDecimals(-cents / 100)).toBe(true);
    }
    // zod's multipleOf(0.01) alone let the first three through (and they were stored as 0 cents).
    for (const refused of [5e-324, 1e-20, 2.5e-200, 1e-10, 0.001, 1.005, 0.1 + 0.2, Number.NaN, Infinity]) {
      expect(hasAtMostTwoDecimals(refused)).toBe(false);
      expect(zEuros.safeParse(refused).success).toBe(false);
    }
    expect(zEuros.safeParse(5e-324).error?.issues).toEqual([
      expect.objectContaining({ message: 'Invalid number: must be a multiple of 0.01' }),
    ]);
    expect(zEuros.safeParse(1.005).error?.issues).toHaveLength(1);
  });

  it('applies the spec form rules to names, e-mails, phones and PINs', () => {
    accepts(zPersonName, "D'Angelo-Rossi");
    accepts(zPersonName, 'José María');
    rejects(zPersonName, 'R2D2');
    rejects(zPersonName, '   ');
    rejects(zPersonName, 'a'.repeat(81));
    accepts(zEmail, 'anna@example.it');
    rejects(zEmail, 'anna @example.it');
    rejects(zEmail, `${'a'.repeat(250)}@example.it`);
    // The number as typed; its country's plan is checked with the prefix (api/bookings).
    accepts(zPhoneNumber, '3331234567');
    accepts(zPhoneNumber, '+39 333-123 4567');
    rejects(zPhoneNumber, '333 FLOWERS');
    rejects(zPhoneNumber, '1'.repeat(33));
    expect(zFullPhone.parse('+39 333 123 4567')).toBe('+393331234567');
    expect(zFullPhone.parse('0044 20 7946 0018')).toBe('+442079460018');
    rejects(zFullPhone, '+39 000');
    accepts(zPin, '048213');
    rejects(zPin, '48213');
  });
});

describe('location', () => {
  it('accepts the admin spec shape and fills the defaults', () => {
    const { timezone: _timezone, port: _port, endpoint: _endpoint, ...bare } = location;
    const parsed = locationSchema.parse(bare);
    expect(parsed.timezone).toBe('Europe/Rome');
    expect(parsed.port).toBe(11000);
    accepts(locationSchema, location);
  });

  it('rejects unknown zones, sizes, duplicate lockers, bad prices and hours', () => {
    rejects(locationSchema, { ...location, timezone: 'Europe/Paris' });
    rejects(locationSchema, { ...location, lockerStructure: { standard: [1, 2], large: [2] } });
    rejects(locationSchema, { ...location, lockerStructure: { standard: [0], large: [] } });
    rejects(locationSchema, {
      ...location,
      pricing: { ...location.pricing, medium: location.pricing.large, large: undefined },
    });
    rejects(locationSchema, {
      ...location,
      pricing: { ...location.pricing, standard: { hours: { '3': -1 }, days: {} } },
    });
    rejects(locationSchema, {
      ...location,
      pricing: { ...location.pricing, standard: { hours: { h3: 5 }, days: {} } },
    });
    rejects(locationSchema, {
      ...location,
      pricing: { ...location.pricing, standard: { hours: { '3': '5' }, days: {} } },
    });
    rejects(locationSchema, { ...location, orari: { apertura: '25:00', chiusura: '23:00' } });
    rejects(locationSchema, { ...location, maxOnline: { standard: -1, large: 1 } });
    rejects(locationSchema, { ...location, port: 70_000 });
    rejects(locationSchema, { ...location, nome: 'x'.repeat(10_000) });
    rejects(locationSchema, { ...location, mastercode: undefined });
  });

  it('describes what a visitor loads without controller settings', () => {
    // The location above as a visitor's page sees it: prices by size then duration.
    const { key, nome, indirizzo, timezone, orari, pricing } = location;
    const hourlyPrices = { standard: pricing.standard.hours, large: pricing.large.hours };
    const dailyPrices = { standard: pricing.standard.days, large: pricing.large.days };
    const visitorView = { key, nome, indirizzo, timezone, orari, hourlyPrices, dailyPrices };
    expect(publicLocationSchema.parse({ ...visitorView, mastercode: '1234' })).not.toHaveProperty(
      'mastercode',
    );
  });
});

describe('lockers', () => {
  it('accepts the states of the admin legend and rejects others', () => {
    accepts(lockerSchema, { id: 3, size: 'large', status: 'available' });
    accepts(lockerFullStateSchema, {
      id: 3,
      size: 'standard',
      status: 'occupied',
      transactionId: 'BOOKING-1718000000000',
      online: true,
    });
    rejects(lockerSchema, { id: 3, size: 'medium', status: 'available' });
    rejects(lockerSchema, { id: '3', size: 'large', status: 'available' });
    rejects(lockerSchema, { id: 3, size: 'large', status: 'broken' });
  });
});

describe('bookings', () => {
  const saved = {
    transactionId: 'BOOKING-1718000000000',
    location: 'oca',
    startTimeIso: '2026-06-10T08:00:00.000Z',
    endTimeIso: '2026-06-10T11:00:00.000Z',
    createdAtIso: '2026-06-10T07:55:00.000Z',
    locker: { lockerId: 12, size: 'large', duration: { value: 3, unit: 'ore' } },
    reservedLockers: [12],
    quantita: 1,
    pin: '482913',
    prezzoScontato: 7,
    price: 7,
    note: 'lang:en;fasttrack',
  };

  it('accepts the saved record, with the fast-track extras', () => {
    accepts(savedBookingSchema, saved);
    accepts(savedBookingSchema, {
      ...saved,
      locker: { ...saved.locker, duration: 3 },
      status: 'pending',
      createdAt: saved.createdAtIso,
      startTime: saved.startTimeIso,
      endTime: saved.endTimeIso,
      duration: 3,
    });
    accepts(savedBookingSchema, {
      ...saved,
      locker: { lockerId: null, size: 'standard', duration: { value: 2, unit: 'g' } },
    });
  });

  it('rejects wrong types, missing fields, bad quantities and reversed times', () => {
    rejects(savedBookingSchema, { ...saved, quantita: 0 });
    rejects(savedBookingSchema, { ...saved, quantita: -1 });
    rejects(savedBookingSchema, { ...saved, quantita: 4 });
    rejects(savedBookingSchema, { ...saved, quantita: '1' });
    rejects(savedBookingSchema, { ...saved, location: undefined });
    rejects(savedBookingSchema, { ...saved, locker: { ...saved.locker, size: 'medium' } });
    rejects(savedBookingSchema, { ...saved, endTimeIso: saved.startTimeIso });
    rejects(savedBookingSchema, { ...saved, note: 'x'.repeat(501) });
    rejects(savedBookingSchema, { ...saved, pin: '12345a' });
    rejects(savedBookingSchema, { ...saved, price: -5 });
  });

  it('reads a booking back, scheduled ones without PIN or lockers', () => {
    accepts(bookingReadBackSchema, {
      transactionId: 'BOOKING-abcdefghijklmnopqrstuv',
      location: 'oca',
      nome: 'Anna',
      cognome: 'Rossi',
      email: 'anna@example.it',
      lockerType: 'standard',
      quantita: 2,
      reservedLockers: [],
      startTimeIso: '2026-06-12T08:00:00Z',
      endTimeIso: '2026-06-13T08:00:00Z',
      price_discounted: 21.6,
      status: 'scheduled',
      pin: null,
      note: 'lang:it',
    });
  });

  it('accepts admin booking rows and rejects unknown statuses', () => {
    const row = {
      TRANSACTION_ID: 'BOOKING-1718000000000',
      STATUS: 'confirmed_late',
      LOCATION_KEY: 'campo',
      START_TIME: '2026-06-10T08:00:00Z',
      END_TIME: '2026-06-10T11:00:00Z',
      created_at: '2026-06-10T07:55:00Z',
      locker_id: 4,
      locker_type: 'standard',
      nome: 'Anna',
      cognome: 'Rossi',
      email: 'anna@example.it',
      telefono_prefisso: '+44',
      telefono_numero: '7700900123',
      PIN: '482913',
      note: 'lang:en',
      price_original: 6.5,
      price_discounted: null,
    };
    accepts(bookingRowSchema, row);
    rejects(bookingRowSchema, { ...row, STATUS: 'paid' });
  });

  it('fills test booking defaults and checks its rules', () => {
    const base = {
      location: 'areadebug',
      startTime: '2026-06-10T08:00:00Z',
      endTime: '2026-06-10T11:00:00Z',
      nome: 'Test',
      cognome: 'Admin',
      email: 'ops@example.it',
    };
    expect(testBookingSchema.parse(base)).toMatchObject({
      status: 'scheduled',
      type: 'standard',
      quantity: 1,
      note: '',
    });
    accepts(testBookingSchema, {
      ...base,
      status: 'confirmed',
      lockerIds: [1, 2],
      quantity: 2,
      pin: '193847',
      paidAt: null,
    });
    rejects(testBookingSchema, { ...base, status: 'cancelled' });
    rejects(testBookingSchema, { ...base, lockerIds: [1] });
    rejects(testBookingSchema, { ...base, confermaEmail: 'other@example.it' });
    rejects(testBookingSchema, { ...base, status: 'confirmed', lockerIds: [1], quantity: 2 });
    // With the 0,50 € fee the total must stay an amount the answers carry (found by the API fuzzer).
    accepts(testBookingSchema, { ...base, priceDiscounted: 99_999.5 });
    rejects(testBookingSchema, { ...base, priceDiscounted: 99_999.95 });
  });
});

describe('discounts', () => {
  it('accepts a percent or an amount, never both or neither', () => {
    accepts(discountCodeInputSchema, {
      code: ' WELCOME10 ',
      discountPercent: 10,
      validFrom: null,
      validTo: null,
    });
    expect(discountCodeInputSchema.parse({ code: ' X1 ', discountEuro: 5 }).code).toBe('X1');
    rejects(discountCodeInputSchema, { code: 'BOTH', discountPercent: 10, discountEuro: 5 });
    rejects(discountCodeInputSchema, { code: 'NONE' });
    rejects(discountCodeInputSchema, { code: 'BIG', discountPercent: 150 });
    rejects(discountCodeInputSchema, { code: 'DATES', discountEuro: 5, validFrom: '2026-02-30' });
    rejects(discountCodeInputSchema, {
      code: 'ORDER',
      discountEuro: 5,
      validFrom: '2026-05-01',
      validTo: '2026-04-01',
    });
    rejects(discountCodeInputSchema, { code: 'has space', discountEuro: 5 });
  });

  it('accepts the validation answer shape', () => {
    accepts(discountValidationSchema, {
      valid: true,
      value: 10,
      type: 'percent',
      warning: null,
      message: 'Codice applicato',
      messageKey: 'discount.applied',
      messageParams: { value: 10 },
    });
    accepts(discountValidationSchema, { valid: false, message: 'Codice non valido' });
    rejects(discountValidationSchema, { valid: true, type: 'fixed' });
  });
});

describe('settings and overrides', () => {
  it('has the spec defaults', () => {
    expect(DEFAULT_SYSTEM_SETTINGS).toEqual({
      BLOCK_WINDOWS: [],
      BOOKING_EXPIRATION_MINUTES: 15,
      MAINTENANCE_MODE: false,
      FASTTRACK_FROM: '06:00',
      FASTTRACK_TO: '21:00',
      SHOW_NIGHT_BUTTON_TEST: false,
      ALWAYS_SHOW_FAST_TRACK: false,
      // Ours: the visitors' cancellation policy and what receipts print.
      VISITOR_CANCELLATION_POLICY: 'future_days_until_start',
      RECEIPT_MERCHANT: 'Deposito S.r.l.',
      RECEIPT_VAT_PERCENT: 22,
      // Ours: each size's inside measurements, none until an operator writes them.
      LOCKER_DIMENSIONS_STANDARD: '',
      LOCKER_DIMENSIONS_LARGE: '',
      // Ours: when the operators are alerted of an offline bridge and of a door left open.
      ALERT_BRIDGE_OFFLINE_MINUTES: 5,
      ALERT_DOOR_OPEN_MINUTES: 10,
    });
    rejects(systemSettingsSchema, { ALERT_BRIDGE_OFFLINE_MINUTES: 0 });
    rejects(systemSettingsSchema, { LOCKER_DIMENSIONS_LARGE: 'x'.repeat(61) });
    rejects(systemSettingsSchema, { RECEIPT_VAT_PERCENT: 101 });
    rejects(systemSettingsSchema, { RECEIPT_MERCHANT: '  ' });
    rejects(systemSettingsSchema, { VISITOR_CANCELLATION_POLICY: 'always' });
    rejects(systemSettingsSchema, { BLOCK_WINDOWS: [{ from: '25:00', to: '26:00' }] });
    rejects(systemSettingsSchema, { BOOKING_EXPIRATION_MINUTES: -5 });
    rejects(systemSettingsSchema, { MAINTENANCE_MODE: 'yes' });
  });

  it('reads the overrides the customer pages use', () => {
    accepts(frontendOverridesSchema, {
      showNightButtonTest: false,
      ALWAYS_SHOW_FAST_TRACK: true,
      fastTrackHours: { from: '06:00', to: '21:00' },
      BLOCK_WINDOWS: [{ from: '13:00', to: '14:00' }],
      MAINTENANCE_MODE: false,
    });
  });
});

describe('admin records', () => {
  it('accepts logs, cleanup figures, totem records and users', () => {
    accepts(errorLogEntrySchema, {
      id: 1,
      timestamp: '2026-06-10T08:00:00Z',
      type: 'controller',
      locationKey: 'oca',
      lockerId: 3,
      message: 'timeout',
    });
    accepts(processLogEntrySchema, { name: 'deposito-cloud', log: '{"level":30}' });
    accepts(cleanupPreviewSchema, {
      totalBookings: 3,
      totalTransactions: 2,
      statusBreakdown: [{ status: 'expired', count: 3 }],
    });
    accepts(cleanupStatsSchema, {
      totalBookings: 9,
      oldBookings: { count: 3 },
      byStatus: [{ STATUS: 'pending', count: 1 }],
    });
    expect(cleanupFilterSchema.parse({})).toEqual({
      statuses: ['expired'],
      olderThanDays: 30,
      excludeWithLocker: true,
    });
    rejects(cleanupFilterSchema, { olderThanDays: 366 });
    rejects(cleanupFilterSchema, { statuses: ['gone'] });
    accepts(totemRevenueRecordSchema, {
      date: '2026-06-10T08:00:00+02:00',
      amount: 12.5,
      locker: 4,
      billNo: 'A-102',
      discount: 0,
    });
    accepts(adminUserSchema, {
      id: 1,
      email: 'admin@example.it',
      createdAt: '2026-01-01T00:00:00Z',
      lastLoginAt: null,
    });
  });
});
