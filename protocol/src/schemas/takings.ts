import { z } from 'zod';
import { zEuros, zIsoDateTime, zLockerNumber } from './primitives';

// The takings data shape (location → dd/MM/yyyy → amounts) lives with its rules in ../takings.

/**
 * One payment taken by a totem (self-service kiosk) as `GET /api/admin/promotec/proceeds`
 * answers it (admin spec §3): euros on the wire, as the spec's record carries them.
 */
export const totemRevenueRecordSchema = z.object({
  date: zIsoDateTime,
  /** Total including VAT, euros. */
  amount: zEuros,
  locker: zLockerNumber.nullable(),
  billNo: z.string().max(40),
  discount: zEuros,
});
export type TotemRevenueRecord = z.infer<typeof totemRevenueRecordSchema>;
