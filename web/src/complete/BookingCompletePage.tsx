import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { ErrorScreen, LoadingScreen } from '../components/StatusScreens';
import { bookingOutcome } from './booking-outcome';
import { DeclinedPayment } from './DeclinedPayment';
import {
  BookingCancelled,
  BookingExpired,
  PaymentProcessing,
  RefundOwed,
  UnpaidBooking,
} from './OutcomeScreens';
import { PaidBooking } from './PaidBooking';
import { useCompletedBooking } from './use-completed-booking';
import { useDocumentTitle } from '../components/document-title';
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
      return <CancelledPayment />;
    case 'notFound':
      return <BookingNotFound />;
    case 'linkExpired':
      return <ReturnLinkExpired />;
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
      return <BookingExpired booking={booking} />;
    case 'cancelled':
      return <BookingCancelled booking={booking} location={location} />;
    case 'refund':
      return <RefundOwed booking={booking} location={location} />;
    case 'unpaid':
      return <UnpaidBooking booking={booking} />;
  }
}

/** The visitor left the provider's page without paying (no parameters). */
function CancelledPayment() {
  const { t } = useTranslation();
  useDocumentTitle(t('complete.cancelled.title'));
  return (
    <main className="screen-center">
      <div className="card stack">
        <h1>{t('complete.cancelled.title')}</h1>
        <p className="muted">{t('complete.cancelled.text')}</p>
        {/* Somewhere to go on: the booking pages, to book again. */}
        <Link className="button button-primary button-block" to="/">
          {t('complete.startAgain')}
        </Link>
      </div>
    </main>
  );
}

/** An old return link: it no longer says which booking it was, the e-mail and its link do. */
function ReturnLinkExpired() {
  const { t } = useTranslation();
  useDocumentTitle(t('complete.linkExpired.title'));
  return (
    <main className="screen-center">
      <div className="card stack">
        <h1>{t('complete.linkExpired.title')}</h1>
        <p className="muted">{t('complete.linkExpired.text')}</p>
        <Link className="button button-primary button-block" to="/">
          {t('complete.startAgain')}
        </Link>
      </div>
    </main>
  );
}

function BookingNotFound() {
  const { t } = useTranslation();
  useDocumentTitle(t('complete.notFound.title'));
  return (
    <main className="screen-center">
      <div className="card stack">
        <h1>{t('complete.notFound.title')}</h1>
        <p className="muted">{t('complete.notFound.text')}</p>
        <Link className="button button-primary button-block" to="/">
          {t('complete.startAgain')}
        </Link>
      </div>
    </main>
  );
}
