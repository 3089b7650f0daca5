import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { eurosToCents } from '@deposito/protocol/pricing/money';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { useFormatters } from '../components/format';
import { MyBookingLink } from '../my-booking/MyBookingLink';
import { chargedCents, MinimumChargeNote, PlaceAndTimeTerms, raisedToMinimumCharge } from './BookingFacts';
import { useDocumentTitle } from '../components/document-title';

/**
 * The confirmation of a paid booking (confirmed, confirmed_late, scheduled): who, what, when, the
 * discounted price and the amount paid, then the PIN and lockers, or for a later day the notice
 * that they are assigned and sent on the day.
 */
export function PaidBooking({
  booking,
  location,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
}) {
  const { t } = useTranslation();
  useDocumentTitle(t('complete.confirmed.title'));
  const format = useFormatters();
  const scheduled = booking.status === 'scheduled';
  const paid = chargedCents(booking);
  return (
    <main className="page page-narrow">
      <div className="card stack">
        <div>
          <h1>{t('complete.confirmed.title')}</h1>
          <p className="muted">{t('complete.confirmed.thanks', { name: booking.nome })}</p>
        </div>
        <div>
          <dl className="recap-list recap-list-stack">
            <dt>{t('complete.confirmed.name')}</dt>
            <dd>
              {booking.nome} {booking.cognome}
            </dd>
            <dt>{t('complete.confirmed.email')}</dt>
            <dd>
              <BreakableEmail email={booking.email} />
            </dd>
            <PlaceAndTimeTerms booking={booking} location={location} />
            {booking.price_discounted !== null && (
              <>
                <dt>{t('price.price')}</dt>
                <dd>{format.money(eurosToCents(booking.price_discounted))}</dd>
              </>
            )}
            {paid !== null && (
              <>
                {/* What the card was charged: the server's total (fee and minimum charge included). */}
                <dt>{t('complete.confirmed.paid')}</dt>
                <dd>{format.money(paid)}</dd>
              </>
            )}
            {!scheduled && booking.reservedLockers.length > 0 && (
              <>
                <dt>{t('complete.confirmed.lockerIds')}</dt>
                <dd>{booking.reservedLockers.join(', ')}</dd>
              </>
            )}
          </dl>
          {paid !== null && raisedToMinimumCharge(booking) && <MinimumChargeNote />}
        </div>
        {scheduled || !booking.pin ? (
          <p className="alert alert-notice" role="status">
            {t('complete.confirmed.scheduled')}
          </p>
        ) : (
          <div>
            <p className="field-label">{t('complete.confirmed.pin')}</p>
            <p className="confirmation-pin">{booking.pin}</p>
            <p className="field-hint">{t('complete.confirmed.pinHint')}</p>
          </div>
        )}
        <MyBookingLink transactionId={booking.transactionId} />
      </div>
    </main>
  );
}

/** An e-mail address that may wrap before its '@' and its dots, rather than anywhere. */
function BreakableEmail({ email }: { email: string }) {
  const parts = email.split(/(?=[@.])/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
