import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { retryPayment } from '../api/deposito-api';
import { errorMessageKey } from '../api/error-messages';
import { isApiError } from '../api/http';
import { Alert } from '../components/Alert';
import { openPaymentPage, PAYMENT_REDIRECT_DELAY_MS } from '../components/payment-page';
import { BookingFacts, OutcomeCard } from './BookingFacts';
import { ClosedBooking } from './OutcomeScreens';

type RetryState = 'idle' | 'submitting' | 'redirecting' | 'expired';

/**
 * The card was declined; the hold lives on, so the visitor may pay again: the button asks the
 * server for the provider's page again (`POST /api/payments/retry`) and opens it like the summary
 * does. A hold that lapsed meanwhile shows the expiry; one that moved on (paid by a late result,
 * cancelled) is read again so the page shows what it is now.
 */
export function DeclinedPayment({
  booking,
  location,
  onBookingChanged,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
  onBookingChanged: () => void;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<RetryState>('idle');
  const [error, setError] = useState<string | null>(null);
  const redirect = useRef<number | undefined>(undefined);

  useEffect(() => () => window.clearTimeout(redirect.current), []);

  async function retry() {
    setError(null);
    setState('submitting');
    try {
      const page = await retryPayment(booking.transactionId);
      setState('redirecting');
      if (typeof page === 'string') {
        redirect.current = window.setTimeout(() => openPaymentPage(page), PAYMENT_REDIRECT_DELAY_MS);
      } else {
        // Nothing was left to pay online: the booking is confirmed already.
        onBookingChanged();
      }
    } catch (failure) {
      const code = isApiError(failure) ? failure.code : '';
      if (code === 'BOOKING_EXPIRED') {
        setState('expired');
      } else if (code === 'booking/invalid_state') {
        onBookingChanged();
      } else {
        setState('idle');
        setError(t(errorMessageKey(failure, 'complete.declined.retryError')));
      }
    }
  }

  if (state === 'expired') return <ClosedBooking outcome="expired" booking={booking} />;

  const busy = state === 'submitting' || state === 'redirecting';
  return (
    <OutcomeCard title={t('complete.declined.title')} text={t('complete.declined.text')}>
      <BookingFacts booking={booking} location={location} amountLabel={t('complete.amountDue')} />
      {error && <Alert tone="error">{error}</Alert>}
      <button
        type="button"
        className="button button-primary button-large button-block"
        disabled={busy}
        aria-busy={busy}
        onClick={() => void retry()}
      >
        {busy ? t('payment.processing') : t('complete.declined.retry')}
      </button>
    </OutcomeCard>
  );
}
