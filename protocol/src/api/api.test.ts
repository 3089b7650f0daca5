import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ERROR_CODES,
  adminUserParamsSchema,
  apiRouteGroups,
  apiRoutes,
  availabilityQuerySchema,
  cleanupExecuteRequestSchema,
  cleanupPreviewQuerySchema,
  createLocationRequestSchema,
  createNightPaymentRequestSchema,
  createPaymentRequestSchema,
  createPaymentResponseSchema,
  customerDetailsRequestSchema,
  duplicateStructureRequestSchema,
  errorBody,
  errorBodySchema,
  findApiRoute,
  httpStatusOf,
  inhibitMultiRequestSchema,
  isErrorCode,
  lockerActionRequestSchema,
  nightAvailabilityCheckRequestSchema,
  nightAvailabilityRangeRequestSchema,
  scheduledBookingRequestSchema,
  takingsQuerySchema,
  updateLocationRequestSchema,
  updateLockerStructureRequestSchema,
  validateDiscountRequestSchema,
} from './index';
import { SEED_LOCATIONS } from '../seed/index';

/** The only routes a visitor may call without an admin token. */
const PUBLIC_CALLS = [
  'POST /api/bookings/immediate',
  'GET /api/lockers/state',
  'GET /api/locations/:location',
  'POST /api/lockers/inhibit-multi',
  'POST /api/bookings/save',
  'POST /api/bookings/scheduled',
  'PATCH /api/bookings/:transactionId',
  'POST /api/bookings/:transactionId/cancel',
  'GET /api/bookings/:transactionId',
  // The visitor's private booking link (issue 16).
  'POST /api/bookings/:transactionId/my-booking-link',
  'GET /api/my-booking/:token',
  'POST /api/my-booking/:token/cancel',
  'POST /api/my-booking/:token/resend',
  'POST /api/my-booking/:token/extend',
  'GET /api/bookings/availability',
  'GET /api/bookings/future',
  'POST /api/payments/create-payment',
  'POST /api/payments/retry',
  'POST /api/payments/decrypt',
  'POST /api/discounts/validate-discount',
  'GET /api/admin/frontend-overrides',
  'POST /api/night-availability/check',
  'POST /api/night-availability/check-range',
  'POST /api/night-payments/create-night-payment',
  'GET /locales/:lng/common.json',
  'POST /api/admin/login',
];

/** Every call of both specs' §7 tables, plus the additions the brief asks for. */
const SPEC_CALLS = [
  // customer-booking.md §7: the visitor's calls (and admin-area.md's login), two more for operators.
  ...PUBLIC_CALLS,
  'POST /api/lockers/inhibit',
  // The spec's `POST /lockers/open` is the operators' open call under the API prefix.
  'POST /api/lockers/open',
  // admin-area.md §7
  'GET /api/locations/all',
  'POST /api/locations/update-prices',
  'POST /api/locations/update-settings',
  'POST /api/locations/update-locker-structure',
  'POST /api/admin/locations/duplicate-structure',
  'GET /api/lockers/full-state',
  'POST /api/lockers/unbook',
  'POST /api/lockers/unbook-soap',
  'GET /api/discounts/all',
  'POST /api/discounts/create',
  'DELETE /api/discounts/:code',
  'GET /api/admin/cleanup/preview',
  'POST /api/admin/cleanup/execute',
  'GET /api/admin/cleanup/stats',
  'GET /api/admin/bookings/recent',
  // A refund owed, asked of the gateway again or recorded as made by hand (issue 16).
  'POST /api/admin/bookings/:transactionId/refund',
  'GET /api/admin/bookings/:transactionId/history',
  'GET /api/admin/settings/system',
  'POST /api/admin/settings/system',
  'GET /api/admin/locations',
  'POST /api/admin/locations',
  'PATCH /api/admin/locations/:id',
  'DELETE /api/admin/locations/:id',
  'GET /api/system/admin/locations-full',
  'POST /api/system/admin/create-test-booking',
  'POST /api/system/admin/run-morning-scheduler',
  'GET /api/admin/logs/recent',
  'GET /api/admin/logs/pm2',
  'GET /api/admin/promotec/proceeds',
  // additions
  'POST /api/admin/logout',
  'GET /api/admin/users',
  'POST /api/admin/users',
  'POST /api/admin/users/:id/password',
  'DELETE /api/admin/users/:id',
  // A discount edit in place (the spec's delete-then-recreate lost usage and could lose the code).
  'PUT /api/discounts/:code',
  'POST /api/admin/locations/:key/bridge-token',
  'DELETE /api/admin/locations/:key/bridge-token',
  'POST /api/admin/bookings/:transactionId/resend',
  'POST /api/admin/bookings/:transactionId/move',
  'GET /api/admin/bookings/:transactionId/extension',
  'POST /api/admin/bookings/:transactionId/extend',
  'GET /api/admin/alerts',
  'GET /api/lockers/history',
  'GET /api/admin/me',
  'POST /api/admin/alerts/:id/acknowledge',
  'GET /api/admin/logs/archive',
  'GET /api/admin/takings',
  'GET /api/admin/takings/locations',
  'POST /api/admin/takings/connection-test',
];

const key = (route: { method: string; path: string }) => `${route.method} ${route.path}`;

describe('apiRoutes catalogue', () => {
  it('has one entry per method and path', () => {
    const keys = apiRoutes.map(key);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('covers exactly the spec calls and our additions', () => {
    expect(apiRoutes.map(key).sort()).toEqual([...SPEC_CALLS].sort());
  });

  it('requires an admin token everywhere except the visitor calls and login', () => {
    const publicRoutes = apiRoutes.filter((route) => route.auth === 'public').map(key);
    expect(publicRoutes.sort()).toEqual([...PUBLIC_CALLS].sort());
  });

  it('lists fixed paths before the parameter paths that would match them', () => {
    const matcher = (path: string) =>
      new RegExp(`^${path.replace(/\./g, '\\.').replace(/:[A-Za-z]+/g, '[^/]+')}$`);
    apiRoutes.forEach((route, index) => {
      apiRoutes.forEach((other, otherIndex) => {
        if (route === other || route.method !== other.method || !other.path.includes(':')) return;
        if (!route.path.includes(':') && matcher(other.path).test(route.path)) {
          expect(index, `${key(route)} before ${key(other)}`).toBeLessThan(otherIndex);
        }
      });
    });
  });

  it('has express paths, summaries and a request entry for each path parameter', () => {
    for (const route of apiRoutes) {
      expect(route.path).toMatch(/^\/(?:[A-Za-z0-9._-]+|:[A-Za-z]+)(?:\/(?:[A-Za-z0-9._-]+|:[A-Za-z]+))*$/);
      expect(route.summary.length).toBeGreaterThan(5);
      const params = [...route.path.matchAll(/:([A-Za-z]+)/g)].map((match) => match[1]);
      if (params.length > 0) {
        const shape = (route.request.params as z.ZodObject).shape;
        expect(Object.keys(shape).sort()).toEqual(params.sort());
      } else {
        expect(route.request.params).toBeUndefined();
      }
      if (route.method === 'GET' || route.method === 'DELETE') expect(route.request.body).toBeUndefined();
    }
  });

  it('turns every schema into JSON Schema for the OpenAPI document', () => {
    for (const route of apiRoutes) {
      for (const schema of [route.request.params, route.request.query, route.request.body, route.response]) {
        if (schema)
          expect(() => z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' })).not.toThrow();
      }
    }
  });

  it('finds routes by method and path and groups them by area', () => {
    expect(findApiRoute('get', '/api/bookings/:transactionId')).toBe(apiRouteGroups.bookings.readBack);
    expect(findApiRoute('PUT', '/api/bookings/save')).toBeUndefined();
  });
});

describe('customer request schemas', () => {
  it('reads the multi-locker hold with its Italian names', () => {
    expect(
      inhibitMultiRequestSchema.safeParse({ locationKey: 'oca', dimensione: 'large', quantita: 2 }).success,
    ).toBe(true);
    for (const bad of [
      { locationKey: 'oca', dimensione: 'large', quantita: 0 },
      { locationKey: 'oca', dimensione: 'large', quantita: -1 },
      { locationKey: 'oca', dimensione: 'xl', quantita: 1 },
      { locationKey: 'oca', dimensione: 'large' },
      { locationKey: 'oca', dimensione: 'large', quantita: 1, startTimeIso: '2026-06-10T08:00:00Z' },
    ]) {
      expect(inhibitMultiRequestSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('reads a future-day booking', () => {
    const body = {
      id_transazione: 'BOOKING-1718000000000',
      location_key: 'termini',
      startTimeIso: '2026-06-12T08:00:00Z',
      endTimeIso: '2026-06-13T08:00:00Z',
      tipo_locker: 'standard',
      quantita: 1,
      prezzo_originale: 14,
      prezzo_scontato: 12.6,
      pin: '204816',
    };
    expect(scheduledBookingRequestSchema.safeParse(body).success).toBe(true);
    expect(
      scheduledBookingRequestSchema.safeParse({ ...body, startTimeIso: '2026-06-31T08:00:00Z' }).success,
    ).toBe(false);
    expect(scheduledBookingRequestSchema.safeParse({ ...body, quantita: 4 }).success).toBe(false);
  });

  describe("the customer's details, checked like the payment pre-check", () => {
    const body = {
      nome: 'Anna Maria',
      cognome: "D'Amico",
      email: 'anna@example.it',
      conferma_email: 'anna@example.it',
      telefono_prefisso: '+39',
      telefono_numero: '3331234567',
      codice_sconto: ' WELCOME10 ',
      note: 'lang:it',
    };

    it('trims the discount code and takes +39 when no prefix is given', () => {
      expect(customerDetailsRequestSchema.parse(body).codice_sconto).toBe('WELCOME10');
      expect(
        customerDetailsRequestSchema.parse({ ...body, telefono_prefisso: undefined, codice_sconto: '' }),
      ).toMatchObject({
        telefono_prefisso: '+39',
        codice_sconto: '',
      });
    });

    // Spaces, dashes and the country code are read; the number is kept as prefix and national number.
    it.each([
      ['+39', '333 123 4567', '+39', '3331234567'],
      ['+39', '+39 333-123-4567', '+39', '3331234567'],
      ['+39', '0039 333 1234567', '+39', '3331234567'],
      ['+1', '(201) 555-0123', '+1', '2015550123'],
      ['+39', '+44 20 7946 0018', '+44', '2079460018'],
    ])('reads %s %s as %s %s', (telefono_prefisso, telefono_numero, prefix, national) => {
      expect(
        customerDetailsRequestSchema.parse({ ...body, telefono_prefisso, telefono_numero }),
      ).toMatchObject({
        telefono_prefisso: prefix,
        telefono_numero: national,
      });
    });

    it('refuses a number that is not one of its country, and details that do not hold', () => {
      const refused = customerDetailsRequestSchema.safeParse({ ...body, telefono_numero: '000 000 0000' });
      expect(refused.error?.issues[0]).toMatchObject({
        path: ['telefono_numero'],
        params: { code: 'customer/phone_invalid' },
      });
      for (const bad of [
        { conferma_email: 'other@example.it' },
        { telefono_numero: '12345' },
        { telefono_numero: '333-FLOWERS' },
        { telefono_prefisso: '+1', telefono_numero: '333 123 4567' },
        { nome: '' },
        { nome: 'x'.repeat(100_000) },
        { telefono_prefisso: '39' },
      ]) {
        expect(
          customerDetailsRequestSchema.safeParse({ ...body, ...bad }).success,
          JSON.stringify(bad).slice(0, 80),
        ).toBe(false);
      }
    });
  });

  it('reads availability queries as strings and bounds the range', () => {
    expect(
      availabilityQuerySchema.safeParse({ location: 'oca', startDate: '2026-06-10', endDate: '2026-06-12' })
        .success,
    ).toBe(true);
    expect(
      availabilityQuerySchema.safeParse({
        location: 'oca',
        startDate: '2026-06-10T06:00:00Z',
        endDate: '2026-06-10T20:00:00Z',
      }).success,
    ).toBe(true);
    expect(
      availabilityQuerySchema.safeParse({ location: 'oca', startDate: '2026-06-12', endDate: '2026-06-10' })
        .success,
    ).toBe(false);
    expect(
      availabilityQuerySchema.safeParse({ location: 'oca', startDate: '2026-02-30', endDate: '2026-03-02' })
        .success,
    ).toBe(false);
    expect(
      availabilityQuerySchema.safeParse({ location: 'oca', startDate: '2026-01-01', endDate: '2027-01-01' })
        .success,
    ).toBe(false);
  });

  it('reads the night calls', () => {
    const check = {
      locationKey: 'vicolo',
      tipoLocker: 'large',
      startTimeIso: '2026-06-10T04:00:00.000Z',
      endTimeIso: '2026-06-10T20:00:00.000Z',
    };
    expect(nightAvailabilityCheckRequestSchema.parse(check).quantita).toBe(1);
    expect(nightAvailabilityCheckRequestSchema.safeParse({ ...check, tipoLocker: 'huge' }).success).toBe(
      false,
    );
    expect(
      nightAvailabilityRangeRequestSchema.safeParse({
        locationKey: 'vicolo',
        startTime: '2026-06-10T04:00:00Z',
        endTime: '2026-06-13T20:00:00Z',
      }).success,
    ).toBe(true);
    const payment = {
      ...check,
      quantita: 1,
      prezzoOriginale: 16.5,
      prezzoScontato: 16.5,
      email: 'anna@example.it',
      nome: 'Anna',
      cognome: 'Rossi',
      telefono: '+393331234567',
      pin: '583920',
      note: 'lang:it;night',
    };
    expect(createNightPaymentRequestSchema.safeParse(payment).success).toBe(true);
    expect(createNightPaymentRequestSchema.safeParse({ ...payment, quantita: 5 }).success).toBe(false);
  });

  it('reads the payment call and both kinds of answer', () => {
    const body = {
      currency: 'EUR',
      amount: 750,
      transactionId: 'BOOKING-1718000000000',
      lockerId: 12,
      duration: { value: 3, unit: 'ore' },
      price: 7,
      pin: '482913',
      email: 'anna@example.it',
      nome: 'Anna',
      cognome: 'Rossi',
      telefono: '+393331234567',
      codiceSconto: '',
      note: 'lang:it',
    };
    expect(createPaymentRequestSchema.safeParse(body).success).toBe(true);
    expect(createPaymentRequestSchema.safeParse({ ...body, currency: 'USD' }).success).toBe(false);
    expect(createPaymentRequestSchema.safeParse({ ...body, amount: 7.5 }).success).toBe(false);
    expect(createPaymentResponseSchema.safeParse('<html><body>pay</body></html>').success).toBe(true);
    expect(
      createPaymentResponseSchema.safeParse({
        bookingConfirmed: true,
        transactionId: 'BOOKING-1718000000000',
      }).success,
    ).toBe(true);
  });

  it('reads a discount check', () => {
    expect(
      validateDiscountRequestSchema.parse({ code: ' LONGSTAY ', duration: { value: 3, unit: 'g' } }).code,
    ).toBe('LONGSTAY');
    expect(validateDiscountRequestSchema.safeParse({ code: '' }).success).toBe(false);
  });
});

describe('admin request schemas', () => {
  it('coerces query strings of the cleanup preview and applies the defaults', () => {
    expect(
      cleanupPreviewQuerySchema.parse({
        statuses: 'expired,cancelled',
        olderThanDays: '45',
        excludeWithLocker: 'false',
      }),
    ).toEqual({ statuses: ['expired', 'cancelled'], olderThanDays: 45, excludeWithLocker: false });
    expect(cleanupPreviewQuerySchema.parse({})).toEqual({
      statuses: ['expired'],
      olderThanDays: 30,
      excludeWithLocker: true,
    });
    expect(cleanupPreviewQuerySchema.safeParse({ olderThanDays: '400' }).success).toBe(false);
    expect(cleanupPreviewQuerySchema.safeParse({ statuses: 'expired,bogus' }).success).toBe(false);
    expect(cleanupExecuteRequestSchema.safeParse({}).success).toBe(false);
  });

  it('reads locker actions with the id as a number or digits', () => {
    expect(lockerActionRequestSchema.parse({ location: 'oca', lockerId: '7' }).lockerId).toBe(7);
    expect(lockerActionRequestSchema.safeParse({ location: 'oca', lockerId: 'seven' }).success).toBe(false);
    expect(lockerActionRequestSchema.safeParse({ location: 'oca', lockerId: -1 }).success).toBe(false);
  });

  it('reads location changes without defaulting omitted fields', () => {
    expect(updateLocationRequestSchema.parse({ nome: 'Nuovo nome' })).toEqual({ nome: 'Nuovo nome' });
    expect(updateLocationRequestSchema.safeParse({ timezone: 'Mars/Olympus' }).success).toBe(false);
    const { key: _key, ...withoutKey } = SEED_LOCATIONS[0];
    expect(createLocationRequestSchema.safeParse(withoutKey).success).toBe(true);
    expect(createLocationRequestSchema.safeParse({ ...withoutKey, id: 'all' }).success).toBe(false);
    expect(
      updateLockerStructureRequestSchema.safeParse([
        { key: 'oca', lockerStructure: { standard: 10, large: 4 } },
      ]).success,
    ).toBe(true);
    expect(
      updateLockerStructureRequestSchema.safeParse([
        { key: 'oca', lockerStructure: { standard: -1, large: 4 } },
      ]).success,
    ).toBe(false);
    expect(duplicateStructureRequestSchema.safeParse({ sourceKey: 'oca', targetKey: 'oca' }).success).toBe(
      false,
    );
  });

  it('reads takings filters and user ids from strings', () => {
    expect(takingsQuerySchema.safeParse({ month: '2026-06', location: 'all' }).success).toBe(true);
    expect(takingsQuerySchema.safeParse({ month: '2026-13', location: 'all' }).success).toBe(false);
    expect(adminUserParamsSchema.parse({ id: '12' }).id).toBe(12);
    expect(adminUserParamsSchema.safeParse({ id: 'abc' }).success).toBe(false);
  });
});

describe('errors', () => {
  it('give each code an HTTP status the handler can send', () => {
    for (const [code, { status }] of Object.entries(ERROR_CODES)) {
      expect(status, code).toBeGreaterThanOrEqual(200);
      expect(status, code).toBeLessThan(600);
    }
    expect(httpStatusOf('BOOKING_NOT_FOUND')).toBe(404);
    expect(httpStatusOf('NO_PARAMS')).toBe(400);
    expect(httpStatusOf('NO_TRANSACTION_ID')).toBe(400);
    expect(httpStatusOf('validation/invalid_body')).toBe(400);
    expect(httpStatusOf('booking/locker_unavailable')).toBe(409);
    expect(httpStatusOf('auth/unauthorized')).toBe(401);
    expect(httpStatusOf('auth/too_many_attempts')).toBe(429);
    expect(httpStatusOf('location/not_found')).toBe(404);
    expect(httpStatusOf('bridge/offline')).toBe(503);
    expect(httpStatusOf('bridge/timeout')).toBe(504);
    expect(httpStatusOf('payment/provider_error')).toBe(502);
    expect(httpStatusOf('internal')).toBe(500);
  });

  it('build and parse the error body', () => {
    const body = errorBody('validation/invalid_body', undefined, [{ path: 'quantita', message: 'Too big' }]);
    expect(errorBodySchema.parse(body)).toEqual({
      error: {
        code: 'validation/invalid_body',
        message: 'The request body is not valid',
        details: [{ path: 'quantita', message: 'Too big' }],
      },
    });
    expect(errorBodySchema.safeParse({ error: 'Credenziali non valide' }).success).toBe(false);
    expect(isErrorCode('BOOKING_EXPIRED')).toBe(true);
    expect(isErrorCode('toString')).toBe(false);
  });
});
