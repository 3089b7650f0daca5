import { z } from 'zod';
import { zLockerNumber, zLockerSize, zTransactionId } from './primitives';

/**
 * Locker states the admin grid colours (admin spec §4): available green, occupied red,
 * inhibited/blocked/maintenance blue, unknown grey (a state the controller reported that we do not know).
 */
export const LOCKER_STATUSES = [
  'available',
  'occupied',
  'inhibited',
  'blocked',
  'maintenance',
  'unknown',
] as const;
export const zLockerStatus = z.enum(LOCKER_STATUSES);
export type LockerStatus = z.infer<typeof zLockerStatus>;

/** A locker as a visitor's page sees it: no booking reference. */
export const lockerSchema = z.object({
  id: zLockerNumber,
  size: zLockerSize,
  status: zLockerStatus,
});
export type Locker = z.infer<typeof lockerSchema>;

/** A locker's full state for the admin grid; `online` marks an occupation by an online booking. */
export const lockerFullStateSchema = lockerSchema.extend({
  transactionId: zTransactionId.optional(),
  online: z.boolean().optional(),
});
export type LockerFullState = z.infer<typeof lockerFullStateSchema>;
