import { adminOf, adminTokenOf } from '../../auth/require-admin';
import type { AdminIdentity } from '../../services/auth.service';
import {
  LIVE_LOCKERS_EVENT,
  liveLockersStateSchema,
  zLocationKey,
  type LiveLocker,
  type LiveLockersState,
} from '@deposito/protocol';
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { Clock } from '../../clock';
import { AppError } from '../../errors';
import type { LockerControl } from '../../services/locker-control';

// The operators' live locker grid over Server-Sent Events (protocol/src/api/live.ts): the state is
// computed every second from the store (so a door or a bridge seen by another cloud process shows
// too) and sent when it differs from what this stream sent last. A comment line every 15 s keeps
// proxies from closing a quiet stream.

/** How often each open stream recomputes its site's state. */
export const LIVE_INTERVAL_MS = 1_000;
const KEEPALIVE_MS = 15_000;

const liveQuerySchema = z.object({ location: zLocationKey });

/** What a change is judged on: not the time of computing, nor the heartbeat of an online bridge. */
function comparable(state: LiveLockersState): string {
  return JSON.stringify({ ...state, at: '', lastSeenAt: state.online ? '' : state.lastSeenAt });
}

export interface LiveLockerStreams {
  handler(req: Request, res: Response): Promise<void>;
  /** Ends every open stream (the process is draining: browsers reconnect to another one). */
  closeAll(): void;
  readonly openCount: number;
}

/** Whether the stream's session still holds: the admin area's sign-in, without counting as a use. */
export interface LiveSessionCheck {
  stillAuthenticated(token: string): Promise<AdminIdentity | null>;
}

export function liveLockerStreams(
  lockerControl: LockerControl,
  clock: Clock,
  sessions: LiveSessionCheck,
  intervalMs = LIVE_INTERVAL_MS,
): LiveLockerStreams {
  const open = new Set<() => void>();

  async function stateOf(location: string): Promise<LiveLockersState> {
    const [lockers, site] = await Promise.all([
      lockerControl.fullState(location),
      lockerControl.siteStatus(location),
    ]);
    return liveLockersStateSchema.parse({
      location,
      online: site.online,
      lastSeenAt: site.lastSeenAt?.toISOString() ?? null,
      at: clock.now().toISOString(),
      lockers: lockers.map((locker): LiveLocker => {
        const observed = locker as LiveLocker;
        return {
          ...locker,
          doorOpen: observed.doorOpen,
          observedAt: observed.observedAt,
          stale: !site.online || observed.observedAt === undefined,
        };
      }),
    });
  }

  return {
    get openCount() {
      return open.size;
    },
    closeAll() {
      for (const close of [...open]) close();
    },
    async handler(req, res) {
      const parsed = liveQuerySchema.safeParse(req.query);
      if (!parsed.success)
        throw new AppError('validation/invalid_query', 'location: a location key is required');
      const { location } = parsed.data;
      // A site operator or technician follows only their own sites (auth/roles.ts).
      const { sites } = adminOf(res);
      if (sites && !sites.includes(location)) throw new AppError('auth/forbidden');
      const token = adminTokenOf(res);
      // The first state is computed before the stream opens: an unknown location is a plain 404.
      let sent = await stateOf(location);
      res.status(200).set({
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        // nginx and similar proxies would otherwise hold the events back.
        'X-Accel-Buffering': 'no',
      });
      res.flushHeaders();
      const send = (state: LiveLockersState) =>
        res.write(`event: ${LIVE_LOCKERS_EVENT}\ndata: ${JSON.stringify(state)}\n\n`);
      send(sent);

      let busy = false;
      let lastWriteAt = Date.now();
      const timer = setInterval(() => {
        if (busy) return;
        busy = true;
        // Signed out, expired, or ended by an administrator (a new password, the account removed):
        // the stream ends with its session (the browser's retry then meets the sign-in).
        Promise.all([stateOf(location), sessions.stillAuthenticated(token)])
          .then(([state, identity]) => {
            if (!identity) {
              close();
              return;
            }
            const changed = comparable(state) !== comparable(sent);
            if (changed) {
              sent = state;
              send(state);
              lastWriteAt = Date.now();
            } else if (Date.now() - lastWriteAt >= KEEPALIVE_MS) {
              res.write(': keepalive\n\n');
              lastWriteAt = Date.now();
            }
          })
          .catch(() => {
            // A store hiccup: the next tick tries again; the grid keeps its last state meanwhile.
          })
          .finally(() => (busy = false));
      }, intervalMs);
      const close = () => {
        clearInterval(timer);
        open.delete(close);
        if (!res.writableEnded) res.end();
      };
      open.add(close);
      req.on('close', close);
    },
  };
}
