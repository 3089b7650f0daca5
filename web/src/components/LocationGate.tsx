import { useEffect, useState, type ReactNode } from 'react';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import { loadFrontendOverrides, loadLocation } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { ErrorScreen, LoadingScreen, MaintenanceScreen } from './StatusScreens';
import { bookingsPaused } from './bookings-paused';
import { useClock } from './clock';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'unknown' }
  | { kind: 'ready'; location: PublicLocation; overrides: FrontendOverrides };

/** The location and the operators' overrides for it; `unknown`: the key names no location. */
function useLocationWithOverrides(key: string): Loaded {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    let active = true;
    setLoaded({ kind: 'loading' });
    void Promise.allSettled([loadLocation(key), loadFrontendOverrides(key)]).then(([location, overrides]) => {
      if (!active) return;
      if (location.status === 'rejected') {
        const failure: unknown = location.reason;
        const unknown =
          isApiError(failure) &&
          (failure.code === 'location/not_found' || failure.code.startsWith('validation/'));
        setLoaded({ kind: unknown ? 'unknown' : 'failed' });
      } else if (overrides.status === 'rejected') {
        setLoaded({ kind: 'failed' });
      } else {
        setLoaded({ kind: 'ready', location: location.value, overrides: overrides.value });
      }
    });
    return () => {
      active = false;
    };
  }, [key]);
  return loaded;
}

/**
 * What the booking pages load before anything else: the location and the operators' overrides,
 * with the loading, error and maintenance screens until the page itself (`children`) can show;
 * `unknown` is what a key that names no location shows.
 */
export function LocationGate({
  locationKey,
  unknown,
  children,
}: {
  locationKey: string;
  unknown: ReactNode;
  children: (location: PublicLocation, overrides: FrontendOverrides) => ReactNode;
}) {
  const clock = useClock();
  const loaded = useLocationWithOverrides(locationKey);
  if (loaded.kind === 'loading') return <LoadingScreen />;
  if (loaded.kind === 'failed') return <ErrorScreen />;
  if (loaded.kind === 'unknown') return unknown;
  const { location, overrides } = loaded;
  if (bookingsPaused(location, overrides, clock())) return <MaintenanceScreen />;
  return children(location, overrides);
}
