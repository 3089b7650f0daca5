import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { ErrorScreen, LoadingScreen, MessageScreen } from '../components/StatusScreens';
import { bookingOutcome } from './booking-outcome';
import { DeclinedPayment } from './DeclinedPayment';
import { ClosedBooking, PaymentProcessing } from './OutcomeScreens';
import { PaidBooking } from './PaidBooking';
import { useCompletedBooking } from './use-completed-booking';
import { forgetFlowsOf } from '../components/flow-history';

/**
 * Where the payment provider sends the visitor back (`?transactionId=…`, or the encrypted `a` and
 * `b`), after a payment or a declined card: the page says what the booking's status really is.
 */
export function BookingCompletePage() {
  const [searchParams] = useSearchParams();
  const { state, refresh } = useCompletedBooking({
    transactionId: searchParams.get('transactionId'),
    a: searchParams.get('a'),
    b: searchParams.get('b'),
  });

  switch (state.kind) {
    case 'loading':
      return <LoadingScreen />;
    case 'failed':
      return <ErrorScreen />;
    case 'cancelled':
      return <StartAgainScreen outcome="cancelled" />;
    case 'notFound':
      return <StartAgainScreen outcome="notFound" />;
    case 'linkExpired':
      return <StartAgainScreen outcome="linkExpired" />;
    case 'booking':
      return (
        <BookingOutcomeScreen
          booking={state.booking}
          location={state.location}
          gaveUpWaiting={state.gaveUpWaiting}
          onRefresh={refresh}
        />
      );
  }
}

function BookingOutcomeScreen({
  booking,
  location,
  gaveUpWaiting,
  onRefresh,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
  gaveUpWaiting: boolean;
  onRefresh: () => void;
}) {
  const outcome = bookingOutcome(booking.status);
  // A booking that is over (paid, lapsed, cancelled) is not resumed by the booking pages' Back.
  const settled = outcome !== 'processing' && outcome !== 'declined' && outcome !== 'unpaid';
  useEffect(() => {
    if (settled) forgetFlowsOf(booking.transactionId);
  }, [settled, booking.transactionId]);
  switch (outcome) {
    case 'paid':
    case 'scheduled':
      return <PaidBooking booking={booking} location={location} />;
    case 'processing':
      return <PaymentProcessing gaveUpWaiting={gaveUpWaiting} onCheckAgain={onRefresh} />;
    case 'declined':
      return <DeclinedPayment booking={booking} location={location} onBookingChanged={onRefresh} />;
    case 'expired':
    case 'cancelled':
    case 'refund':
    case 'unpaid':
      return <ClosedBooking outcome={outcome} booking={booking} location={location} />;
  }
}

/**
 * A screen with nowhere to go on but the booking pages, to book again: the visitor left the
 * provider's page without paying (no parameters), the booking is not found, or an old return link
 * no longer says which booking it was (the confirmation e-mail and its link do).
 */
function StartAgainScreen({ outcome }: { outcome: 'cancelled' | 'notFound' | 'linkExpired' }) {
  const { t } = useTranslation();
  return (
    <MessageScreen
      title={t(`complete.${outcome}.title`)}
      text={t(`complete.${outcome}.text`)}
      className="card stack"
    >
      <Link className="button button-primary button-block" to="/">
        {t('complete.startAgain')}
      </Link>
    </MessageScreen>
  );
}
