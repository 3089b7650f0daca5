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

/**
 * How each booking that ended without being honoured is told: its title and text, whether the
 * booking's facts are shown (with its code) and whether the visitor is offered to book again.
 */
const CLOSED = {
  /** The hold lapsed before it was paid: the lockers are free again. */
  expired: { title: 'complete.expired.title', text: 'complete.expired.text', facts: false, startAgain: true },
  /** Cancelled by the visitor or by an operator, with nothing owed back. */
  cancelled: {
    title: 'complete.bookingCancelled.title',
    text: 'complete.bookingCancelled.text',
    facts: true,
    startAgain: true,
  },
  /**
   * Paid, but the booking cannot be honoured (amount mismatch, no locker left, cancelled): we refund.
   * No amount: after an amount mismatch what was charged is not the booking's total.
   */
  refund: { title: 'complete.refund.title', text: 'complete.refund.text', facts: true, startAgain: false },
  /** A hold whose payment was never started. */
  unpaid: { title: 'complete.unpaid.title', text: 'complete.unpaid.text', facts: false, startAgain: true },
} as const;

/** A booking that ended without being honoured (lapsed, cancelled, refunded, never paid). */
export function ClosedBooking({
  outcome,
  booking,
  location = null,
}: {
  outcome: keyof typeof CLOSED;
  booking: BookingReadBack;
  location?: PublicLocation | null;
}) {
  const { t } = useTranslation();
  const { title, text, facts, startAgain } = CLOSED[outcome];
  return (
    <OutcomeCard title={t(title)} text={t(text)}>
      {facts && <BookingFacts booking={booking} location={location} showCode />}
      {startAgain && <StartAgainLink booking={booking} />}
    </OutcomeCard>
  );
}
