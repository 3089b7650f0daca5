import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { parseNote } from '@deposito/protocol/booking/note';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { decryptPaymentReturn, loadLocation, readBooking } from '../api/deposito-api';
import { isApiError } from '../api/http';

/** While a payment's result has not reached us, the booking is read again this often… */
export const PAYMENT_POLL_INTERVAL_MS = 2_000;
/** …this many times (about 30 s), then the visitor is told to look for the e-mail instead. */
export const PAYMENT_POLL_ATTEMPTS = 15;

export type CompletedBooking =
  | { kind: 'loading' }
  | { kind: 'cancelled' }
  | { kind: 'notFound' }
  /** A return link read again after it expired (the gateway's `a`/`b` no longer open). */
  | { kind: 'linkExpired' }
  | { kind: 'failed' }
  | {
      kind: 'booking';
      booking: BookingReadBack;
      location: PublicLocation | null;
      /** Still `paying` after every poll: the result may come later, by e-mail. */
      gaveUpWaiting: boolean;
    };

/**
 * The booking the payment provider sent the visitor back for (`transactionId`, or the encrypted
 * `a` and `b`), read back from the server; while its payment is being processed it is read again
 * every 2 s for about 30 s. `refresh` reads it again (and polls again if it is still processing).
 */
export function useCompletedBooking(query: {
  transactionId: string | null;
  a: string | null;
  b: string | null;
}): { state: CompletedBooking; refresh: () => void } {
  const { i18n } = useTranslation();
  const [state, setState] = useState<CompletedBooking>({ kind: 'loading' });
  const [generation, setGeneration] = useState(0);
  const refresh = useCallback(() => setGeneration((n) => n + 1), []);
  // The id read from `a` and `b`, so a refresh does not replay the provider's result to the server.
  const decrypted = useRef<{ a: string; b: string; id: string } | null>(null);
  const { transactionId, a, b } = query;

  useEffect(() => {
    let active = true;
    let timer: number | undefined;
    const wait = (ms: number) =>
      new Promise<void>((resolve) => {
        timer = window.setTimeout(resolve, ms);
      });

    async function load(): Promise<void> {
      let id = transactionId;
      if (!id && a && b) {
        const known = decrypted.current;
        id =
          known?.a === a && known.b === b ? known.id : (await decryptPaymentReturn(a, b)).shopTransactionId;
        decrypted.current = { a, b, id };
      }
      if (!active) return;
      if (!id) {
        setState({ kind: 'cancelled' });
        return;
      }
      let booking = await readBooking(id);
      const location = await loadLocation(booking.location).catch(() => null);
      if (!active) return;
      // The page speaks the language the visitor booked in (customer spec §2).
      void i18n.changeLanguage(parseNote(booking.note).lang);
      setState({ kind: 'booking', booking, location, gaveUpWaiting: false });
      for (let attempt = 0; booking.status === 'paying' && attempt < PAYMENT_POLL_ATTEMPTS; attempt++) {
        await wait(PAYMENT_POLL_INTERVAL_MS);
        if (!active) return;
        // A failed read (a network blip) counts as an attempt; the last answer stays on screen.
        booking = await readBooking(id).catch(() => booking);
        if (!active) return;
        setState({ kind: 'booking', booking, location, gaveUpWaiting: false });
      }
      if (booking.status === 'paying') setState({ kind: 'booking', booking, location, gaveUpWaiting: true });
    }

    load().catch((failure: unknown) => {
      if (!active) return;
      const code = isApiError(failure) ? failure.code : '';
      if (code === 'NO_PARAMS' || code === 'NO_TRANSACTION_ID') setState({ kind: 'cancelled' });
      else if (code === 'BOOKING_NOT_FOUND' || code === 'validation/invalid_params')
        setState({ kind: 'notFound' });
      else if (code === 'payment/result_expired') setState({ kind: 'linkExpired' });
      else setState({ kind: 'failed' });
    });
    return () => {
      active = false;
      window.clearTimeout(timer);
    };
  }, [transactionId, a, b, i18n, generation]);

  return { state, refresh };
}
