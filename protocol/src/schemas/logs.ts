import { z } from 'zod';
import { zIsoDateTime, zLocationKey, zLockerNumber } from './primitives';

/** An entry of the error log (admin spec §3). */
export const errorLogEntrySchema = z.object({
  id: z.number().int().min(1),
  timestamp: zIsoDateTime,
  type: z.string().max(80),
  locationKey: zLocationKey.nullable(),
  lockerId: zLockerNumber.nullable(),
  message: z.string().max(4000),
});
export type ErrorLogEntry = z.infer<typeof errorLogEntrySchema>;

/** A line of the server's own process log (the "PM2 Logs" screen): process name and the log text. */
export const processLogEntrySchema = z.object({
  name: z.string().max(120),
  log: z.string().max(16_000),
});
export type ProcessLogEntry = z.infer<typeof processLogEntrySchema>;
