import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { parseNote } from '@deposito/protocol/booking/note';
import { eurosToCents } from '@deposito/protocol/pricing/money';
import { bookingTotals } from '@deposito/protocol/pricing/totals';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import { DEFAULT_TIMEZONE } from '@deposito/protocol/schemas/limits';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { decryptPaymentReturn, loadLocation, readBooking } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { ErrorScreen, LoadingScreen } from '../components/StatusScreens';
import { useFormatters } from '../components/format';

type Page =
  | { kind: 'loading' }
  | { kind: 'cancelled' }
  | { kind: 'notFound' }
  | { kind: 'failed' }
  | { kind: 'confirmed'; booking: BookingReadBack; location: PublicLocation | null };

/** Where the payment provider sends the visitor back: `?transactionId=…`, or the encrypted `a` and `b`. */
export function BookingCompletePage() {
  const { i18n } = useTranslation();
  const [searchParams] = useSearchParams();
  const [page, setPage] = useState<Page>({ kind: 'loading' });
  const transactionId = searchParams.get('transactionId');
  const a = searchParams.get('a');
  const b = searchParams.get('b');

  useEffect(() => {
    let active = true;
    async function load() {
      let id = transactionId;
      if (!id && a && b) id = (await decryptPaymentReturn(a, b)).shopTransactionId;
      if (!id) return { kind: 'cancelled' } as const;
      const booking = await readBooking(id);
      const location = await loadLocation(booking.location).catch(() => null);
      return { kind: 'confirmed', booking, location } as const;
    }
    load().then(
      (result) => {
        if (!active) return;
        if (result.kind === 'confirmed') void i18n.changeLanguage(parseNote(result.booking.note).lang);
        setPage(result);
      },
      (failure: unknown) => {
        if (!active) return;
        const code = isApiError(failure) ? failure.code : '';
        if (code === 'NO_PARAMS' || code === 'NO_TRANSACTION_ID') setPage({ kind: 'cancelled' });
        else if (code === 'BOOKING_NOT_FOUND' || code === 'validation/invalid_params')
          setPage({ kind: 'notFound' });
        else setPage({ kind: 'failed' });
      },
    );
    return () => {
      active = false;
    };
  }, [transactionId, a, b, i18n]);

  switch (page.kind) {
    case 'loading':
      return <LoadingScreen />;
    case 'failed':
      return <ErrorScreen />;
    case 'cancelled':
      return <CancelledPayment />;
    case 'notFound':
      return <BookingNotFound />;
    case 'confirmed':
      return <Confirmation booking={page.booking} location={page.location} />;
  }
}

function CancelledPayment() {
  const { t } = useTranslation();
  return (
    <main className="screen-center">
      <div className="card">
        <h1>{t('complete.cancelled.title')}</h1>
        <p className="muted">{t('complete.cancelled.text')}</p>
      </div>
    </main>
  );
}

function BookingNotFound() {
  const { t } = useTranslation();
  return (
    <main className="screen-center">
      <div className="card">
        <h1>{t('complete.notFound.title')}</h1>
        <p className="muted">{t('complete.notFound.text')}</p>
      </div>
    </main>
  );
}

function Confirmation({ booking, location }: { booking: BookingReadBack; location: PublicLocation | null }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const zone = location?.timezone ?? DEFAULT_TIMEZONE;
  const scheduled = booking.status === 'scheduled';
  return (
    <main className="page page-narrow">
      <div className="card stack">
        <div>
          <h1>{t('complete.confirmed.title')}</h1>
          <p className="muted">{t('complete.confirmed.thanks', { name: booking.nome })}</p>
        </div>
        <dl className="recap-list">
          <dt>{t('complete.confirmed.name')}</dt>
          <dd>
            {booking.nome} {booking.cognome}
          </dd>
          <dt>{t('complete.confirmed.email')}</dt>
          <dd>{booking.email}</dd>
          {location && (
            <>
              <dt>{t('complete.confirmed.location')}</dt>
              <dd>{location.nome}</dd>
            </>
          )}
          <dt>{t('complete.confirmed.lockers')}</dt>
          <dd>
            {t('recap.quantitySize', {
              count: booking.quantita,
              size: t(`locker.size.${booking.lockerType}`),
            })}
          </dd>
          <dt>{t('summary.start')}</dt>
          <dd>{format.dateTime(booking.startTimeIso, zone)}</dd>
          <dt>{t('summary.end')}</dt>
          <dd>{format.dateTime(booking.endTimeIso, zone)}</dd>
          {booking.price_discounted !== null && (
            <>
              {/* The discounted price (spec), and what the card was charged: that plus the service fee. */}
              <dt>{t('price.price')}</dt>
              <dd>{format.money(eurosToCents(booking.price_discounted))}</dd>
              <dt>{t('complete.confirmed.paid')}</dt>
              <dd>
                {format.money(
                  bookingTotals({ priceCents: eurosToCents(booking.price_discounted) }).totalCents,
                )}
              </dd>
            </>
          )}
          {!scheduled && booking.reservedLockers.length > 0 && (
            <>
              <dt>{t('complete.confirmed.lockerIds')}</dt>
              <dd>{booking.reservedLockers.join(', ')}</dd>
            </>
          )}
        </dl>
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
      </div>
    </main>
  );
}
