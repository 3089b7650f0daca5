import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { eurosToCents } from '@deposito/protocol/pricing/money';
import { isInFastTrackWindow } from '@deposito/protocol/schedule/daily-windows';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import { cancelBooking, loadFastTrackOffer, preloadCustomerRoutes } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { errorMessageKey } from '../api/error-messages';
import { bookingsPaused } from '../components/bookings-paused';
import { useClock } from '../components/clock';
import type { PageStatus } from '../components/busy-check';
import { useWizardFlow } from '../components/wizard-flow';
import { usePreloadOnInteraction } from '../components/preload-on-interaction';
import { CancellationPolicyContext } from '../components/TermsDialog';
import { LanguageFlags } from '../components/LanguageFlags';
import { Alert } from '../components/Alert';
import { IdleStep } from './steps/IdleStep';
import type { FastTrackTerms } from './FastTrackOffer';
import {
  DAYTIME_WIZARD,
  INITIAL_DAYTIME_STATE,
  restoreDaytimeState,
  type DaytimeAction,
} from './daytime-state';

// The idle screen is all a visitor opening /{location} needs; the steps after it, with the date
// library and the full API schemas, load in the background once the visitor touches the page.
const loadSteps = () => import('./DaytimeSteps');
const loadOfferDialog = () => import('./FastTrackOffer');
const DaytimeSteps = lazy(() => loadSteps().then((m) => ({ default: m.DaytimeSteps })));
const FastTrackOffer = lazy(() => loadOfferDialog().then((m) => ({ default: m.FastTrackOffer })));

function preloadBookingCode(): void {
  preloadCustomerRoutes();
  loadSteps().catch(() => undefined);
  loadOfferDialog().catch(() => undefined);
}

const MOBILE_QUERY = '(max-width: 768px)';

function isMobileViewport(): boolean {
  return typeof window.matchMedia === 'function' && window.matchMedia(MOBILE_QUERY).matches;
}

/** The blocked-time check runs again while the page is open, so a window that starts later still applies. */
function useBlockedNow(location: PublicLocation, overrides: FrontendOverrides): boolean {
  const clock = useClock();
  const check = () => bookingsPaused(location, overrides, clock());
  const [blocked, setBlocked] = useState(check);
  useEffect(() => {
    const timer = window.setInterval(() => setBlocked(check()), 30_000);
    return () => window.clearInterval(timer);
  });
  return blocked;
}

/**
 * The first screen's choices: book (the calendar, the start options or, outside the fast-track hours,
 * the night wizard), start now (the fast-track offer), and the alerts they may raise.
 */
function useIdleScreen({
  location,
  overrides,
  go,
  setBusy,
  setError,
}: Pick<PageStatus, 'setBusy' | 'setError'> & {
  location: PublicLocation;
  overrides: FrontendOverrides;
  go: (action: DaytimeAction) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const clock = useClock();
  const [searchParams] = useSearchParams();
  const [showStartOptions, setShowStartOptions] = useState(searchParams.get('showStartOptions') === '1');
  const [idleAlert, setIdleAlert] = useState<string | null>(null);
  const [offer, setOffer] = useState<FastTrackTerms | null>(null);
  const blocked = useBlockedNow(location, overrides);
  const zone = location.timezone;

  // Start-now exists only inside the fast-track hours (the server refuses it outside them), whatever
  // the query asks; outside them the book button leads to the night wizard.
  const fastTrackOpen = () => isInFastTrackWindow(clock(), zone, overrides.fastTrackHours);
  const toNightWizard = () => navigate(`/booking-notte/${encodeURIComponent(location.key)}`);

  /**
   * Both ways in (book, start now) say so while bookings are blocked and lead to the night wizard
   * outside the fast-track hours; true when they may go on.
   */
  function mayStart(): boolean {
    setIdleAlert(null);
    if (blocked) {
      setIdleAlert(t('idle.maintenanceAlert'));
      return false;
    }
    if (!fastTrackOpen()) {
      toNightWizard();
      return false;
    }
    return true;
  }

  function onBook() {
    if (!mayStart()) return;
    if (isMobileViewport() || overrides.ALWAYS_SHOW_FAST_TRACK) {
      setShowStartOptions(true);
      return;
    }
    go({ type: 'openCalendar' });
  }

  async function onStartNow() {
    if (!mayStart()) return;
    setBusy(true);
    try {
      const answer = await loadFastTrackOffer(location.key);
      setOffer({ size: answer.locker.size, priceCents: eurosToCents(answer.price), hours: answer.duration });
    } catch (failure) {
      setIdleAlert(
        isApiError(failure) && failure.code === 'booking/locker_unavailable'
          ? t('fastTrack.noneAvailable')
          : t(errorMessageKey(failure, 'fastTrack.error.unexpected')),
      );
    } finally {
      setBusy(false);
    }
  }

  function declineOffer() {
    setOffer(null);
    setError(null);
    setShowStartOptions(false);
    go({ type: 'reset' });
  }

  return {
    blocked,
    showStartOptions,
    fastTrackOpen,
    toNightWizard,
    idleAlert,
    setIdleAlert,
    offer,
    setOffer,
    onBook,
    onStartNow,
    declineOffer,
  };
}

export function DaytimeFlow({
  location,
  overrides,
}: {
  location: PublicLocation;
  overrides: FrontendOverrides;
}) {
  const { t } = useTranslation();
  const flow = useWizardFlow({
    key: `daytime.${location.key}`,
    ...DAYTIME_WIZARD,
    initial: INITIAL_DAYTIME_STATE,
    restore: restoreDaytimeState,
    onHistoryBack: (current, to) => {
      // Leaving the summary gives the held lockers back (best effort: unpaid holds also lapse).
      if (current.hold && to !== 'summary') {
        void cancelBooking(current.hold.transactionId).catch(() => undefined);
      }
    },
  });
  const { state, go, busy, setBusy, setError } = flow;
  usePreloadOnInteraction(preloadBookingCode);

  const idle = useIdleScreen({ location, overrides, go, setBusy, setError });
  const { blocked, showStartOptions, fastTrackOpen, idleAlert, setIdleAlert, offer, setOffer } = idle;

  const loading: ReactNode = (
    <p role="status" className="field-hint">
      {t('status.loading')}
    </p>
  );

  return (
    <CancellationPolicyContext.Provider value={overrides.cancellationPolicy ?? null}>
      <main className={state.view === 'summary' ? 'page' : 'page page-narrow'}>
        {state.view === 'idle' ? (
          <>
            <IdleStep
              locationName={location.nome}
              address={location.indirizzo}
              openingHours={{ opening: location.orari.apertura, closing: location.orari.chiusura }}
              maintenance={blocked}
              showStartOptions={showStartOptions && !blocked && fastTrackOpen()}
              showNightTest={overrides.showNightButtonTest}
              onBook={idle.onBook}
              onStartNow={() => void idle.onStartNow()}
              onStartLater={() => go({ type: 'openCalendar' })}
              onNightTest={idle.toNightWizard}
            />
            <div aria-live="assertive">
              {idleAlert && (
                <Alert tone="warning" onDismiss={() => setIdleAlert(null)}>
                  {idleAlert}
                </Alert>
              )}
            </div>
            {busy && !offer && loading}
            {offer && (
              <Suspense fallback={loading}>
                <FastTrackOffer
                  {...flow}
                  location={location}
                  offer={offer}
                  onHeld={(hold) => {
                    setOffer(null);
                    go({ type: 'lockersHeld', hold });
                  }}
                  onDecline={idle.declineOffer}
                />
              </Suspense>
            )}
          </>
        ) : (
          <Suspense fallback={loading}>
            {/* The language can be changed at every step, not only on the first screen. */}
            <div className="step-language">
              <LanguageFlags />
            </div>
            <DaytimeSteps
              {...flow}
              location={location}
              onBack={flow.back}
              lockerDimensions={overrides.lockerDimensions}
            />
          </Suspense>
        )}
      </main>
    </CancellationPolicyContext.Provider>
  );
}
