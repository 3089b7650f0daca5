import { useTranslation } from 'react-i18next';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { BookingFacts, OutcomeCard, StartAgainLink } from './BookingFacts';

// The completion page's messages for a booking that is not (or no longer) paid and honoured.

/**
 * The payment's result has not reached us yet: a spinner while the booking is read again, then,
 * if it is still open, the e-mail to look for and a button to check again.
 */
export function PaymentProcessing({
  gaveUpWaiting,
  onCheckAgain,
}: {
  gaveUpWaiting: boolean;
  onCheckAgain: () => void;
}) {
  const { t } = useTranslation();
  if (!gaveUpWaiting) {
    return (
      <OutcomeCard title={t('complete.processing.title')} text={t('complete.processing.text')} busy>
        <div className="spinner" role="status" aria-label={t('complete.processing.title')} />
      </OutcomeCard>
    );
  }
  return (
    <OutcomeCard title={t('complete.processing.title')} text={t('complete.processing.slow')}>
      <button type="button" className="button button-secondary button-block" onClick={onCheckAgain}>
        {t('complete.processing.checkAgain')}
      </button>
    </OutcomeCard>
  );
}

/** The hold lapsed before it was paid: the lockers are free again. */
export function BookingExpired({ booking }: { booking: BookingReadBack }) {
  const { t } = useTranslation();
  return (
    <OutcomeCard title={t('complete.expired.title')} text={t('complete.expired.text')}>
      <StartAgainLink booking={booking} />
    </OutcomeCard>
  );
}

/** Cancelled by the visitor or by an operator, with nothing owed back. */
export function BookingCancelled({
  booking,
  location,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
}) {
  const { t } = useTranslation();
  return (
    <OutcomeCard title={t('complete.bookingCancelled.title')} text={t('complete.bookingCancelled.text')}>
      <BookingFacts booking={booking} location={location} showCode />
      <StartAgainLink booking={booking} />
    </OutcomeCard>
  );
}

/** Paid, but the booking cannot be honoured (amount mismatch, no locker left, cancelled): we refund. */
export function RefundOwed({
  booking,
  location,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
}) {
  const { t } = useTranslation();
  return (
    <OutcomeCard title={t('complete.refund.title')} text={t('complete.refund.text')}>
      {/* No amount: after an amount mismatch what was charged is not the booking's total. */}
      <BookingFacts booking={booking} location={location} showCode />
    </OutcomeCard>
  );
}

/** A hold whose payment was never started. */
export function UnpaidBooking({ booking }: { booking: BookingReadBack }) {
  const { t } = useTranslation();
  return (
    <OutcomeCard title={t('complete.unpaid.title')} text={t('complete.unpaid.text')}>
      <StartAgainLink booking={booking} />
    </OutcomeCard>
  );
}
