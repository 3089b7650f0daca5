// The controller reports each locker as one number; the domain reads it as occupancy plus door.
// zod/mini keeps the bridge daemon small (see ../zod-english-messages.ts).
import * as z from 'zod/mini';
import { useEnglishZodMessages } from '../zod-english-messages';

useEnglishZodMessages();

export const lockerOccupancySchema = z.enum(['free', 'booked', 'inhibited', 'unknown']);
export type LockerOccupancy = z.infer<typeof lockerOccupancySchema>;

export const lockerStateSchema = z.object({ occupancy: lockerOccupancySchema, doorOpen: z.boolean() });
export type LockerState = z.infer<typeof lockerStateSchema>;

const STATE_BY_CODE: Readonly<Record<number, LockerState>> = {
  1: { occupancy: 'free', doorOpen: false },
  2: { occupancy: 'booked', doorOpen: false },
  3: { occupancy: 'inhibited', doorOpen: false },
  6: { occupancy: 'free', doorOpen: true },
  7: { occupancy: 'booked', doorOpen: true },
  8: { occupancy: 'inhibited', doorOpen: true },
};

/** Code a controller uses for a locker it cannot read (any code outside the map means unknown). */
export const UNKNOWN_LOCKER_STATE_CODE = 0;

/** 1 free, 2 booked, 3 inhibited, 6/7/8 the same with the door open, anything else unknown. */
export function lockerStateFromCode(code: number): LockerState {
  return STATE_BY_CODE[code] ?? { occupancy: 'unknown', doorOpen: false };
}

/** The inverse of lockerStateFromCode, for whoever speaks as the controller (the simulator). */
export function lockerStateCode(state: LockerState): number {
  if (state.occupancy === 'unknown') return UNKNOWN_LOCKER_STATE_CODE;
  const base = { free: 1, booked: 2, inhibited: 3 }[state.occupancy];
  return state.doorOpen ? base + 5 : base;
}
