import { z } from 'zod';
import {
  DEFAULT_TIMEZONE,
  TEXT_LIMITS,
  zEuros,
  zHost,
  zLocationKey,
  zLockerNumber,
  zPort,
  zTimeOfDay,
  zTimezone,
  zEditVersion,
} from './primitives';
import type { ErrorCode } from '../api/errors';
import { DURATION_KEY_PATTERN, MAX_PRICE_ROWS } from './limits';

export const DEFAULT_CONTROLLER_PORT = 11000;

/** Most lockers one location may list per size; far above any real site, low enough to bound a body. */
export const MAX_LOCKERS_PER_SIZE = 500;

/** A duration value as a price-table key: hours (`"3"`) or days (`"1"` … `"15"`). */
export const zDurationKey = z
  .string()
  .regex(DURATION_KEY_PATTERN, 'Expected a whole number of hours or days');

/** Duration → price in euros, e.g. `{ "3": 5, "4": 6.5 }`. */
export const priceMapSchema = z
  .record(zDurationKey, zEuros)
  .refine((map) => Object.keys(map).length <= MAX_PRICE_ROWS, `At most ${MAX_PRICE_ROWS} rows`);
export type PriceMapEuros = z.infer<typeof priceMapSchema>;

/**
 * A price an operator saves: above zero (a free locker is a mistake, not an offer). Read answers keep
 * `priceMapSchema`, so a table stored before this rule still loads and can be corrected.
 */
export const zPriceInput = zEuros.refine((euros) => euros > 0, {
  message: 'Every price must be above zero',
  params: { code: 'location/price_not_positive' satisfies ErrorCode },
});

/** A price table as an operator saves it. */
export const priceMapInputSchema = z
  .record(zDurationKey, zPriceInput)
  .refine((map) => Object.keys(map).length <= MAX_PRICE_ROWS, `At most ${MAX_PRICE_ROWS} rows`);

/** A price table's rows as a form holds them: each duration once, or the later row would overwrite the first. */
export const priceRowsSchema = z
  .array(z.object({ duration: zDurationKey, price: zPriceInput }))
  .max(MAX_PRICE_ROWS)
  .superRefine((rows, ctx) => {
    const seen = new Set<string>();
    rows.forEach((row, index) => {
      if (seen.has(row.duration)) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'duration'],
          message: `The duration ${row.duration} appears twice`,
          params: { code: 'location/duplicate_duration' satisfies ErrorCode, duration: row.duration },
        });
      }
      seen.add(row.duration);
    });
  })
  .transform((rows) => Object.fromEntries(rows.map((row) => [row.duration, row.price])) as PriceMapEuros);

/** One size's price table, split into hours and days (euros on the wire; cents inside the system). */
export const priceTableSchema = z.object({ hours: priceMapSchema, days: priceMapSchema });
export type PriceTableEuros = z.infer<typeof priceTableSchema>;

export const locationPricingSchema = z.object({ standard: priceTableSchema, large: priceTableSchema });
export type LocationPricingEuros = z.infer<typeof locationPricingSchema>;

/** The price tables as an operator saves them (create, edit, Impostazioni Sedi). */
const priceTableInputSchema = z.object({ hours: priceMapInputSchema, days: priceMapInputSchema });
export const locationPricingInputSchema = z.object({
  standard: priceTableInputSchema,
  large: priceTableInputSchema,
});

/** The physical locker numbers of one location; a number belongs to one size only. */
export const lockerStructureSchema = z
  .object({
    standard: z.array(zLockerNumber).max(MAX_LOCKERS_PER_SIZE),
    large: z.array(zLockerNumber).max(MAX_LOCKERS_PER_SIZE),
  })
  .refine(
    ({ standard, large }) => new Set([...standard, ...large]).size === standard.length + large.length,
    'A locker number appears twice',
  );
export type LockerStructure = z.infer<typeof lockerStructureSchema>;

/** How many lockers of each size may be sold online at the same time. */
export const maxOnlineSchema = z.object({
  standard: z.number().int().min(0).max(MAX_LOCKERS_PER_SIZE),
  large: z.number().int().min(0).max(MAX_LOCKERS_PER_SIZE),
});
export type MaxOnline = z.infer<typeof maxOnlineSchema>;

/** Opening hours in the location's zone. */
export const openingHoursSchema = z.object({ apertura: zTimeOfDay, chiusura: zTimeOfDay });
export type OpeningHours = z.infer<typeof openingHoursSchema>;

export const zLocationName = z.string().trim().min(1).max(TEXT_LIMITS.name);
export const zAddress = z.string().trim().max(TEXT_LIMITS.address);

/** The master code the locker controller expects with every call. */
export const zMastercode = z.string().regex(/^[A-Za-z0-9]{1,32}$/, 'Expected 1 to 32 letters or digits');

/** Base path of the controller's web service on recipient:port; operations are appended to it. */
export const zControllerEndpoint = z.string().max(300);

const locationFields = {
  id: zLocationKey,
  key: zLocationKey,
  nome: zLocationName,
  indirizzo: zAddress,
  timezone: zTimezone,
  recipient: zHost,
  port: zPort,
  mastercode: zMastercode,
  lockerStructure: lockerStructureSchema,
  maxOnline: maxOnlineSchema,
  pricing: locationPricingSchema,
  endpoint: zControllerEndpoint,
  orari: openingHoursSchema,
  /** Bookings of this site paused by an operator (issue 17); the other sites keep selling. */
  manutenzione: z.boolean(),
  /** Set by the server on every read; a save sends back the one it read (absent: not checked). */
  version: zEditVersion.optional(),
};

/** Every location field, none defaulted: the base for partial updates, where a default would overwrite. */
export const locationFieldsSchema = z.object(locationFields);

/**
 * A location as the admin area reads and writes it (admin spec §3). `id` is the backend
 * identifier (the object key in `GET /api/admin/locations`), `key` the public slug; they are
 * usually equal. Contains the controller's master code: never send it to a visitor.
 */
export const locationSchema = z.object({
  ...locationFields,
  timezone: zTimezone.default(DEFAULT_TIMEZONE),
  port: zPort.default(DEFAULT_CONTROLLER_PORT),
  endpoint: zControllerEndpoint.default('/'),
  manutenzione: z.boolean().default(false),
});
export type Location = z.infer<typeof locationSchema>;
export type LocationInput = z.input<typeof locationSchema>;

/** Location fields without the controller connection, for lists the admin pages show. */
export const locationSummarySchema = locationSchema.pick({
  key: true,
  nome: true,
  indirizzo: true,
  timezone: true,
  orari: true,
  lockerStructure: true,
  maxOnline: true,
  pricing: true,
  manutenzione: true,
  version: true,
});
export type LocationSummary = z.infer<typeof locationSummarySchema>;

const pricesBySizeSchema = z.object({ standard: priceMapSchema, large: priceMapSchema });

/**
 * What a visitor's page loads for a location (customer spec §3): prices by size then duration,
 * and the zone. No controller settings.
 */
export const publicLocationSchema = z.object({
  key: zLocationKey,
  nome: zLocationName,
  indirizzo: zAddress,
  timezone: zTimezone,
  orari: openingHoursSchema,
  hourlyPrices: pricesBySizeSchema,
  dailyPrices: pricesBySizeSchema,
  /** Bookings of this site are paused (absent from older servers: open). */
  manutenzione: z.boolean().optional(),
});
export type PublicLocation = z.infer<typeof publicLocationSchema>;

/** Connection settings of a location, for the takings page and its connection test (admin spec §3). */
export const locationConnectionSchema = z.object({
  key: zLocationKey,
  name: zLocationName,
  recipient: zHost,
  port: zPort,
});
export type LocationConnection = z.infer<typeof locationConnectionSchema>;

/** Result of testing one location's connection (takings page). */
export const connectionTestResultSchema = z.object({
  key: zLocationKey,
  success: z.boolean(),
  error: z.string().max(TEXT_LIMITS.message).optional(),
});
export type ConnectionTestResult = z.infer<typeof connectionTestResultSchema>;
