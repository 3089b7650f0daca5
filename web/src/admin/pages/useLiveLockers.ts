import {
  LIVE_LOCKERS_EVENT,
  LIVE_LOCKERS_PATH,
  liveLockersStateSchema,
  type LiveLockersState,
} from '@deposito/protocol';
import { useEffect, useRef, useState } from 'react';

/** `live`: events arrive; `connecting`: opening or reopening after a drop (EventSource retries by itself). */
export type LiveConnection = 'off' | 'connecting' | 'live';

/**
 * Follows a site's locker grid over the cloud's live stream (protocol/src/api/live.ts): `onState`
 * gets every state the stream sends. The session cookie goes with it (same origin). Without
 * EventSource (old browsers, tests) the page keeps its manual refresh. When the browser stops
 * retrying (the cloud refused the stream: the session ended, which also ends an open stream),
 * `onGaveUp` runs, so the page can read the grid itself and meet the sign-in.
 */
export function useLiveLockers(
  locationKey: string,
  onState: (state: LiveLockersState) => void,
  onGaveUp: () => void = () => {},
): LiveConnection {
  const [connection, setConnection] = useState<LiveConnection>('off');
  const latest = useRef(onState);
  const gaveUp = useRef(onGaveUp);
  useEffect(() => {
    latest.current = onState;
    gaveUp.current = onGaveUp;
  }, [onState, onGaveUp]);

  useEffect(() => {
    if (!locationKey || typeof EventSource === 'undefined') {
      setConnection('off');
      return;
    }
    setConnection('connecting');
    const source = new EventSource(`${LIVE_LOCKERS_PATH}?location=${encodeURIComponent(locationKey)}`);
    source.addEventListener(LIVE_LOCKERS_EVENT, (event) => {
      const parsed = liveLockersStateSchema.safeParse(JSON.parse((event as MessageEvent<string>).data));
      if (!parsed.success || parsed.data.location !== locationKey) return;
      setConnection('live');
      latest.current(parsed.data);
    });
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED) {
        setConnection('connecting');
        return;
      }
      setConnection('off');
      gaveUp.current();
    });
    return () => {
      source.close();
      setConnection('off');
    };
  }, [locationKey]);
  return connection;
}
