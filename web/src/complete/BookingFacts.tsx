import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { parseNote } from '@deposito/protocol/booking/note';
import { MIN_AMOUNT_CENTS, eurosToCents } from '@deposito/protocol/pricing/money';
import { bookingTotals } from '@deposito/protocol/pricing/totals';
import type { BookingReadBack } from '@deposito/protocol/schemas/booking';
import { DEFAULT_TIMEZONE } from '@deposito/protocol/schemas/limits';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { useFormatters } from '../components/format';
import { useDocumentTitle } from '../components/document-title';

/**
 * What the card is (or was) charged for the booking: the server's `total`, fee and minimum charge
 * included; from an older server, protocol's total for the discounted price. Null when unknown.
 */
export function chargedCents(booking: BookingReadBack): number | null {
  if (booking.total !== undefined) return eurosToCents(booking.total);
  if (booking.price_discounted === null) return null;
  return bookingTotals({ priceCents: eurosToCents(booking.price_discounted) }).totalCents;
}

/** True when the discounted price plus the fee is below the smallest amount a card can be charged. */
export function raisedToMinimumCharge(booking: BookingReadBack): boolean {
  if (booking.price_discounted === null) return false;
  return bookingTotals({ priceCents: eurosToCents(booking.price_discounted) }).minimumChargeTopUpCents > 0;
}

/** The booking's own start: the night wizard for a night booking, the location page otherwise. */
export function startAgainPath(booking: BookingReadBack): string {
  const location = encodeURIComponent(booking.location);
  return parseNote(booking.note).night ? `/booking-notte/${location}` : `/${location}`;
}

/** The card every completion message sits in: a title, the explanation, then whatever follows. */
export function OutcomeCard({
  title,
  text,
  children,
  busy = false,
}: {
  title: string;
  text: ReactNode;
  children?: ReactNode;
  busy?: boolean;
}) {
  useDocumentTitle(title);
  return (
    <main className="page page-narrow">
      <div className="card stack outcome" aria-busy={busy || undefined}>
        <div>
          <h1>{title}</h1>
          <p className="muted">{text}</p>
        </div>
        {children}
      </div>
    </main>
  );
}

/** The terms of a recap list that say where, what and when a booking is (the location when known). */
export function PlaceAndTimeTerms({
  booking,
  location,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const zone = location?.timezone ?? DEFAULT_TIMEZONE;
  return (
    <>
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
    </>
  );
}

/**
 * Where, when and what a booking is; with `amountLabel`, the amount the card is charged; with
 * `showCode`, the booking code the visitor quotes when contacting us.
 */
export function BookingFacts({
  booking,
  location,
  amountLabel,
  showCode = false,
}: {
  booking: BookingReadBack;
  location: PublicLocation | null;
  amountLabel?: string;
  showCode?: boolean;
}) {
  const { t } = useTranslation();
  const format = useFormatters();
  const amount = amountLabel ? chargedCents(booking) : null;
  return (
    <div>
      {showCode && (
        <div className="booking-code">
          <p className="field-label">{t('complete.bookingCode')}</p>
          <p className="booking-code-value">{booking.transactionId}</p>
        </div>
      )}
      <dl className="recap-list">
        <PlaceAndTimeTerms booking={booking} location={location} />
        {amount !== null && (
          <>
            <dt>{amountLabel}</dt>
            <dd>{format.money(amount)}</dd>
          </>
        )}
      </dl>
      {amount !== null && raisedToMinimumCharge(booking) && <MinimumChargeNote />}
    </div>
  );
}

/** Says why an amount is more than the price plus the fee. */
export function MinimumChargeNote() {
  const { t } = useTranslation();
  const { money } = useFormatters();
  return <p className="field-hint">{t('price.minimumCharge', { amount: money(MIN_AMOUNT_CENTS) })}</p>;
}

/** Back to the booking's start, to book again. */
export function StartAgainLink({ booking }: { booking: BookingReadBack }) {
  const { t } = useTranslation();
  return (
    <Link className="button button-primary button-block" to={startAgainPath(booking)}>
      {t('complete.startAgain')}
    </Link>
  );
}
