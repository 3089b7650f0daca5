import { useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { DateTime } from 'luxon';
import type { MyBookingResponse } from '@deposito/protocol/api/my-booking';
import { isPaidBookingStatus } from '@deposito/protocol/booking/status';
import { useFormatters } from '../components/format';
import { LanguageFlags } from '../components/LanguageFlags';
import { ErrorScreen, LoadingScreen, MessageScreen } from '../components/StatusScreens';
import { BookingQrCode } from './BookingQrCode';
import { CancelMyBooking } from './CancelMyBooking';
import { ExtendMyBooking, MyBookingExtensions } from './ExtendMyBooking';
import { ResendConfirmation } from './ResendConfirmation';
import { myBookingCalendarUrl, myBookingReceiptUrl } from './my-booking-api';
import { useMyBooking } from './use-my-booking';
import { MyBookingSection, type MyBookingProps } from './MyBookingSection';
import './my-booking.css';
import { useDocumentTitle } from '../components/document-title';

/**
 * The visitor's own booking (`/my-booking/{token}`, the private link of the e-mails and the
 * completion page): where, when, which lockers, what was paid, the PIN once assigned, a QR code of
 * the reference for the staff, and "add to calendar". Works embedded and on its own: outside
 * links (maps, Google Calendar) open in a new tab, never inside the host's iframe.
 */
export function MyBookingPage() {
  const { token = '' } = useParams();
  const { state, reload, replace } = useMyBooking(token);
  switch (state.kind) {
    case 'loading':
      return <LoadingScreen />;
    case 'failed':
      return <ErrorScreen onReload={reload} />;
    case 'notFound':
      return <MyBookingNotFound />;
    case 'booking':
      return <MyBooking booking={state.booking} token={token} onChanged={replace} />;
  }
}

function MyBookingNotFound() {
  const { t } = useTranslation();
  return (
    <MessageScreen title={t('myBooking.notFound.title')} text={t('myBooking.notFound.text')} alert>
      <LanguageFlags />
    </MessageScreen>
  );
}

function MyBooking({ booking, token, onChanged }: MyBookingProps) {
  const { t } = useTranslation();
  useDocumentTitle(t('myBooking.title'));
  // A cancelled (or never paid) booking has no stay to show to the staff or to put in a calendar.
  const live = isPaidBookingStatus(booking.status);
  return (
    <main className="page page-narrow my-booking">
      <div className="my-booking-header">
        <h1 className="page-title">{t('myBooking.title')}</h1>
        <LanguageFlags />
      </div>

      <StayCard booking={booking} />

      {live && <StayTools booking={booking} token={token} />}

      <ExtendMyBooking token={token} booking={booking} />

      <CancelMyBooking token={token} booking={booking} onChanged={onChanged} />
    </main>
  );
}

/** The stay itself: status, PIN (or when it comes), reference, where, when, what was paid. */
function StayCard({ booking }: { booking: MyBookingResponse }) {
  const { t } = useTranslation();
  const format = useFormatters();
  const zone = booking.location.timezone;
  const { opening, closing } = booking.location.openingHours;
  return (
    <section className="card stack" aria-labelledby="my-booking-status">
      <p id="my-booking-status" className={`my-booking-status my-booking-status-${booking.status}`}>
        <span className="muted">{t('myBooking.status')}: </span>
        <strong data-testid="my-booking-status">{t(`myBooking.statuses.${booking.status}`)}</strong>
      </p>
      {booking.pin ? (
        <div>
          <p className="field-label">{t('myBooking.pin')}</p>
          <p className="confirmation-pin" data-testid="my-booking-pin">
            {booking.pin}
          </p>
          <p className="field-hint">{t('complete.confirmed.pinHint')}</p>
        </div>
      ) : (
        booking.pinExpectedFrom && (
          <p className="alert alert-notice" role="status">
            {t('myBooking.pinLater', {
              date: format.day(booking.pinExpectedFrom, zone),
              time: format.time(booking.pinExpectedFrom, zone),
            })}
          </p>
        )
      )}
      <dl className="recap-list recap-list-stack">
        <dt>{t('myBooking.reference')}</dt>
        <dd className="booking-code-value" data-testid="my-booking-reference">
          {booking.reference}
        </dd>
        <dt>{t('myBooking.location')}</dt>
        <dd>
          {booking.location.name}
          <br />
          <span className="my-booking-address">{booking.location.address}</span>
          <br />
          <a
            className="my-booking-map-link"
            href={booking.location.mapsUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('myBooking.openMap')}
          </a>
        </dd>
        <dt>{t('myBooking.openingHours')}</dt>
        <dd>{t('myBooking.openingHoursValue', { opening, closing })}</dd>
        <dt>{t('myBooking.lockers')}</dt>
        <dd>
          {t('recap.quantitySize', { count: booking.quantity, size: t(`locker.size.${booking.size}`) })}
        </dd>
        {booking.lockers.length > 0 && (
          <>
            <dt>{t('myBooking.lockerIds')}</dt>
            <dd>{booking.lockers.join(', ')}</dd>
          </>
        )}
        <dt>{t('summary.start')}</dt>
        <dd>{format.dateTime(booking.startIso, zone)}</dd>
        <dt>{t('summary.end')}</dt>
        <dd>{format.dateTime(booking.endIso, zone)}</dd>
        <dt>{t('myBooking.paid')}</dt>
        <dd>{format.money(booking.paidCents)}</dd>
      </dl>
      <MyBookingExtensions booking={booking} />
      <p className="field-hint">{t('myBooking.timezone', { zone: zoneName(zone, format.locale) })}</p>
    </section>
  );
}

/** What a live stay offers: the QR code for the staff, calendar links, the receipt, resend. */
function StayTools({ booking, token }: Omit<MyBookingProps, 'onChanged'>) {
  const { t } = useTranslation();
  return (
    <>
      <section className="card my-booking-qr-card">
        <BookingQrCode
          reference={booking.reference}
          label={t('myBooking.qrAlt', { reference: booking.reference })}
        />
        <p className="muted">{t('myBooking.qr')}</p>
      </section>

      <MyBookingSection name="calendar" title={t('myBooking.calendar')}>
        <div className="my-booking-actions">
          <a className="button button-secondary" href={myBookingCalendarUrl(token)} download>
            {t('myBooking.ics')}
          </a>
          <a
            className="button button-secondary"
            href={booking.googleCalendarUrl}
            target="_blank"
            rel="noopener noreferrer"
          >
            {t('myBooking.google')}
          </a>
        </div>
      </MyBookingSection>

      {booking.receipt && (
        <MyBookingSection name="receipt" title={t('myBooking.receipt.title')}>
          <p className="muted">{t('myBooking.receipt.text')}</p>
          <div className="my-booking-actions">
            <a className="button button-secondary" href={myBookingReceiptUrl(token)} download>
              {t('myBooking.receipt.download')}
            </a>
          </div>
        </MyBookingSection>
      )}

      <ResendConfirmation token={token} />
    </>
  );
}

/** "Europe/Rome" → "CET"/"CEST" style short name in the visitor's language, with the IANA id as fallback. */
function zoneName(zone: string, locale: string): string {
  return DateTime.now().setZone(zone).setLocale(locale).toFormat('ZZZZ') || zone;
}
