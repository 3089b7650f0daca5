import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Options } from '../../components/Options';
import { StepCard } from './StepCard';

/**
 * Start times from protocol (daytimeStartSlots or nightStartSlots). Picking one only selects it;
 * "Continua" moves on, so arrowing through the list with the keyboard never changes the page
 * under the visitor (WCAG 3.2.2).
 */
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
  const formId = useId();
  const [picked, setPicked] = useState<string>(value && slots.includes(value) ? value : '');
  return (
    <StepCard title={t('time.title')}>
      {slots.length === 0 ? (
        <p role="status">{t('time.none')}</p>
      ) : (
        <form
          id={formId}
          onSubmit={(event) => {
            event.preventDefault();
            if (picked) onChoose(picked);
          }}
        >
          <div className="field">
            <label htmlFor={selectId}>{t('time.label')}</label>
            <select
              id={selectId}
              className="select"
              value={picked}
              onChange={(event) => setPicked(event.target.value)}
            >
              <option value="">{t('time.placeholder')}</option>
              <Options items={slots} />
            </select>
          </div>
        </form>
      )}
      <div className="actions">
        {footer}
        {slots.length > 0 && (
          <button type="submit" form={formId} className="button button-primary" disabled={!picked}>
            {t('ui.continue')}
          </button>
        )}
      </div>
    </StepCard>
  );
}
