import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { quantityOptions } from '@deposito/protocol/booking/quantity';
import { StepHeading } from '../../components/StepHeading';
import { Alert } from '../../components/Alert';

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
    <section className="card" aria-busy={busy}>
      <div className="step-header">
        <StepHeading>{t('lockerQuantity.title')}</StepHeading>
        <p className="muted">{t('lockerQuantity.maxLimit')}</p>
      </div>
      <div className="choices">
        {options.map((quantity) => (
          <button
            key={quantity}
            type="button"
            className="choice"
            disabled={busy}
            onClick={() => onChoose(quantity)}
          >
            <span className="choice-number">{quantity}</span>
            <span className="choice-meta">{t('lockerQuantity.lockers', { count: quantity })}</span>
          </button>
        ))}
      </div>
      {busy && (
        <p role="status" className="field-hint">
          {t('lockerQuantity.reserving')}
        </p>
      )}
      {error && (
        <Alert tone="error" onDismiss={onDismissError}>
          {error}
        </Alert>
      )}
      <div className="actions">{secondaryAction}</div>
    </section>
  );
}
