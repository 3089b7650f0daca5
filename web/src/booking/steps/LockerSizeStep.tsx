import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCKER_SIZES, type LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { SizeCounts } from '@deposito/protocol/schemas/primitives';
import { ChoiceButton, StepCard } from './StepCard';

/**
 * Standard and large with what fits, their inside measurements (when the operators wrote them in the
 * system settings) and their free counts; a size with none free cannot be chosen.
 */
export function LockerSizeStep({
  counts,
  dimensions,
  onChoose,
  secondaryAction,
}: {
  counts: SizeCounts;
  dimensions?: Record<LockerSize, string> | undefined;
  onChoose: (size: LockerSize) => void;
  secondaryAction: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <StepCard title={t('lockerOptions.title')}>
      <div className="choices">
        {LOCKER_SIZES.map((size) => (
          <ChoiceButton key={size} disabled={counts[size] <= 0} onChoose={() => onChoose(size)}>
            <span className="choice-title">{t(`locker.size.${size}`)}</span>
            <span className="choice-meta">{t(`locker.sizeHint.${size}`)}</span>
            {dimensions?.[size] ? (
              <span className="choice-meta">
                {t('lockerOptions.dimensions', { dimensions: dimensions[size] })}
              </span>
            ) : null}
            <span className="choice-meta">{t('lockerOptions.available', { count: counts[size] })}</span>
          </ChoiceButton>
        ))}
      </div>
      <div className="actions">{secondaryAction}</div>
    </StepCard>
  );
}
