import { useTranslation } from 'react-i18next';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import { useFormatters } from './format';

/** The mini recap above the steps: what is chosen so far. Keeps its height so steps do not jump. */
export function RecapBar({
  zone,
  date,
  startTimeIso,
  endTimeIso,
  quantity,
  size,
}: {
  zone: string;
  date: string | null;
  startTimeIso: string | null;
  endTimeIso: string | null;
  quantity: number | null;
  size: LockerSize | null;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (!date && !startTimeIso) return null;
  return (
    <dl className="recap-bar" aria-label={t('recap.title')}>
      <dt>{t('recap.date')}</dt>
      <dd>{startTimeIso ? format.day(startTimeIso, zone) : format.date(date ?? '')}</dd>
      {startTimeIso && (
        <>
          <dt>{t('recap.time')}</dt>
          <dd>
            {format.time(startTimeIso, zone)}
            {endTimeIso
              ? ` → ${
                  format.day(endTimeIso, zone) === format.day(startTimeIso, zone)
                    ? format.time(endTimeIso, zone)
                    : format.dateTime(endTimeIso, zone)
                }`
              : ''}
          </dd>
        </>
      )}
      {quantity !== null && size && (
        <>
          <dt>{t('recap.lockers')}</dt>
          <dd>{t('recap.quantitySize', { count: quantity, size: t(`locker.size.${size}`) })}</dd>
        </>
      )}
    </dl>
  );
}
