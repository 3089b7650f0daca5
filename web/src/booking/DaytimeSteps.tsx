import { useMemo, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { pricingFromPriceLists } from '@deposito/protocol/pricing/location-pricing';
import { bookingPriceCents, type Duration } from '@deposito/protocol/pricing/price-table';
import { daytimeHourOptions } from '@deposito/protocol/schedule/durations';
import { todayInZone } from '@deposito/protocol/schedule/local-time';
import { countsThroughout, hasAnyFree } from '@deposito/protocol/schedule/period-availability';
import { daytimeStartSlots } from '@deposito/protocol/schedule/start-slots';

import type { PublicLocation } from '@deposito/protocol/schemas/location';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import { cancelBooking, holdLockers, loadAvailability } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { useClock } from '../components/clock';
import { RecapBar } from '../components/RecapBar';
import { busyCheck, type PageStatus } from '../components/busy-check';
import { ChoiceSteps, usePendingDuration, type ChoiceRules, type ChoiceStep } from './steps/ChoiceSteps';
import { DaytimeSummary } from './DaytimeSummary';
import { forgetFlowsOf, STEP_PARAM } from '../components/flow-history';
import type { DaytimeAction, DaytimeState, DaytimeView } from './daytime-state';

/** What the flow shares with its steps: the booking so far and the busy and error state of the page. */
export interface DaytimeStepsProps extends PageStatus {
  location: PublicLocation;
  state: DaytimeState;
  dispatch: Dispatch<DaytimeAction>;
  /** Dispatches after clearing the error. */
  go: (action: DaytimeAction) => void;
  /** One step back, through the browser history (releasing the hold from the summary). */
  onBack: () => void;
  /** Each size's inside measurements, as the operators wrote them (frontend overrides). */
  lockerDimensions?: FrontendOverrides['lockerDimensions'];
}

/**
 * What the steps ask the server: the chosen day's and period's availability, the hold of the
 * lockers; and the summary's cancel, which gives them back and starts afresh.
 */
function useDaytimeStepActions(
  props: DaytimeStepsProps,
  pendingDuration: Duration | null,
  period: { startTimeIso: string; endTimeIso: string } | null,
) {
  const { location, state, dispatch, go, setError } = props;
  const { t } = useTranslation();
  const clock = useClock();
  const pricing = useMemo(() => pricingFromPriceLists(location), [location]);

  /** Bookings starting today ask the today endpoint; later days ask the future one. */
  const startDay = (date: string) => (date === todayInZone(clock(), location.timezone) ? 'today' : 'future');

  const confirmDate = (date: string) =>
    busyCheck(
      props,
      async () => {
        const byDate = await loadAvailability(startDay(date), {
          location: location.key,
          startDate: date,
          endDate: date,
        });
        if (!hasAnyFree(byDate[date])) return setError(t('calendar.error.noAvailability'));
        go({ type: 'dateConfirmed', date });
      },
      () => t('calendar.error.checkAvailability'),
    );

  async function confirmDuration() {
    if (!state.date || !pendingDuration || !period) return;
    const day = startDay(state.date);
    await busyCheck(
      props,
      async () => {
        const byDate = await loadAvailability(day, {
          location: location.key,
          startDate: period.startTimeIso,
          endDate: period.endTimeIso,
        });
        const counts = countsThroughout(byDate);
        if (!hasAnyFree(counts)) return setError(t('duration.error.noAvailability'));
        go({ type: 'durationConfirmed', duration: pendingDuration, ...period, counts });
      },
      () => t(day === 'today' ? 'duration.error.check' : 'duration.error.checkFuture'),
    );
  }

  async function chooseQuantity(quantity: number) {
    const { size, duration, startTimeIso, endTimeIso } = state;
    if (!size || !duration || !startTimeIso || !endTimeIso) return;
    const priceCents = bookingPriceCents({ pricing, size, duration, quantity });
    if (priceCents === null) return setError(t('errors.noPrice'));
    await busyCheck(
      props,
      async () => {
        const held = await holdLockers({
          locationKey: location.key,
          dimensione: size,
          quantita: quantity,
          startTimeIso,
          endTimeIso,
        });
        if (!held.success || !held.transactionId)
          return setError(held.message || t('lockerQuantity.error.hold'));
        const { transactionId, reservedLockers, expiresAt } = held;
        go({
          type: 'lockersHeld',
          hold: {
            transactionId,
            reservedLockers,
            size,
            quantity,
            startTimeIso,
            endTimeIso,
            priceCents,
            duration,
            fastTrack: null,
            expiresAt,
          },
        });
      },
      (failure) =>
        isApiError(failure) && failure.message && !failure.code.startsWith('client/')
          ? failure.message
          : t('lockerQuantity.error.block'),
    );
  }

  async function cancelSummary() {
    if (state.hold) {
      await cancelBooking(state.hold.transactionId).catch(() => undefined);
      forgetFlowsOf(state.hold.transactionId);
    }
    dispatch({ type: 'reset' });
    // Start afresh at the first screen, without the step in the address.
    const address = new URL(window.location.href);
    address.searchParams.delete(STEP_PARAM);
    window.location.replace(address.toString());
  }

  return { confirmDate, confirmDuration, chooseQuantity, cancelSummary };
}

/** The daytime steps as the shared choice steps name them (null: the idle screen and the summary). */
const CHOICE_STEP: Record<DaytimeView, ChoiceStep | null> = {
  idle: null,
  calendar: 'calendar',
  timeSelection: 'time',
  duration: 'duration',
  lockerOptions: 'lockerOptions',
  lockerQuantity: 'lockerQuantity',
  summary: null,
};

const DAYTIME_RULES: ChoiceRules = { startSlots: daytimeStartSlots, hourOptions: daytimeHourOptions };

/**
 * Calendar to summary, loaded when the visitor starts booking (with the date library and the full
 * API schemas it needs), so the location page's first download holds only the idle screen.
 */
export function DaytimeSteps(props: DaytimeStepsProps) {
  const { location, state, go, onBack } = props;
  const { t } = useTranslation();
  const zone = location.timezone;
  const pending = usePendingDuration(state.date, state.time, zone);
  const { period } = pending;
  const actions = useDaytimeStepActions(props, pending.pendingDuration, period);

  function back() {
    // Back from the sizes forgets the duration (the reducer clears it too).
    if (state.view === 'lockerOptions') pending.setPendingDuration(null);
    onBack();
  }

  return (
    <>
      {/* The page's title for screen readers; each step's own heading (h2) says where they are. */}
      <h1 className="visually-hidden">{t('idle.title')}</h1>
      <RecapBar
        zone={zone}
        date={state.date}
        startTimeIso={state.view === 'duration' ? (period?.startTimeIso ?? null) : state.startTimeIso}
        endTimeIso={state.view === 'duration' ? (period?.endTimeIso ?? null) : state.endTimeIso}
        quantity={state.view === 'summary' ? state.quantity : null}
        size={state.view === 'lockerQuantity' || state.view === 'summary' ? state.size : null}
      />
      <ChoiceSteps
        step={CHOICE_STEP[state.view]}
        choices={state}
        rules={DAYTIME_RULES}
        page={{ ...props, zone }}
        pending={pending}
        on={{
          onDate: (date) => void actions.confirmDate(date),
          onTime: (time) => go({ type: 'timeChosen', time }),
          onDuration: () => void actions.confirmDuration(),
          onSize: (size) => go({ type: 'sizeChosen', size }),
          onQuantity: (quantity) => void actions.chooseQuantity(quantity),
          onCalendarBack: onBack,
        }}
        actions={{ onBack: back }}
      />
      {state.view === 'summary' && state.hold && (
        <DaytimeSummary
          location={location}
          hold={state.hold}
          onBack={onBack}
          onCancel={() => void actions.cancelSummary()}
        />
      )}
    </>
  );
}
