import { useTranslation } from 'react-i18next';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import { useFormatters } from './format';

/** Where and when: the right column's recap on both summaries. */
export function BookingRecap({
  locationName,
  address,
  zone,
  startTimeIso,
  endTimeIso,
  quantity,
  size,
}: {
  locationName: string;
  address: string;
  zone: string;
  startTimeIso: string;
  endTimeIso: string;
  quantity: number;
  size: LockerSize;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  return (
    <>
      <h3>{locationName}</h3>
      {address && <p className="muted">{address}</p>}
      <dl className="recap-list">
        <dt>{t('summary.start')}</dt>
        <dd>{format.dateTime(startTimeIso, zone)}</dd>
        <dt>{t('summary.end')}</dt>
        <dd>{format.dateTime(endTimeIso, zone)}</dd>
        <dt>{t('summary.lockers')}</dt>
        <dd>{t('recap.quantitySize', { count: quantity, size: t(`locker.size.${size}`) })}</dd>
      </dl>
    </>
  );
}
