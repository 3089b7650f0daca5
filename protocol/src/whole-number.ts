/**
 * The number a setting's text names when it is a whole number written in decimal digits (blanks
 * around it allowed), else null. `Number()` alone took a blank as 0, and `1e3` or `0x50` as numbers.
 * The cloud's and the edge bridge's environment variables read their numbers through it.
 */
export function wholeNumberOf(text: string): number | null {
  const digits = text.trim();
  return /^\d{1,15}$/.test(digits) ? Number(digits) : null;
}
