import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { myBookingPagePath, requestMyBookingLink } from './my-booking-api';

/**
 * On the completion page of a paid booking: the private link to the visitor's booking page. Asked
 * for once per visit of the page; nothing is shown if it cannot be had (the e-mail carries one too).
 */
export function MyBookingLink({ transactionId }: { transactionId: string }) {
  const { t } = useTranslation();
  const [path, setPath] = useState<string | null>(null);
  useEffect(() => {
    let active = true;
    requestMyBookingLink(transactionId).then(
      ({ token }) => active && setPath(myBookingPagePath(token)),
      () => undefined,
    );
    return () => {
      active = false;
    };
  }, [transactionId]);
  if (!path) return null;
  return (
    <div>
      <a className="button button-secondary" href={path} data-testid="my-booking-link">
        {t('myBooking.completeLink')}
      </a>
      <p className="field-hint">{t('myBooking.completeLinkHint')}</p>
    </div>
  );
}
