import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router-dom';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { calendarBounds } from '@deposito/protocol/schedule/calendar';
import { nightHourOptions } from '@deposito/protocol/schedule/durations';
import { nightRangeVerdict } from '@deposito/protocol/schedule/period-availability';
import { nightStartSlots } from '@deposito/protocol/schedule/start-slots';
import { nightAvailabilityWindow } from '@deposito/protocol/schedule/windows';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import {
  checkNightAvailability,
  checkNightRange,
  loadFrontendOverrides,
  loadLocation,
  preloadCustomerRoutes,
} from '../api/deposito-api';
import { ErrorScreen, LoadingScreen, MaintenanceScreen } from '../components/StatusScreens';
import { bookingsPaused } from '../components/bookings-paused';
import { useClock } from '../components/clock';
import { RecapBar } from '../components/RecapBar';
import { CalendarStep } from '../booking/steps/CalendarStep';
import { StartAndDurationSteps } from '../booking/steps/StartAndDurationSteps';
import { LockerSizeStep } from '../booking/steps/LockerSizeStep';
import { QuantityStep } from '../booking/steps/QuantityStep';
import {
  INITIAL_NIGHT_STATE,
  NIGHT_STEPS,
  nightReducer,
  restoreNightState,
  type NightAction,
  type NightState,
} from './night-state';
import { busyCheck } from '../components/busy-check';
import { chosenPeriod } from '../components/chosen-period';
import { usePersistentFlow } from '../components/flow-history';
import { usePreloadOnInteraction } from '../components/preload-on-interaction';
import { CancellationPolicyContext } from '../components/TermsDialog';
import { LanguageFlags } from '../components/LanguageFlags';

// The calendar is all a visitor opening the wizard needs. The summary, with the customer form and
// its phone-number library (more than half the wizard's code), and the full API schemas the
// availability checks parse with, load in the background once the visitor touches the page.
const loadSummary = () => import('./NightSummary');
const NightSummary = lazy(() => loadSummary().then((m) => ({ default: m.NightSummary })));

function preloadBookingCode(): void {
  preloadCustomerRoutes();
  loadSummary().catch(() => undefined);
}

/** The location used when the path names none. */
export const DEFAULT_NIGHT_LOCATION = 'vicolo';

type Loaded =
  | { kind: 'loading' }
  | { kind: 'failed' }
  | { kind: 'ready'; location: PublicLocation; overrides: FrontendOverrides };

/** `/booking-notte/:location`: the night-booking wizard. */
export function NightWizardPage() {
  const { location: key = DEFAULT_NIGHT_LOCATION } = useParams();
  const clock = useClock();
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });

  useEffect(() => {
    let active = true;
    setLoaded({ kind: 'loading' });
    Promise.all([loadLocation(key), loadFrontendOverrides(key)]).then(
      ([location, overrides]) => active && setLoaded({ kind: 'ready', location, overrides }),
      () => active && setLoaded({ kind: 'failed' }),
    );
    return () => {
      active = false;
    };
  }, [key]);

  if (loaded.kind === 'loading') return <LoadingScreen />;
  if (loaded.kind === 'failed') return <ErrorScreen />;
  const { location, overrides } = loaded;
  if (bookingsPaused(location, overrides, clock())) {
    return <MaintenanceScreen />;
  }
  return (
    <CancellationPolicyContext.Provider value={overrides.cancellationPolicy ?? null}>
      <NightWizard location={location} lockerDimensions={overrides.lockerDimensions} />
    </CancellationPolicyContext.Provider>
  );
}

/**
 * What the wizard asks the server: whether either size is free on the chosen night, and whether a
 * stay of days is free throughout (a stay of hours ends the same day, already checked).
 */
function useNightChecks(props: {
  location: PublicLocation;
  go: (action: NightAction) => void;
  setBusy: (busy: boolean) => void;
  setError: (error: string | null) => void;
}) {
  const { location, go, setError } = props;
  const { t } = useTranslation();
  const zone = location.timezone;

  const confirmDate = (date: string) =>
    busyCheck(
      props,
      async () => {
        const window = nightAvailabilityWindow(date, zone);
        // One call per size, in parallel; the wizard goes on if either size is free.
        const [standard, large] = await Promise.all(
          (['standard', 'large'] as const).map((tipoLocker) =>
            checkNightAvailability({ locationKey: location.key, tipoLocker, quantita: 1, ...window }),
          ),
        );
        if (!standard!.disponibile && !large!.disponibile)
          return setError(t('calendar.error.noAvailability'));
        go({
          type: 'dateConfirmed',
          date,
          dayStartIso: window.startTimeIso,
          counts: { standard: standard!.disponibili, large: large!.disponibili },
        });
      },
      () => t('calendar.error.checkAvailability'),
    );

  async function confirmDuration(duration: Duration, period: { startTimeIso: string; endTimeIso: string }) {
    // Hour stays end the same day, already checked for the date.
    if (duration.unit === 'hours') return go({ type: 'durationConfirmed', duration, ...period });
    await busyCheck(
      props,
      async () => {
        const byDate = await checkNightRange({
          locationKey: location.key,
          startTime: period.startTimeIso,
          endTime: period.endTimeIso,
        });
        const verdict = nightRangeVerdict(byDate);
        if (!verdict.ok) return setError(t(verdict.errorKey));
        go({ type: 'durationConfirmed', duration, ...period, counts: verdict.counts });
      },
      () => t('calendar.error.checkAvailability'),
    );
  }

  return { confirmDate, confirmDuration };
}

/** The steps before the summary: night, start time, duration, size and quantity. */
function NightChoiceSteps({
  state,
  zone,
  lockerDimensions,
  busy,
  error,
  setError,
  pendingDuration,
  setPendingDuration,
  period,
  go,
  checks,
  stepActions,
  onBackToDaytime,
}: {
  state: NightState;
  zone: string;
  lockerDimensions?: FrontendOverrides['lockerDimensions'];
  busy: boolean;
  error: string | null;
  setError: (error: string | null) => void;
  pendingDuration: Duration | null;
  setPendingDuration: (duration: Duration | null) => void;
  period: { startTimeIso: string; endTimeIso: string } | null;
  go: (action: NightAction) => void;
  checks: ReturnType<typeof useNightChecks>;
  /** Back one step and cancel, under each step. */
  stepActions: ReactNode;
  onBackToDaytime: () => void;
}) {
  const { t } = useTranslation();
  const clock = useClock();
  const now = clock();
  const bounds = calendarBounds(now, zone);
  return (
    <>
      {state.step === 'calendar' && (
        <CalendarStep
          min={bounds.min}
          max={bounds.max}
          initialDate={state.date}
          busy={busy}
          error={error}
          onDismissError={() => setError(null)}
          onContinue={(date) => void checks.confirmDate(date)}
          onBack={onBackToDaytime}
          backLabel={t('night.backToDaytime')}
        />
      )}
      <StartAndDurationSteps
        step={state.step === 'time' || state.step === 'duration' ? state.step : null}
        date={state.date}
        time={state.time}
        now={now}
        zone={zone}
        startSlots={nightStartSlots}
        hourOptions={nightHourOptions}
        pendingDuration={pendingDuration}
        setPendingDuration={setPendingDuration}
        period={period}
        busy={busy}
        error={error}
        setError={setError}
        onTimeChosen={(time) => go({ type: 'timeChosen', time })}
        onContinue={() => void (pendingDuration && period && checks.confirmDuration(pendingDuration, period))}
        actions={stepActions}
      />
      {state.step === 'lockerOptions' && state.counts && (
        <LockerSizeStep
          dimensions={lockerDimensions}
          counts={state.counts}
          onChoose={(size) => go({ type: 'sizeChosen', size })}
          secondaryAction={stepActions}
        />
      )}
      {state.step === 'lockerQuantity' && state.counts && state.size && (
        <QuantityStep
          available={state.counts[state.size]}
          busy={false}
          error={null}
          onDismissError={() => setError(null)}
          onChoose={(quantity) => go({ type: 'quantityChosen', quantity })}
          secondaryAction={stepActions}
        />
      )}
    </>
  );
}

export function NightWizard({
  location,
  lockerDimensions,
}: {
  location: PublicLocation;
  /** Each size's inside measurements, as the operators wrote them (frontend overrides). */
  lockerDimensions?: FrontendOverrides['lockerDimensions'];
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const clock = useClock();
  // Back, a reload and a return from the payment page resume at the visitor's step (flow-history.ts).
  const [state, dispatch, back] = usePersistentFlow({
    key: `night.${location.key}`,
    reducer: nightReducer,
    initial: INITIAL_NIGHT_STATE,
    order: NIGHT_STEPS,
    stepOf: (night) => night.step,
    restore: restoreNightState,
    now: () => clock().getTime(),
    onHistoryBack: (_current, to) => {
      setError(null);
      dispatch(to === null ? { type: 'back' } : { type: 'backTo', step: to });
    },
  });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [pendingDuration, setPendingDuration] = useState<Duration | null>(null);
  const zone = location.timezone;
  usePreloadOnInteraction(preloadBookingCode);

  const go = (action: Parameters<typeof dispatch>[0]) => {
    setError(null);
    dispatch(action);
  };

  function cancel() {
    setPendingDuration(null);
    go({ type: 'cancel' });
  }

  const period = chosenPeriod(state.date, state.time, pendingDuration, zone);
  const checks = useNightChecks({ location, go, setBusy, setError });

  // Back one step (what was chosen before it stays), or cancel the whole booking.
  const cancelButton = (
    <>
      <button type="button" className="button button-secondary" onClick={back}>
        {t('ui.back')}
      </button>
      <button type="button" className="button button-ghost" onClick={cancel}>
        {t('ui.cancel')}
      </button>
    </>
  );

  return (
    <main className={state.step === 'summary' ? 'page' : 'page page-narrow'}>
      <div className="step-language">
        <LanguageFlags />
      </div>
      <h1 className="page-title">{t('night.title')}</h1>
      {state.step !== 'calendar' && (
        <RecapBar
          zone={zone}
          date={state.date}
          startTimeIso={state.time ? (period?.startTimeIso ?? state.startTimeIso) : null}
          endTimeIso={state.step === 'duration' ? (period?.endTimeIso ?? null) : state.endTimeIso}
          quantity={state.step === 'summary' ? state.quantity : null}
          size={state.step === 'lockerQuantity' || state.step === 'summary' ? state.size : null}
        />
      )}
      <NightChoiceSteps
        state={state}
        zone={zone}
        lockerDimensions={lockerDimensions}
        busy={busy}
        error={error}
        setError={setError}
        pendingDuration={pendingDuration}
        setPendingDuration={setPendingDuration}
        period={period}
        go={go}
        checks={checks}
        stepActions={cancelButton}
        onBackToDaytime={() => navigate(`/${encodeURIComponent(location.key)}`)}
      />
      {state.step === 'summary' &&
        state.size &&
        state.quantity &&
        state.duration &&
        state.startTimeIso &&
        state.endTimeIso && (
          <Suspense
            fallback={
              <p role="status" className="field-hint">
                {t('status.loading')}
              </p>
            }
          >
            <NightSummary
              location={location}
              size={state.size}
              quantity={state.quantity}
              duration={state.duration}
              startTimeIso={state.startTimeIso}
              endTimeIso={state.endTimeIso}
              fallbackMessage={null}
              onCancel={cancel}
            />
          </Suspense>
        )}
    </main>
  );
}
