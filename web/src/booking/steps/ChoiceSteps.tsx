import { useMemo, useState, type ComponentProps } from 'react';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { calendarBounds } from '@deposito/protocol/schedule/calendar';
import type { FrontendOverrides } from '@deposito/protocol/schemas/settings';
import { useClock } from '../../components/clock';
import { chosenPeriod } from '../../components/chosen-period';
import type { WizardChoices } from '../../components/wizard-steps';
import { CalendarStep } from './CalendarStep';
import { LockerSizeStep } from './LockerSizeStep';
import { QuantityStep } from './QuantityStep';
import { StartAndDurationSteps } from './StartAndDurationSteps';
import { StepBackActions } from './StepCard';

/** The steps both wizards ask alike, from the day to the quantity. */
export type ChoiceStep = 'calendar' | 'time' | 'duration' | 'lockerOptions' | 'lockerQuantity';

/**
 * The duration picked on the duration step, not yet confirmed, and the stay it makes (null until
 * the day, the start and the duration make one).
 */
export function usePendingDuration(date: string | null, time: string | null, zone: string) {
  const [pendingDuration, setPendingDuration] = useState<Duration | null>(null);
  const period = useMemo(
    () => chosenPeriod(date, time, pendingDuration, zone),
    [date, time, pendingDuration, zone],
  );
  return { pendingDuration, setPendingDuration, period };
}

/** What tells one wizard's choices from the other's: its start times, its hours, its way out. */
export interface ChoiceRules {
  startSlots: (date: string, now: Date, zone: string) => string[];
  hourOptions: (startTime: string) => number[];
  /** The calendar's Back, when it says more than "back". */
  calendarBackLabel?: string;
}

/** What each step hands on to its wizard: the checks and the moves forward. */
export interface ChoiceHandlers {
  onDate: (date: string) => void;
  onTime: (time: string) => void;
  onDuration: () => void;
  onSize: (size: LockerSize) => void;
  onQuantity: (quantity: number) => void;
  /** The calendar's way out (the steps after it have `actions`). */
  onCalendarBack: () => void;
}

/**
 * The calendar, the start time, the duration, the size and the quantity: the daytime flow and the
 * night wizard ask them alike, each with its own `rules` and its own checks (`on`).
 */
export function ChoiceSteps({
  step,
  choices,
  rules,
  page,
  pending,
  on,
  actions,
}: {
  step: ChoiceStep | null;
  choices: WizardChoices;
  rules: ChoiceRules;
  /** The location's zone and sizes, and the page's busy and error state. */
  page: {
    zone: string;
    lockerDimensions?: FrontendOverrides['lockerDimensions'];
    busy: boolean;
    error: string | null;
    setError: (error: string | null) => void;
  };
  pending: ReturnType<typeof usePendingDuration>;
  on: ChoiceHandlers;
  /** Under each step after the calendar: the way back (and, in the night wizard, cancel). */
  actions: ComponentProps<typeof StepBackActions>;
}) {
  const clock = useClock();
  const now = clock();
  const { zone, busy, error, setError } = page;
  const { counts, size } = choices;
  const dismissError = () => setError(null);
  const stepActions = <StepBackActions {...actions} />;
  return (
    <>
      {step === 'calendar' && (
        <CalendarStep
          {...calendarBounds(now, zone)}
          initialDate={choices.date}
          busy={busy}
          error={error}
          onDismissError={dismissError}
          onContinue={on.onDate}
          onBack={on.onCalendarBack}
          backLabel={rules.calendarBackLabel}
        />
      )}
      <StartAndDurationSteps
        step={step === 'time' || step === 'duration' ? step : null}
        date={choices.date}
        time={choices.time}
        now={now}
        zone={zone}
        startSlots={rules.startSlots}
        hourOptions={rules.hourOptions}
        {...pending}
        busy={busy}
        error={error}
        setError={setError}
        onTimeChosen={on.onTime}
        onContinue={on.onDuration}
        actions={stepActions}
      />
      {step === 'lockerOptions' && counts && (
        <LockerSizeStep
          dimensions={page.lockerDimensions}
          counts={counts}
          onChoose={on.onSize}
          secondaryAction={stepActions}
        />
      )}
      {step === 'lockerQuantity' && counts && size && (
        <QuantityStep
          available={counts[size]}
          busy={busy}
          error={error}
          onDismissError={dismissError}
          onChoose={on.onQuantity}
          secondaryAction={stepActions}
        />
      )}
    </>
  );
}
