import * as z from 'zod/mini';
import { VISITOR_CANCELLATION_POLICIES } from '@deposito/protocol/booking/cancellation-policy-names';
import type { ApiRoute, RouteResponse } from '@deposito/protocol/api/route';
import type { locationRoutes } from '@deposito/protocol/api/locations';
import type { settingsRoutes } from '@deposito/protocol/api/settings';
import {
  DURATION_KEY_PATTERN,
  LOCATION_KEY_MAX_LENGTH,
  LOCATION_KEY_PATTERN,
  LOCATION_TIMEZONES,
  MAX_BLOCK_WINDOWS,
  MAX_DIMENSIONS_LENGTH,
  MAX_EUROS,
  MAX_PRICE_ROWS,
  RESERVED_LOCATION_KEYS,
  TEXT_LIMITS,
  TIME_OF_DAY_PATTERN,
  TWO_DECIMALS_REFINEMENT,
  hasAtMostTwoDecimals,
} from '@deposito/protocol/schemas/limits';

// The two answers /{location} needs before it can show anything, checked with zod/mini: protocol's
// full schemas bring zod's method-rich classes and every schema of their modules, which would
// double the page's first download. These mirror protocol's publicLocationSchema and
// frontendOverridesSchema with the same limits and patterns; the route types below stop compiling
// when the parsed types drift apart, and location-answers.node.test.ts holds both to the same verdicts.

const timeOfDay = z.string().check(z.regex(TIME_OF_DAY_PATTERN));
const timeWindow = z.object({ from: timeOfDay, to: timeOfDay });
const euros = z
  .number()
  .check(
    z.minimum(0),
    z.maximum(MAX_EUROS),
    z.multipleOf(0.01),
    z.refine(hasAtMostTwoDecimals, TWO_DECIMALS_REFINEMENT),
  );
const priceMap = z
  .record(z.string().check(z.regex(DURATION_KEY_PATTERN)), euros)
  .check(z.refine((map) => Object.keys(map).length <= MAX_PRICE_ROWS));
const pricesBySize = z.object({ standard: priceMap, large: priceMap });

export const publicLocationAnswer = z.object({
  key: z.string().check(
    z.maxLength(LOCATION_KEY_MAX_LENGTH),
    z.regex(LOCATION_KEY_PATTERN),
    z.refine((key) => !(RESERVED_LOCATION_KEYS as readonly string[]).includes(key)),
  ),
  nome: z.string().check(z.trim(), z.minLength(1), z.maxLength(TEXT_LIMITS.name)),
  indirizzo: z.string().check(z.trim(), z.maxLength(TEXT_LIMITS.address)),
  timezone: z.enum(LOCATION_TIMEZONES),
  orari: z.object({ apertura: timeOfDay, chiusura: timeOfDay }),
  hourlyPrices: pricesBySize,
  dailyPrices: pricesBySize,
  manutenzione: z.optional(z.boolean()),
});

const blockWindows = z.array(timeWindow).check(z.maxLength(MAX_BLOCK_WINDOWS));

export const frontendOverridesAnswer = z.object({
  showNightButtonTest: z.boolean(),
  ALWAYS_SHOW_FAST_TRACK: z.boolean(),
  fastTrackHours: timeWindow,
  BLOCK_WINDOWS: blockWindows,
  block_windows: z.optional(blockWindows),
  MAINTENANCE_MODE: z.boolean(),
  cancellationPolicy: z.optional(z.enum(VISITOR_CANCELLATION_POLICIES)),
  lockerDimensions: z.optional(
    z.object({
      standard: z.string().check(z.maxLength(MAX_DIMENSIONS_LENGTH)),
      large: z.string().check(z.maxLength(MAX_DIMENSIONS_LENGTH)),
    }),
  ),
});

/** The type spelled out field by field, so two equal types compare equal however they were built. */
type Plain<T> = T extends object ? { [K in keyof T]: Plain<T[K]> } : T;
/** True only when A and B are the same type, optional fields and nesting included. */
type Same<A, B> =
  (<T>() => T extends Plain<A> ? 1 : 2) extends <T>() => T extends Plain<B> ? 1 : 2 ? true : false;

/** Method and path of a protocol route with a mini schema whose parsed type is exactly the route's answer. */
type PageRoute<Route extends ApiRoute, Answer extends z.ZodMiniType> =
  Same<z.output<Answer>, RouteResponse<Route>> extends true
    ? { method: Route['method']; path: Route['path']; answer: Answer }
    : never;

export const publicLocationRoute: PageRoute<
  typeof locationRoutes.publicLocation,
  typeof publicLocationAnswer
> = { method: 'GET', path: '/api/locations/:location', answer: publicLocationAnswer };

export const frontendOverridesRoute: PageRoute<
  typeof settingsRoutes.frontendOverrides,
  typeof frontendOverridesAnswer
> = { method: 'GET', path: '/api/admin/frontend-overrides', answer: frontendOverridesAnswer };
