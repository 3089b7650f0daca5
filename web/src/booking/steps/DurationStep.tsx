import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import { ContinueButton, StepCard, StepError } from './StepCard';

const encode = (duration: Duration) => `${duration.unit}:${duration.value}`;

function decode(value: string): Duration | null {
  const [unit, amount] = value.split(':');
  if ((unit !== 'hours' && unit !== 'days') || !amount) return null;
  return { unit, value: Number(amount) };
}

/** The options of one unit (hours or days); none (a start too late for hours): no group. */
function DurationGroup({ unit, values }: { unit: Duration['unit']; values: number[] }) {
  const { t } = useTranslation();
  if (values.length === 0) return null;
  return (
    <optgroup label={t(`duration.${unit}Group`)}>
      {values.map((value) => (
        <option key={`${unit[0]}${value}`} value={encode({ unit, value })}>
          {t(`duration.${unit}`, { count: value })}
        </option>
      ))}
    </optgroup>
  );
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
    <StepCard title={t('duration.title')}>
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
          <DurationGroup unit="hours" values={hourOptions} />
          <DurationGroup unit="days" values={dayOptions} />
        </select>
        <p id={`${selectId}-end`} className="field-hint" aria-live="polite">
          {endLabel ? t('duration.expectedEnd', { end: endLabel }) : ''}
        </p>
      </div>
      <StepError error={error} onDismiss={onDismissError} />
      <div className="actions">
        {secondaryAction}
        <ContinueButton
          disabled={!value}
          busy={busy}
          busyLabel={t('duration.checking')}
          onClick={onContinue}
        />
      </div>
    </StepCard>
  );
}
