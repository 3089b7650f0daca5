import { z } from 'zod';
import { TEXT_LIMITS, zLocationKey, zTransactionId } from '../schemas/index';

/** The answer of a call whose result the spec does not show: it worked, maybe with a note. */
export const okResponseSchema = z.object({
  success: z.literal(true),
  message: z.string().max(TEXT_LIMITS.message).optional(),
});
export type OkResponse = z.infer<typeof okResponseSchema>;

/** A page the browser shows in the top window (payment calls). */
export const htmlPageSchema = z.string().max(500_000);

/** The admin tools' envelope: `{ success, data, error }` (cleanup). */
export function adminEnvelopeSchema<Data extends z.ZodType>(data: Data) {
  return z.object({
    success: z.boolean(),
    data: data.optional(),
    error: z.string().max(TEXT_LIMITS.message).optional(),
  });
}

/** `?location={key}` */
export const locationQuerySchema = z.object({ location: zLocationKey });
/** `/:location` */
export const locationParamsSchema = z.object({ location: zLocationKey });
/** `/:transactionId` */
export const transactionParamsSchema = z.object({ transactionId: zTransactionId });
