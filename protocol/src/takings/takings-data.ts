import { DateTime } from 'luxon';
import { centsToEuros, eurosToCents } from '../pricing/money';
import { z } from 'zod';
import { zEuros, zLocationKey } from '../schemas/primitives';
import { takingsDayLabelSchema } from './month';
import {
  buildMonthlyTakingsReport,
  type DailyAmountsByLocation,
  type MonthlyTakingsReport,
  type TakingsLocation,
} from './monthly-takings';

/**
 * One day's takings in euros as the spec's data carries them: a plain number (online only, the
 * older shape) or the split, where a missing total is online plus totem.
 */
export const takingsDayAmountSchema = z.union([
  zEuros,
  z.object({ online: zEuros, totem: zEuros, total: zEuros.optional() }),
]);
export type TakingsDayAmount = z.infer<typeof takingsDayAmountSchema>;

/** The spec's takings data: location key → day (`dd/MM/yyyy`) → takings in euros (admin spec §3). */
export const takingsDataSchema = z.record(
  zLocationKey,
  z.record(takingsDayLabelSchema, takingsDayAmountSchema),
);
export type TakingsData = z.infer<typeof takingsDataSchema>;

export interface NormalisedDayTakings {
  onlineCents: number;
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
            return [isoDate, { onlineCents: cents, totemCents: 0, totalCents: cents }];
          }
          const onlineCents = eurosToCents(value.online);
          const totemCents = eurosToCents(value.totem);
          const totalCents = value.total === undefined ? onlineCents + totemCents : eurosToCents(value.total);
          return [isoDate, { onlineCents, totemCents, totalCents }];
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
}): MonthlyTakingsReport {
  const normalised = normaliseTakingsData(input.data);
  const listed = new Set(input.locations.map((location) => location.key));
  const locations = [
    ...input.locations,
    ...Object.keys(normalised)
      .filter((key) => !listed.has(key))
      .map((key) => ({ key, name: key })),
  ];
  const daily: DailyAmountsByLocation = new Map(
    Object.entries(normalised).map(([key, days]) => [key, new Map(Object.entries(days))]),
  );
  return buildMonthlyTakingsReport(input.month, locations, daily);
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
          },
        ]),
      ),
    ]),
  );
}
