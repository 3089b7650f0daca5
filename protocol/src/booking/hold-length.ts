// How long a hold keeps its lockers (issue 14: anonymous holds renewed every few minutes could keep
// a whole site off sale). A hold nobody has put a name to lasts ANONYMOUS_HOLD_MINUTES at most (or
// BOOKING_EXPIRATION_MINUTES if that is shorter); the visitor's details, given with the payment,
// give it the whole BOOKING_EXPIRATION_MINUTES from when it was made. The pages' own windows are
// shorter still (the daytime summary shows the hold's countdown, the night summary counts 240 s).

export const ANONYMOUS_HOLD_MINUTES = 5;

/** A new hold's length in minutes: short until someone has given their details. */
export function holdMinutes(expirationMinutes: number, named: boolean): number {
  return named ? expirationMinutes : Math.min(expirationMinutes, ANONYMOUS_HOLD_MINUTES);
}

/**
 * When a hold lapses once its visitor is known: BOOKING_EXPIRATION_MINUTES after it was made, or
 * null when it already lapses later than that (a hold moved since is never shortened).
 */
export function namedHoldExpiry(
  hold: { createdAt: Date; expiresAt: Date | null },
  expirationMinutes: number,
): Date | null {
  const expiresAt = new Date(hold.createdAt.getTime() + expirationMinutes * 60_000);
  return hold.expiresAt && expiresAt > hold.expiresAt ? expiresAt : null;
}
