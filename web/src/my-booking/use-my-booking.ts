import { useEffect, useState } from 'react';
import type { MyBookingResponse } from '@deposito/protocol/api/my-booking';
import { isApiError } from '../api/http';
import { readMyBooking } from './my-booking-api';

export type MyBookingState =
  | { kind: 'loading' }
  | { kind: 'notFound' }
  | { kind: 'failed' }
  | { kind: 'booking'; booking: MyBookingResponse };

/** The booking behind the page's token; not found for any 404 (unknown, expired, revoked link). */
export function useMyBooking(token: string): {
  state: MyBookingState;
  reload: () => void;
  /** The booking as an action answered it (a cancellation). */
  replace: (booking: MyBookingResponse) => void;
} {
  const [state, setState] = useState<MyBookingState>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    let active = true;
    setState({ kind: 'loading' });
    readMyBooking(token).then(
      (booking) => active && setState({ kind: 'booking', booking }),
      (error: unknown) => {
        if (!active) return;
        const notFound = isApiError(error) && (error.status === 404 || error.code.startsWith('validation/'));
        setState({ kind: notFound ? 'notFound' : 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [token, generation]);

  return {
    state,
    reload: () => setGeneration((n) => n + 1),
    replace: (booking) => setState({ kind: 'booking', booking }),
  };
}
