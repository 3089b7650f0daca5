import { z } from 'zod';
import { lockerFullStateSchema } from '../schemas/locker';
import { zIsoDateTime, zLocationKey } from '../schemas/primitives';

// The operators' live locker grid (issue 17): `GET /api/admin/live/lockers?location=<key>` answers
// a Server-Sent Events stream (admin session required), not JSON, so it is not in the route
// catalogue. Each `lockers` event carries the whole state of the site's grid as this schema says;
// a new one is sent whenever anything in it changes (a door, an occupation, a booking, the bridge
// going offline), checked every second. EventSource reconnects by itself after a drop.

export const LIVE_LOCKERS_PATH = '/api/admin/live/lockers';
/** The SSE event name of a grid state. */
export const LIVE_LOCKERS_EVENT = 'lockers';

export const liveLockerSchema = lockerFullStateSchema.extend({
  /** The controller reports the door open. */
  doorOpen: z.boolean().optional(),
  /** When the bridge last observed this locker's state; absent when it never has. */
  observedAt: zIsoDateTime.optional(),
  /**
   * What the tile shows may no longer be true: the site's bridge is offline (last known state), or
   * the bridge has never reported this locker (state from our bookings only).
   */
  stale: z.boolean(),
});
export type LiveLocker = z.infer<typeof liveLockerSchema>;

export const liveLockersStateSchema = z.object({
  location: zLocationKey,
  /** The site's edge bridge is connected and answering (to any cloud process). */
  online: z.boolean(),
  /** The last time the cloud heard from the site's bridge; null when it never has. */
  lastSeenAt: zIsoDateTime.nullable(),
  /** When this state was computed. */
  at: zIsoDateTime,
  lockers: z.array(liveLockerSchema).max(1000),
});
export type LiveLockersState = z.infer<typeof liveLockersStateSchema>;
