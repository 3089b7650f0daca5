import type { ReactNode } from 'react';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { dayOptions } from '@deposito/protocol/schedule/durations';
import { useFormatters } from '../../components/format';
import { DurationStep } from './DurationStep';
import { TimeStep } from './TimeStep';

/**
 * The start time, then the duration: the two steps the daytime flow and the night wizard ask alike,
 * each wizard with its own rules (`startSlots`, `hourOptions`). Picking a time forgets a duration
 * chosen for another one; `period` is the stay the pending duration makes.
 */
export function StartAndDurationSteps({
  step,
  date,
  time,
  now,
  zone,
  startSlots,
  hourOptions,
  pendingDuration,
  setPendingDuration,
  period,
  busy,
  error,
  setError,
  onTimeChosen,
  onContinue,
  actions,
}: {
  /** Which of the two steps is shown, if either. */
  step: 'time' | 'duration' | null;
  date: string | null;
  time: string | null;
  now: Date;
  zone: string;
  startSlots: (date: string, now: Date, zone: string) => string[];
  hourOptions: (startTime: string) => number[];
  pendingDuration: Duration | null;
  setPendingDuration: (duration: Duration | null) => void;
  period: { startTimeIso: string; endTimeIso: string } | null;
  busy: boolean;
  error: string | null;
  setError: (error: string | null) => void;
  onTimeChosen: (time: string) => void;
  onContinue: () => void;
  /** Under each step: the way back (and, in the night wizard, cancel). */
  actions: ReactNode;
}) {
  const format = useFormatters();
  if (step === 'time' && date) {
    return (
      <TimeStep
        slots={startSlots(date, now, zone)}
        value={time}
        onChoose={(chosen) => {
          setPendingDuration(null);
          onTimeChosen(chosen);
        }}
        footer={actions}
      />
    );
  }
  if (step === 'duration' && time) {
    return (
      <DurationStep
        hourOptions={hourOptions(time)}
        dayOptions={dayOptions()}
        value={pendingDuration}
        endLabel={period ? format.dateTime(period.endTimeIso, zone) : null}
        busy={busy}
        error={error}
        onDismissError={() => setError(null)}
        onSelect={(duration) => {
          setError(null);
          setPendingDuration(duration);
        }}
        onContinue={onContinue}
        secondaryAction={actions}
      />
    );
  }
  return null;
}
