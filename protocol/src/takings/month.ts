import { DateTime } from 'luxon';
import { z } from 'zod';
import { DEFAULT_TIMEZONE } from '../schemas/primitives';

/** A calendar month `yyyy-MM`, as the takings page and the totem proceeds call use it. */
export const takingsMonthSchema = z.string().regex(/^\d{4}-(?:0[1-9]|1[0-2])$/, 'Expected a month yyyy-MM');

/** A day as the takings data keys it: `dd/MM/yyyy`, and a real date. */
export const takingsDayLabelSchema = z
  .string()
  .regex(/^(?:0[1-9]|[12]\d|3[01])\/(?:0[1-9]|1[0-2])\/\d{4}$/, 'Expected a date dd/MM/yyyy')
  .refine((label) => DateTime.fromFormat(label, 'dd/MM/yyyy').isValid, 'Not a real date');

function monthStart(month: string, zone: string): DateTime {
  const start = DateTime.fromFormat(takingsMonthSchema.parse(month), 'yyyy-MM', { zone });
  if (!start.isValid) throw new RangeError(`Invalid zone for takings: ${zone}`);
  return start;
}

/**
 * The UTC instants bounding a month as lived in `zone`: `[fromUtc, toUtc)`.
 * The store uses it to select the bookings created in the month at a location.
 */
export function monthBoundsUtc(
  month: string,
  zone: string = DEFAULT_TIMEZONE,
): { fromUtc: string; toUtc: string } {
  const start = monthStart(month, zone);
  return {
    fromUtc: start.toUTC().toISO({ suppressMilliseconds: true })!,
    toUtc: start.plus({ months: 1 }).toUTC().toISO({ suppressMilliseconds: true })!,
  };
}

/** The month containing `instant` in `zone`, as `yyyy-MM` (the takings page's default month). */
export function monthOf(instant: Date, zone: string = DEFAULT_TIMEZONE): string {
  return DateTime.fromJSDate(instant, { zone }).toFormat('yyyy-MM');
}
