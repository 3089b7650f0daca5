import { useTranslation } from 'react-i18next';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import { bookingTotals } from '@deposito/protocol/pricing/totals';
import { Dialog } from '../components/Dialog';
import { useFormatters } from '../components/format';

/** Start now: a large locker for 3 hours, or, when none is free, the standard fallback to confirm. */
export function FastTrackDialog({
  size,
  hours,
  priceCents,
  fallback,
  busy,
  error,
  onAccept,
  onDecline,
}: {
  size: LockerSize;
  hours: number;
  priceCents: number;
  fallback: boolean;
  busy: boolean;
  error: string | null;
  onAccept: () => void;
  onDecline: () => void;
}) {
  const { t } = useTranslation();
  const { money } = useFormatters();
  const sizeName = t(`locker.size.${size}`);
  return (
    <Dialog
      title={fallback ? t('fastTrack.fallback.title') : t('fastTrack.title')}
      onClose={onDecline}
      actions={
        <>
          <button type="button" className="button button-ghost" onClick={onDecline} disabled={busy}>
            {fallback ? t('fastTrack.fallback.decline') : t('ui.cancel')}
          </button>
          <button
            type="button"
            className="button button-primary"
            onClick={onAccept}
            disabled={busy}
            aria-busy={busy}
          >
            {fallback ? t('fastTrack.fallback.accept') : t('fastTrack.accept')}
          </button>
        </>
      }
    >
      {fallback ? (
        <p>{t('fastTrack.fallback.message')}</p>
      ) : (
        <p>{t('fastTrack.offer', { size: sizeName, hours })}</p>
      )}
      <p>
        {/* What the card will be charged, the service fee included, as the summary will say. */}
        <strong>
          {t('fastTrack.total', {
            total: money(bookingTotals({ priceCents }).totalCents),
            fee: money(bookingTotals({ priceCents }).feeCents),
          })}
        </strong>
      </p>
      {error && (
        <p className="text-error" role="alert">
          {error}
        </p>
      )}
    </Dialog>
  );
}
