import { z } from 'zod';
import {
  MAX_LOCKERS_PER_SIZE,
  TEXT_LIMITS,
  locationFieldsSchema,
  locationPricingInputSchema,
  locationSchema,
  locationSummarySchema,
  openingHoursSchema,
  publicLocationSchema,
  zLocationKey,
  zEditVersion,
  zTimezone,
} from '../schemas/index';
import { locationParamsSchema, okResponseSchema } from './common';
import type { ErrorCode } from './errors';
import { defineRoute } from './route';

/** More locations than a business this size will run; bounds the bulk bodies. */
const MAX_LOCATIONS = 100;

export const locationListResponseSchema = z.array(locationSummarySchema).max(MAX_LOCATIONS);

/**
 * The version of the location the page read (optimistic concurrency, `edit/stale`). Our pages always
 * send it; the spec's payloads have none, so a body without it is saved unchecked.
 */
const readVersion = { version: zEditVersion.optional() };

/**
 * The locations to reprice; only key, pricing and version are read (others are stripped). Our page
 * sends only the locations it changed; the server writes only the rows sent.
 */
export const updatePricesRequestSchema = z
  .array(z.object({ key: zLocationKey, pricing: locationPricingInputSchema, ...readVersion }))
  .min(1)
  .max(MAX_LOCATIONS);

export const updateLocationSettingsRequestSchema = z
  .array(z.object({ key: zLocationKey, timezone: zTimezone, orari: openingHoursSchema, ...readVersion }))
  .min(1)
  .max(MAX_LOCATIONS);

const lockerCount = z.number().int().min(0).max(MAX_LOCKERS_PER_SIZE);

/**
 * The settings page edits locker counts, not numbers: the server keeps the existing numbers of a
 * size, drops the highest when the count shrinks and numbers new ones after the location's highest.
 */
export const updateLockerStructureRequestSchema = z
  .array(
    z.object({
      key: zLocationKey,
      lockerStructure: z.object({ standard: lockerCount, large: lockerCount }),
      ...readVersion,
    }),
  )
  .min(1)
  .max(MAX_LOCATIONS);

export const duplicateStructureRequestSchema = z
  .object({ sourceKey: zLocationKey, targetKey: zLocationKey })
  .refine((body) => body.sourceKey !== body.targetKey, {
    message: 'Source and target must differ',
    path: ['targetKey'],
    params: { code: 'location/same_source_and_target' satisfies ErrorCode },
  });

/** `GET /api/admin/locations`: keyed by id. `GET /api/system/admin/locations-full`: keyed by key. */
export const locationsByIdResponseSchema = z.record(zLocationKey, locationSchema);

/** A new location; the key defaults to the id (admin spec §5). */
export const createLocationRequestSchema = locationSchema.extend({
  key: zLocationKey.optional(),
  pricing: locationPricingInputSchema,
});

/** Any subset of a location's fields; the id cannot change. */
export const updateLocationRequestSchema = locationFieldsSchema
  .omit({ id: true })
  .extend({ pricing: locationPricingInputSchema })
  .partial();

export const locationIdParamsSchema = z.object({ id: zLocationKey });
export const locationKeyParamsSchema = z.object({ key: zLocationKey });

export const locationResponseSchema = z.object({ success: z.literal(true), location: locationSchema });

/** A new bridge token for a location, shown once; the previous token stops working. */
export const bridgeTokenResponseSchema = z.object({ token: z.string().min(32).max(TEXT_LIMITS.token) });

/** Whether a token was there to revoke (false: the site had none; nothing changed). */
export const revokeBridgeTokenResponseSchema = z.object({ revoked: z.boolean() });

export const locationRoutes = {
  publicLocation: defineRoute({
    method: 'GET',
    path: '/api/locations/:location',
    area: 'locations',
    auth: 'public',
    request: { params: locationParamsSchema },
    response: publicLocationSchema,
    summary: "A location's name, address, zone, opening hours and prices, as the booking pages need them",
  }),
  listLocations: defineRoute({
    method: 'GET',
    path: '/api/locations/all',
    area: 'locations',
    auth: 'admin',
    request: {},
    response: locationListResponseSchema,
    summary: 'All locations with structure and prices, without controller settings',
  }),
  updatePrices: defineRoute({
    method: 'POST',
    path: '/api/locations/update-prices',
    area: 'locations',
    auth: 'admin',
    request: { body: updatePricesRequestSchema },
    response: okResponseSchema,
    summary: 'Replace the price tables of the listed locations',
  }),
  updateSettings: defineRoute({
    method: 'POST',
    path: '/api/locations/update-settings',
    area: 'locations',
    auth: 'admin',
    request: { body: updateLocationSettingsRequestSchema },
    response: okResponseSchema,
    summary: 'Set zone and opening hours of the listed locations',
  }),
  updateLockerStructure: defineRoute({
    method: 'POST',
    path: '/api/locations/update-locker-structure',
    area: 'locations',
    auth: 'admin',
    request: { body: updateLockerStructureRequestSchema },
    response: okResponseSchema,
    summary: 'Set how many standard and large lockers the listed locations have',
  }),
  duplicateStructure: defineRoute({
    method: 'POST',
    path: '/api/admin/locations/duplicate-structure',
    area: 'locations',
    auth: 'admin',
    request: { body: duplicateStructureRequestSchema },
    response: okResponseSchema,
    summary: "Copy one location's locker structure to another",
  }),
  adminLocations: defineRoute({
    method: 'GET',
    path: '/api/admin/locations',
    area: 'locations',
    auth: 'admin',
    request: {},
    response: locationsByIdResponseSchema,
    summary: 'Every location with all its fields, keyed by id',
  }),
  createLocation: defineRoute({
    method: 'POST',
    path: '/api/admin/locations',
    area: 'locations',
    auth: 'admin',
    request: { body: createLocationRequestSchema },
    response: locationResponseSchema,
    successStatus: 201,
    summary: 'Create a location',
  }),
  updateLocation: defineRoute({
    method: 'PATCH',
    path: '/api/admin/locations/:id',
    area: 'locations',
    auth: 'admin',
    request: { params: locationIdParamsSchema, body: updateLocationRequestSchema },
    response: locationResponseSchema,
    summary: "Change some of a location's fields",
  }),
  deleteLocation: defineRoute({
    method: 'DELETE',
    path: '/api/admin/locations/:id',
    area: 'locations',
    auth: 'admin',
    request: { params: locationIdParamsSchema },
    response: okResponseSchema,
    summary: 'Delete a location',
  }),
  rotateBridgeToken: defineRoute({
    method: 'POST',
    path: '/api/admin/locations/:key/bridge-token',
    area: 'locations',
    auth: 'admin',
    request: { params: locationKeyParamsSchema },
    response: bridgeTokenResponseSchema,
    summary: "Issue a new token for the location's edge bridge, revoking the old one",
  }),
  revokeBridgeToken: defineRoute({
    method: 'DELETE',
    path: '/api/admin/locations/:key/bridge-token',
    area: 'locations',
    auth: 'admin',
    request: { params: locationKeyParamsSchema },
    response: revokeBridgeTokenResponseSchema,
    summary: "Revoke the location's edge-bridge token without issuing another (a lost or stolen site box)",
  }),
  locationsFull: defineRoute({
    method: 'GET',
    path: '/api/system/admin/locations-full',
    area: 'locations',
    auth: 'admin',
    request: {},
    response: locationsByIdResponseSchema,
    summary: 'Every location with all its fields, keyed by key (takings and connection test)',
  }),
} as const;
