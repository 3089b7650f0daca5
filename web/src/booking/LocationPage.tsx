import { useEffect, useState } from 'react';
import { Navigate, useParams } from 'react-router-dom';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import { loadFrontendOverrides, loadLocation } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { ErrorScreen, LoadingScreen, MaintenanceScreen } from '../components/StatusScreens';
import { bookingsPaused } from '../components/bookings-paused';
import { useClock } from '../components/clock';
import { DaytimeFlow } from './DaytimeFlow';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'unknown' }
  | { kind: 'ready'; location: PublicLocation; overrides: FrontendOverrides };

/** `/{location}`: loads the location and the admin overrides before anything else. */
export function LocationPage() {
  const { location: key = '' } = useParams();
  const clock = useClock();
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

  switch (loaded.kind) {
    case 'loading':
      return <LoadingScreen />;
    case 'failed':
      return <ErrorScreen />;
    case 'unknown':
      // A path that is no location: like any other unknown path, back to the home screen.
      return <Navigate to="/" replace />;
    case 'ready': {
      const { location, overrides } = loaded;
      if (bookingsPaused(location, overrides, clock())) {
        return <MaintenanceScreen />;
      }
      return <DaytimeFlow location={location} overrides={overrides} />;
    }
  }
}
