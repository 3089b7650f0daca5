import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { quantityOptions } from '@deposito/protocol/booking/quantity';
import { ChoiceButton, StepCard, StepError } from './StepCard';

/** Buttons 1 … min(available, 3), from protocol's quantityOptions. */
export function QuantityStep({
  available,
  busy,
  error,
  onDismissError,
  onChoose,
  secondaryAction,
}: {
  available: number;
  busy: boolean;
  error: string | null;
  onDismissError: () => void;
  onChoose: (quantity: number) => void;
  secondaryAction: ReactNode;
}) {
  const { t } = useTranslation();
  const options = quantityOptions(available);
  return (
    <StepCard title={t('lockerQuantity.title')} prompt={t('lockerQuantity.maxLimit')} busy={busy}>
      <div className="choices">
        {options.map((quantity) => (
          <ChoiceButton key={quantity} disabled={busy} onChoose={() => onChoose(quantity)}>
            <span className="choice-number">{quantity}</span>
            <span className="choice-meta">{t('lockerQuantity.lockers', { count: quantity })}</span>
          </ChoiceButton>
        ))}
      </div>
      {busy && (
        <p role="status" className="field-hint">
          {t('lockerQuantity.reserving')}
        </p>
      )}
      <StepError error={error} onDismiss={onDismissError} />
      <div className="actions">{secondaryAction}</div>
    </StepCard>
  );
}
