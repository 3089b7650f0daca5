import { Navigate, useParams } from 'react-router-dom';
import { LocationGate } from '../components/LocationGate';
import { DaytimeFlow } from './DaytimeFlow';

/** `/{location}`: loads the location and the admin overrides before anything else. */
export function LocationPage() {
  const { location: key = '' } = useParams();
  return (
    // A path that is no location: like any other unknown path, back to the home screen.
    <LocationGate locationKey={key} unknown={<Navigate to="/" replace />}>
      {(location, overrides) => <DaytimeFlow location={location} overrides={overrides} />}
    </LocationGate>
  );
}
