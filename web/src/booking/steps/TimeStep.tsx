import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { StepHeading } from '../../components/StepHeading';

/** Start times from protocol (daytimeStartSlots or nightStartSlots); choosing one moves on. */
export function TimeStep({
  slots,
  value,
  onChoose,
  footer,
}: {
  slots: string[];
  value: string | null;
  onChoose: (time: string) => void;
  footer: React.ReactNode;
}) {
  const { t } = useTranslation();
  const selectId = useId();
  return (
    <section className="card">
      <div className="step-header">
        <StepHeading>{t('time.title')}</StepHeading>
      </div>
      {slots.length === 0 ? (
        <p role="status">{t('time.none')}</p>
      ) : (
        <div className="field">
          <label htmlFor={selectId}>{t('time.label')}</label>
          <select
            id={selectId}
            className="select"
            value={value ?? ''}
            onChange={(event) => event.target.value && onChoose(event.target.value)}
          >
            <option value="">{t('time.placeholder')}</option>
            {slots.map((slot) => (
              <option key={slot} value={slot}>
                {slot}
              </option>
            ))}
          </select>
        </div>
      )}
      <div className="actions">{footer}</div>
    </section>
  );
}
