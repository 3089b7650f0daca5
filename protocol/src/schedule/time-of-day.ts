// Times of day written HH:mm, without a date or a zone (no date library needed).

const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** True for a 24-hour time of day written HH:mm. */
export function isTimeOfDay(value: unknown): value is string {
  return typeof value === 'string' && TIME_OF_DAY_PATTERN.test(value);
}

/** Minutes since midnight of an HH:mm time. Throws RangeError when malformed. */
export function minutesOfDay(time: string): number {
  const match = typeof time === 'string' ? TIME_OF_DAY_PATTERN.exec(time) : null;
  if (!match) throw new RangeError(`Not a time of day (HH:mm): ${String(time)}`);
  return Number(match[1]) * 60 + Number(match[2]);
}

/** HH:mm for minutes since midnight. */
export function timeOfDay(minutes: number): string {
  const hours = Math.floor(minutes / 60);
  return `${String(hours).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}
