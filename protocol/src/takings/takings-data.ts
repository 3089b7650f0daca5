import { DateTime } from 'luxon';
import { centsToEuros, eurosToCents } from '../pricing/money';
import { z } from 'zod';
import { zEuros, zLocationKey, zSignedEuros } from '../schemas/primitives';
import { takingsDayLabelSchema } from './month';
import {
  buildMonthlyTakingsReport,
  totemMissingReasonSchema,
  type DailyAmountsByLocation,
  type ExcludedTestBookings,
  type MonthlyTakingsReport,
  type TakingsLocation,
} from './monthly-takings';

/**
 * One day's takings in euros as the spec's data carries them: a plain number (online only, the
 * older shape) or the split, where a missing total is online plus totem. Ours beside the spec's:
 * `refunds`, the payments given back that day, already taken off `online` and `total` (which can
 * then be negative).
 */
export const takingsDayAmountSchema = z.union([
  zEuros,
  z.object({
    online: zSignedEuros,
    totem: zEuros,
    total: zSignedEuros.optional(),
    refunds: zEuros.optional(),
  }),
]);
export type TakingsDayAmount = z.infer<typeof takingsDayAmountSchema>;

/** The spec's takings data: location key → day (`dd/MM/yyyy`) → takings in euros (admin spec §3). */
export const takingsDataSchema = z.record(
  zLocationKey,
  z.record(takingsDayLabelSchema, takingsDayAmountSchema),
);
export type TakingsData = z.infer<typeof takingsDataSchema>;

/**
 * Ours, beside the spec's data: a location whose kiosk (totem) payments of the month could not be
 * read, and why. Its totem and total amounts in the data lack them: the month is incomplete there.
 */
export const takingsTotemMissingSchema = z.object({
  location: zLocationKey,
  reason: totemMissingReasonSchema,
});
export type TakingsTotemMissing = z.infer<typeof takingsTotemMissingSchema>;

/**
 * Ours, beside the spec's data: a location's test bookings (made by an operator) of the month that
 * would otherwise count as online takings — how many, and their discounted price in euros. They are
 * not in the data's amounts.
 */
export const takingsTestBookingsSchema = z.object({ count: z.int().min(0).max(1_000_000), amount: zEuros });
export type TakingsTestBookings = z.infer<typeof takingsTestBookingsSchema>;

/** What the figures leave out, as the takings answer carries it beside `data`. */
export interface TakingsCaveats {
  totemMissing: TakingsTotemMissing[];
  testBookings: Record<string, TakingsTestBookings>;
}

export interface NormalisedDayTakings {
  onlineCents: number;
  refundCents: number;
  totemCents: number;
  totalCents: number;
}

/** The spec's takings data (validated with `takingsDataSchema`) → location key → ISO day (`yyyy-MM-dd`) → amounts in integer cents. */
export function normaliseTakingsData(data: unknown): Record<string, Record<string, NormalisedDayTakings>> {
  const parsed = takingsDataSchema.parse(data);
  return Object.fromEntries(
    Object.entries(parsed).map(([locationKey, days]) => [
      locationKey,
      Object.fromEntries(
        Object.entries(days).map(([label, value]) => {
          const isoDate = DateTime.fromFormat(label, 'dd/MM/yyyy').toISODate()!;
          if (typeof value === 'number') {
            const cents = eurosToCents(value);
            return [isoDate, { onlineCents: cents, refundCents: 0, totemCents: 0, totalCents: cents }];
          }
          const onlineCents = eurosToCents(value.online);
          const totemCents = eurosToCents(value.totem);
          const refundCents = value.refunds === undefined ? 0 : eurosToCents(value.refunds);
          const totalCents = value.total === undefined ? onlineCents + totemCents : eurosToCents(value.total);
          return [isoDate, { onlineCents, refundCents, totemCents, totalCents }];
        }),
      ),
    ]),
  );
}

/**
 * The report for takings data received in the spec's shape (e.g. by the admin page from the API).
 * Locations present in the data but not listed are added after the listed ones, named by key.
 */
export function monthlyTakingsFromData(input: {
  month: string;
  locations: readonly TakingsLocation[];
  data: unknown;
  /** The answer's `totemMissing` and `testBookings`, when it has them. */
  caveats?: Partial<TakingsCaveats>;
}): MonthlyTakingsReport {
  const normalised = normaliseTakingsData(input.data);
  const totemMissing = z.array(takingsTotemMissingSchema).parse(input.caveats?.totemMissing ?? []);
  const testBookings = z
    .record(zLocationKey, takingsTestBookingsSchema)
    .parse(input.caveats?.testBookings ?? {});
  const listed = new Set(input.locations.map((location) => location.key));
  const unlisted = new Set(
    [
      ...Object.keys(normalised),
      ...totemMissing.map((missing) => missing.location),
      ...Object.keys(testBookings),
    ].filter((key) => !listed.has(key)),
  );
  const locations = [...input.locations, ...[...unlisted].map((key) => ({ key, name: key }))];
  const daily: DailyAmountsByLocation = new Map(
    Object.entries(normalised).map(([key, days]) => [key, new Map(Object.entries(days))]),
  );
  return buildMonthlyTakingsReport(input.month, locations, daily, {
    totemMissing: Object.fromEntries(totemMissing.map((missing) => [missing.location, missing.reason])),
    testBookings: new Map(
      Object.entries(testBookings).map(([key, tests]): [string, ExcludedTestBookings] => [
        key,
        { count: tests.count, cents: eurosToCents(tests.amount) },
      ]),
    ),
  });
}

/** The report in the spec's data shape, euros with the full split, for the API answer. */
export function takingsDataFromReport(report: MonthlyTakingsReport): TakingsData {
  return Object.fromEntries(
    report.locations.map((location) => [
      location.key,
      Object.fromEntries(
        location.days.map((day) => [
          day.label,
          {
            online: centsToEuros(day.onlineCents),
            totem: centsToEuros(day.totemCents),
            total: centsToEuros(day.totalCents),
            ...(day.refundCents > 0 ? { refunds: centsToEuros(day.refundCents) } : {}),
          },
        ]),
      ),
    ]),
  );
}

/** The report's caveats in the answer's shape: kiosks that could not be read, test bookings kept out. */
export function takingsCaveatsFromReport(report: MonthlyTakingsReport): TakingsCaveats {
  return {
    totemMissing: report.locations.flatMap((location) =>
      location.totemMissing ? [{ location: location.key, reason: location.totemMissing.reason }] : [],
    ),
    testBookings: Object.fromEntries(
      report.locations
        .filter((location) => location.testBookings.count > 0)
        .map((location) => [
          location.key,
          { count: location.testBookings.count, amount: centsToEuros(location.testBookings.cents) },
        ]),
    ),
  };
}
