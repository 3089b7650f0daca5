import { DateTime } from 'luxon';
import { takingsMonthSchema } from './month';

// Written out rather than taken from Intl so the names never depend on the ICU data of the machine.
export const ITALIAN_WEEKDAYS = [
  'Lunedì',
  'Martedì',
  'Mercoledì',
  'Giovedì',
  'Venerdì',
  'Sabato',
  'Domenica',
] as const;

export const ITALIAN_MONTHS = [
  'Gennaio',
  'Febbraio',
  'Marzo',
  'Aprile',
  'Maggio',
  'Giugno',
  'Luglio',
  'Agosto',
  'Settembre',
  'Ottobre',
  'Novembre',
  'Dicembre',
] as const;

function parseIsoDate(isoDate: string): DateTime {
  const day = DateTime.fromISO(isoDate, { zone: 'UTC' });
  if (!day.isValid || !/^\d{4}-\d{2}-\d{2}$/.test(isoDate))
    throw new RangeError(`Not an ISO date: ${isoDate}`);
  return day;
}

/** `'2026-07-13'` → `'Lunedì'`. */
export function italianWeekdayName(isoDate: string): string {
  return ITALIAN_WEEKDAYS[parseIsoDate(isoDate).weekday - 1];
}

/** `'2026-07-13'` → `'13/07/2026'`, the day format of the takings page and data. */
export function takingsDayLabel(isoDate: string): string {
  return parseIsoDate(isoDate).toFormat('dd/MM/yyyy');
}

/** `'2026-07'` → `'Luglio'`. */
export function italianMonthName(month: string): string {
  return ITALIAN_MONTHS[Number(takingsMonthSchema.parse(month).slice(5, 7)) - 1];
}

/** `'2026-07'` → `'LUGLIO 2026'`, as printed in the PDF title. */
export function italianMonthTitle(month: string): string {
  return `${italianMonthName(month).toUpperCase()} ${month.slice(0, 4)}`;
}
