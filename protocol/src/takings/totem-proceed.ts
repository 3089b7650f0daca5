import { z } from 'zod';
import { centsToEuros } from '../pricing/money';
import { zCents, zIsoDateTime, zLockerNumber } from '../schemas/primitives';
import type { TotemRevenueRecord } from '../schemas/takings';

/**
 * One payment taken by a location's kiosk (totem), as the cloud holds it after reading the
 * Promotec service: the instant with its offset, money in integer cents.
 * `initial` pays a rental at the kiosk, `supplement` pays an overstay on a locker already in use.
 */
export const totemProceedSchema = z.object({
  type: z.enum(['initial', 'supplement']),
  date: zIsoDateTime,
  /** Amount taken, VAT included. */
  amountCents: zCents,
  lockerId: zLockerNumber,
  billNo: z.string().min(1).max(40),
  /** Discount already deducted from `amountCents`. */
  discountCents: zCents,
});

export type TotemProceed = z.infer<typeof totemProceedSchema>;

/** What the sums need of a kiosk payment: when (ISO 8601 with offset) and how much (cents, VAT included). */
export const totemTakingSchema = totemProceedSchema.pick({ date: true, amountCents: true });

export type TotemTaking = z.infer<typeof totemTakingSchema>;

/** A kiosk payment in the spec's record shape (euros), as `GET /api/admin/promotec/proceeds` answers it. */
export function toTotemRevenueRecord(proceed: TotemProceed): TotemRevenueRecord {
  return {
    date: proceed.date,
    amount: centsToEuros(proceed.amountCents),
    locker: proceed.lockerId,
    billNo: proceed.billNo,
    discount: centsToEuros(proceed.discountCents),
  };
}
