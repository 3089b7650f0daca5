import { z } from 'zod';
import type { DayTakings } from './monthly-takings';

/** The four orders of the daily list's "Ordina per" selector; newest first is the default. */
export const takingsSortOrderSchema = z.enum(['date-desc', 'date-asc', 'amount-desc', 'amount-asc']);

export type TakingsSortOrder = z.infer<typeof takingsSortOrderSchema>;

export const DEFAULT_TAKINGS_SORT_ORDER: TakingsSortOrder = 'date-desc';

export const TAKINGS_SORT_LABELS: Record<TakingsSortOrder, string> = {
  'date-desc': 'Data (più recente)',
  'date-asc': 'Data (meno recente)',
  'amount-desc': 'Incasso (più alto)',
  'amount-asc': 'Incasso (più basso)',
};

const byDateAsc = (a: DayTakings, b: DayTakings) => a.date.localeCompare(b.date);

// Equal takings fall back to newest first so the order never depends on the input's order.
const comparators: Record<TakingsSortOrder, (a: DayTakings, b: DayTakings) => number> = {
  'date-desc': (a, b) => byDateAsc(b, a),
  'date-asc': byDateAsc,
  'amount-desc': (a, b) => b.totalCents - a.totalCents || byDateAsc(b, a),
  'amount-asc': (a, b) => a.totalCents - b.totalCents || byDateAsc(b, a),
};

/** A sorted copy of a daily list. */
export function sortTakingsDays<Day extends DayTakings>(
  days: readonly Day[],
  order: TakingsSortOrder = DEFAULT_TAKINGS_SORT_ORDER,
): Day[] {
  return [...days].sort(comparators[order]);
}
