import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router-dom';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { nightHourOptions } from '@deposito/protocol/schedule/durations';
import { nightRangeVerdict } from '@deposito/protocol/schedule/period-availability';
import { nightStartSlots } from '@deposito/protocol/schedule/start-slots';
import { nightAvailabilityWindow } from '@deposito/protocol/schedule/windows';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import { checkNightAvailability, checkNightRange, preloadCustomerRoutes } from '../api/deposito-api';
import { LocationGate } from '../components/LocationGate';
import { RecapBar } from '../components/RecapBar';
import { ChoiceSteps, usePendingDuration } from '../booking/steps/ChoiceSteps';
import { INITIAL_NIGHT_STATE, NIGHT_WIZARD, restoreNightState, type NightAction } from './night-state';
import { busyCheck, type PageStatus } from '../components/busy-check';
import { useWizardFlow } from '../components/wizard-flow';
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

/** `/booking-notte/:location`: the night-booking wizard. */
export function NightWizardPage() {
  const { location: key = DEFAULT_NIGHT_LOCATION } = useParams();
  return (
    // A key that names no location goes home, as the daytime page's does (not "check your connection").
    <LocationGate locationKey={key} unknown={<Navigate to="/" replace />}>
      {(location, overrides) => (
        <CancellationPolicyContext.Provider value={overrides.cancellationPolicy ?? null}>
          <NightWizard location={location} lockerDimensions={overrides.lockerDimensions} />
        </CancellationPolicyContext.Provider>
      )}
    </LocationGate>
  );
}

/**
 * What the wizard asks the server: whether either size is free on the chosen night, and whether a
 * stay of days is free throughout (a stay of hours ends the same day, already checked).
 */
function useNightChecks(
  props: Pick<PageStatus, 'setBusy' | 'setError'> & {
    location: PublicLocation;
    go: (action: NightAction) => void;
  },
) {
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

const NIGHT_RULES = { startSlots: nightStartSlots, hourOptions: nightHourOptions };

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
  const flow = useWizardFlow({
    key: `night.${location.key}`,
    ...NIGHT_WIZARD,
    initial: INITIAL_NIGHT_STATE,
    restore: restoreNightState,
  });
  const { state, back, go } = flow;
  const zone = location.timezone;
  const pending = usePendingDuration(state.date, state.time, zone);
  const { pendingDuration, period } = pending;
  usePreloadOnInteraction(preloadBookingCode);

  function cancel() {
    pending.setPendingDuration(null);
    go({ type: 'cancel' });
  }

  const checks = useNightChecks({ location, ...flow });

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
      <ChoiceSteps
        step={state.step === 'summary' ? null : state.step}
        choices={state}
        rules={{ ...NIGHT_RULES, calendarBackLabel: t('night.backToDaytime') }}
        page={{ ...flow, zone, lockerDimensions }}
        pending={pending}
        on={{
          onDate: (date) => void checks.confirmDate(date),
          onTime: (time) => go({ type: 'timeChosen', time }),
          onDuration: () =>
            void (pendingDuration && period && checks.confirmDuration(pendingDuration, period)),
          onSize: (size) => go({ type: 'sizeChosen', size }),
          onQuantity: (quantity) => go({ type: 'quantityChosen', quantity }),
          onCalendarBack: () => navigate(`/${encodeURIComponent(location.key)}`),
        }}
        // Back one step (what was chosen before it stays), or cancel the whole booking.
        actions={{ onBack: back, onCancel: cancel }}
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
