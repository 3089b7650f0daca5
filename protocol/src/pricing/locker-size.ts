/** The two locker sizes every location offers. Other modules (schemas, api) import the type from here. */
export const LOCKER_SIZES = ['standard', 'large'] as const;
export type LockerSize = (typeof LOCKER_SIZES)[number];

export function isLockerSize(value: unknown): value is LockerSize {
  return typeof value === 'string' && (LOCKER_SIZES as readonly string[]).includes(value);
}
