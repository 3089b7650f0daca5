import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { StepHeading } from '../../components/StepHeading';
import { Alert } from '../../components/Alert';

const encode = (duration: Duration) => `${duration.unit}:${duration.value}`;

function decode(value: string): Duration | null {
  const [unit, amount] = value.split(':');
  if ((unit !== 'hours' && unit !== 'days') || !amount) return null;
  return { unit, value: Number(amount) };
}

/** Hour options and day options from protocol; the expected end is shown once a duration is picked. */
export function DurationStep({
  hourOptions,
  dayOptions,
  value,
  endLabel,
  busy,
  error,
  onDismissError,
  onSelect,
  onContinue,
  secondaryAction,
}: {
  hourOptions: number[];
  dayOptions: number[];
  value: Duration | null;
  endLabel: string | null;
  busy: boolean;
  error: string | null;
  onDismissError: () => void;
  onSelect: (duration: Duration | null) => void;
  onContinue: () => void;
  secondaryAction: ReactNode;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  return (
    <section className="card">
      <div className="step-header">
        <StepHeading>{t('duration.title')}</StepHeading>
      </div>
      <div className="field">
        <label htmlFor={selectId}>{t('duration.label')}</label>
        <select
          id={selectId}
          className="select"
          value={value ? encode(value) : ''}
          aria-describedby={`${selectId}-end`}
          onChange={(event) => onSelect(decode(event.target.value))}
        >
          <option value="">{t('duration.placeholder')}</option>
          {hourOptions.length > 0 && (
            <optgroup label={t('duration.hoursGroup')}>
              {hourOptions.map((hours) => (
                <option key={`h${hours}`} value={encode({ unit: 'hours', value: hours })}>
                  {t('duration.hours', { count: hours })}
                </option>
              ))}
            </optgroup>
          )}
          <optgroup label={t('duration.daysGroup')}>
            {dayOptions.map((days) => (
              <option key={`d${days}`} value={encode({ unit: 'days', value: days })}>
                {t('duration.days', { count: days })}
              </option>
            ))}
          </optgroup>
        </select>
        <p id={`${selectId}-end`} className="field-hint" aria-live="polite">
          {endLabel ? t('duration.expectedEnd', { end: endLabel }) : ''}
        </p>
      </div>
      {error && (
        <Alert tone="error" onDismiss={onDismissError}>
          {error}
        </Alert>
      )}
      <div className="actions">
        {secondaryAction}
        <button
          type="button"
          className="button button-primary"
          disabled={!value || busy}
          aria-busy={busy}
          onClick={onContinue}
        >
          {busy ? t('duration.checking') : t('ui.continue')}
        </button>
      </div>
    </section>
  );
}
