import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ContinueButton, StepCard, StepError } from './StepCard';

/** A date input bounded by protocol's calendarBounds; continuing checks availability in the flow. */
export function CalendarStep({
  min,
  max,
  initialDate,
  busy,
  error,
  onDismissError,
  onContinue,
  onBack,
  backLabel,
}: {
  min: string;
  max: string;
  initialDate: string | null;
  busy: boolean;
  error: string | null;
  onDismissError: () => void;
  onContinue: (date: string) => void;
  onBack: () => void;
  backLabel?: string;
}) {
  const { t } = useTranslation();
  const inputId = useId();
  const [date, setDate] = useState(initialDate ?? min);
  const inRange = date !== '' && date >= min && date <= max;
  return (
    <StepCard title={t('calendar.title')} prompt={t('calendar.prompt')}>
      <form
        className="stack"
        onSubmit={(event) => {
          event.preventDefault();
          if (inRange && !busy) onContinue(date);
        }}
      >
        <div className="field">
          <label htmlFor={inputId}>{t('calendar.dateLabel')}</label>
          <input
            id={inputId}
            className="input"
            type="date"
            required
            min={min}
            max={max}
            value={date}
            aria-describedby={`${inputId}-hint`}
            onChange={(event) => setDate(event.target.value)}
          />
          <p id={`${inputId}-hint`} className="field-hint">
            {inRange ? '' : t('calendar.outOfRange')}
          </p>
        </div>
        <StepError error={error} onDismiss={onDismissError} />
        <div className="actions">
          <button type="button" className="button button-ghost" onClick={onBack}>
            {backLabel ?? t('ui.back')}
          </button>
          <ContinueButton type="submit" disabled={!inRange} busy={busy} busyLabel={t('calendar.checking')} />
        </div>
      </form>
    </StepCard>
  );
}
