import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MyBookingResponse } from '@deposito/protocol/api/my-booking';
import { MyBookingSection, RequestButton, RequestFailure, type MyBookingProps } from './MyBookingSection';
import { errorMessageKey } from '../api/error-messages';
import { useFormatters } from '../components/format';
import { openPaymentPage, PAYMENT_REDIRECT_DELAY_MS } from '../components/payment-page';
import { extendMyBooking } from './my-booking-api';

type Option = MyBookingResponse['extension']['options'][number];
type Step = { kind: 'choosing' } | { kind: 'paying' } | { kind: 'failed'; key: string };

/** Refusals worth explaining to the visitor; the others (not paid, cancelled) hide the section. */
const EXPLAINED = new Set(['ended', 'location_closes', 'locker_taken', 'amount_too_high']);

/**
 * More time on the same locker: the longer stays the server offers (the stay's new end, the time
 * added, what it costs), and the gateway's page for the one chosen. The server decides what can
 * be extended and for how much; a refusal (409: the locker was taken meanwhile) is explained.
 */
export function ExtendMyBooking({ token, booking }: Omit<MyBookingProps, 'onChanged'>) {
  const { t } = useTranslation();
  const format = useFormatters();
  const zone = booking.location.timezone;
  const { allowed, refusal, options } = booking.extension;
  const [chosen, setChosen] = useState<Option | null>(options[0] ?? null);
  const [step, setStep] = useState<Step>({ kind: 'choosing' });
  const redirect = useRef<number | undefined>(undefined);
  useEffect(() => () => window.clearTimeout(redirect.current), []);

  // A later day's booking gets its locker on the day: it can be extended from then on.
  const later = booking.status === 'scheduled';
  if (!allowed && !later && !(refusal && EXPLAINED.has(refusal))) return null;

  async function pay(option: Option) {
    setStep({ kind: 'paying' });
    try {
      const page = await extendMyBooking(token, option.endIso);
      redirect.current = window.setTimeout(() => openPaymentPage(page), PAYMENT_REDIRECT_DELAY_MS);
    } catch (error) {
      setStep({ kind: 'failed', key: errorMessageKey(error, 'errors.unexpected') });
    }
  }

  const added = (option: Option) => {
    const ms = Date.parse(option.endIso) - Date.parse(booking.endIso);
    return option.duration.unit === 'days'
      ? t('myBooking.extend.addedDays', { count: Math.round(ms / 86_400_000) })
      : t('myBooking.extend.addedHours', { count: Math.round(ms / 3_600_000) });
  };
  const until = (option: Option) =>
    option.duration.unit === 'days'
      ? format.dateTime(option.endIso, zone)
      : t('myBooking.extend.until', { time: format.time(option.endIso, zone) });

  return (
    <MyBookingSection name="extend" title={t('myBooking.extend.title')}>
      {allowed ? (
        <>
          <p className="muted">{t('myBooking.extend.text')}</p>
          <div className="choices" role="group" aria-label={t('myBooking.extend.choose')}>
            {options.map((option) => (
              <button
                key={option.endIso}
                type="button"
                className="choice"
                aria-pressed={chosen?.endIso === option.endIso}
                disabled={step.kind === 'paying'}
                onClick={() => setChosen(option)}
              >
                <span className="choice-title">{added(option)}</span>
                <span className="choice-meta">{until(option)}</span>
                <span className="choice-meta">{format.money(option.totalCents)}</span>
              </button>
            ))}
          </div>
          <RequestFailure step={step} />
          {step.kind === 'paying' && (
            <p className="field-hint" role="status">
              {t('myBooking.extend.opening')}
            </p>
          )}
          {chosen && (
            <RequestButton tone="primary" waiting={step.kind === 'paying'} onClick={() => void pay(chosen)}>
              {t('myBooking.extend.pay', { amount: format.money(chosen.totalCents) })}
            </RequestButton>
          )}
        </>
      ) : (
        <p className="field-hint">
          {t(later ? 'myBooking.extend.onTheDay' : `myBooking.extend.refusal.${refusal}`)}
        </p>
      )}
    </MyBookingSection>
  );
}

/** The extensions paid so far, under the stay's details. */
export function MyBookingExtensions({ booking }: { booking: MyBookingResponse }) {
  const { t } = useTranslation();
  const format = useFormatters();
  if (booking.extensions.length === 0) return null;
  const zone = booking.location.timezone;
  return (
    <div>
      <p className="field-label">{t('myBooking.extend.done')}</p>
      <ul className="my-booking-extensions" data-testid="my-booking-extensions">
        {booking.extensions.map((extension) => (
          <li key={extension.reference}>
            {t('myBooking.extend.item', {
              from: format.dateTime(extension.startIso, zone),
              to: format.dateTime(extension.endIso, zone),
              amount: format.money(extension.paidCents),
            })}{' '}
            <span className="muted">({t(`myBooking.statuses.${extension.status}`)})</span>
          </li>
        ))}
      </ul>
    </div>
  );
}
