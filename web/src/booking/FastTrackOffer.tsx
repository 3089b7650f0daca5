import { useTranslation } from 'react-i18next';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import { FAST_TRACK_HOURS } from '@deposito/protocol/schedule/daily-windows';
import { fastTrackWindow } from '@deposito/protocol/schedule/windows';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { holdLockers } from '../api/deposito-api';
import { errorMessageKey } from '../api/error-messages';
import { isApiError } from '../api/http';
import { useClock } from '../components/clock';
import type { PageStatus } from '../components/busy-check';
import { FastTrackDialog } from './FastTrackDialog';
import type { LockerHold } from './daytime-state';

/** The server's offer to start now: a locker size, its price and how many hours. */
export type FastTrackTerms = { size: LockerSize; priceCents: number; hours: number };

/**
 * The start-now offer and its acceptance, which holds the locker from now for 3 hours. Loaded with
 * the booking steps: it needs the date library, which the idle screen does not.
 */
export function FastTrackOffer({
  location,
  offer,
  busy,
  setBusy,
  error,
  setError,
  onHeld,
  onDecline,
}: PageStatus & {
  location: PublicLocation;
  offer: FastTrackTerms;
  onHeld: (hold: LockerHold) => void;
  onDecline: () => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const fallback = offer.size !== 'large';

  async function accept() {
    setBusy(true);
    setError(null);
    try {
      const window = fastTrackWindow(clock(), location.timezone);
      const held = await holdLockers({
        locationKey: location.key,
        dimensione: offer.size,
        quantita: 1,
        startTimeIso: window.startTimeIso,
        endTimeIso: window.endTimeIso,
      });
      if (!held.success || !held.transactionId) {
        setError(held.message || t(fallback ? 'fastTrack.error.standardHold' : 'lockerQuantity.error.hold'));
        return;
      }
      onHeld({
        transactionId: held.transactionId,
        reservedLockers: held.reservedLockers,
        size: offer.size,
        quantity: 1,
        startTimeIso: window.startTimeIso,
        endTimeIso: window.endTimeIso,
        priceCents: offer.priceCents,
        duration: { value: FAST_TRACK_HOURS, unit: 'hours' },
        fastTrack: fallback ? 'fasttrack-fallback' : 'fasttrack',
        expiresAt: held.expiresAt,
      });
    } catch (failure) {
      setError(
        isApiError(failure) && failure.message && !failure.code.startsWith('client/')
          ? failure.message
          : t(
              fallback
                ? 'fastTrack.error.standardHold'
                : errorMessageKey(failure, 'lockerQuantity.error.hold'),
            ),
      );
    } finally {
      setBusy(false);
    }
  }

  return (
    <FastTrackDialog
      {...offer}
      fallback={fallback}
      busy={busy}
      error={error}
      onAccept={() => void accept()}
      onDecline={onDecline}
    />
  );
}
