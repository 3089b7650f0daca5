// Intl formatters per zone, without luxon: the customer pages' first download reads the wall clock
// through here too (daily-windows.ts).

/**
 * One formatter per zone for these options, made on first use and kept: building one costs more than
 * a reading (the server reads per hold, takings per hour of a month). Null for a zone Intl refuses.
 */
export function formatsPerZone(
  locale: string,
  options: Omit<Intl.DateTimeFormatOptions, 'timeZone'>,
): (zone: string) => Intl.DateTimeFormat | null {
  const formats = new Map<string, Intl.DateTimeFormat | null>();
  return (zone) => {
    let format = formats.get(zone);
    if (format === undefined) {
      try {
        format = new Intl.DateTimeFormat(locale, { ...options, timeZone: zone });
      } catch {
        format = null;
      }
      formats.set(zone, format);
    }
    return format;
  };
}
