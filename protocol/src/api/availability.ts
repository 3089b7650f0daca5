import { z } from 'zod';
import { sizeCountsSchema, zIsoDate, zIsoDateTime, zLocationKey } from '../schemas/index';
import { defineRoute } from './route';

/** Availability answers cover at most the booking horizon (6 months) plus the longest stay. */
export const MAX_AVAILABILITY_RANGE_DAYS = 200;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A day or an instant: the pages send either for the range bounds. */
const zDayOrInstant = z.union([zIsoDate, zIsoDateTime]);

const rangeIsSensible = (range: { startDate: string; endDate: string }) => {
  const span = Date.parse(range.endDate) - Date.parse(range.startDate);
  return span >= 0 && span <= MAX_AVAILABILITY_RANGE_DAYS * DAY_MS;
};

export const availabilityQuerySchema = z
  .object({ location: zLocationKey, startDate: zDayOrInstant, endDate: zDayOrInstant })
  .refine(rangeIsSensible, {
    message: `endDate must be after startDate, at most ${MAX_AVAILABILITY_RANGE_DAYS} days later`,
    path: ['endDate'],
  });

/** Free lockers per size for each day of the range, keyed `yyyy-MM-dd` in the location's zone. */
export const availabilityByDateSchema = z.record(zIsoDate, sizeCountsSchema);
export type AvailabilityByDate = z.infer<typeof availabilityByDateSchema>;

export const availabilityRoutes = {
  today: defineRoute({
    method: 'GET',
    path: '/api/bookings/availability',
    area: 'availability',
    auth: 'public',
    request: { query: availabilityQuerySchema },
    response: availabilityByDateSchema,
    summary: 'Free lockers per size and day, for a booking starting today',
  }),
  future: defineRoute({
    method: 'GET',
    path: '/api/bookings/future',
    area: 'availability',
    auth: 'public',
    request: { query: availabilityQuerySchema },
    response: availabilityByDateSchema,
    summary: 'Free lockers per size and day, for a booking starting on a later day',
  }),
} as const;
