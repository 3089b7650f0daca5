import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { buildNote, isLanguage } from '@deposito/protocol/booking/note';
import { internationalPhone, paymentPrecheck } from '@deposito/protocol/forms/customer-form';
import { amountInCents, centsToEuros, validatePaymentAmount } from '@deposito/protocol/pricing/money';
import { wireDuration } from '@deposito/protocol/pricing/price-table';
import { bookingTotals, type AppliedDiscount } from '@deposito/protocol/pricing/totals';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { createPayment, saveBooking, saveCustomerDetails } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { CustomerForm, useCustomerForm } from '../components/CustomerForm';
import { DiscountPanel } from '../components/DiscountPanel';
import { PriceBreakdown } from '../components/PriceBreakdown';
import { PaymentLogos } from '../components/PaymentLogos';
import { BookingRecap } from '../components/BookingRecap';
import { TermsLink } from '../components/TermsDialog';
import { Alert } from '../components/Alert';
import { StepHeading } from '../components/StepHeading';
import { useClock } from '../components/clock';
import { PaymentCountdown, useSecondsLeft } from '../components/PaymentCountdown';
import { openPaymentPage, PAYMENT_REDIRECT_DELAY_MS } from '../components/payment-page';
import type { LockerHold } from './daytime-state';

/** The pay button gives up after 3 minutes. */
export const PAYMENT_TIMEOUT_MS = 180_000;

const MAX_TIMER_MS = 2 ** 31 - 1;

/** `frozen`: a payment page is open for this hold, so it can no longer change (start again instead). */
type PayState = 'idle' | 'submitting' | 'redirecting' | 'timedOut' | 'expired' | 'frozen';

export function DaytimeSummary({
  location,
  hold,
  onBack,
  onCancel,
}: {
  location: PublicLocation;
  hold: LockerHold;
  onBack: () => void;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const clock = useClock();
  // The hold's payment window, shown beside Pay (the server releases the lockers when it ends).
  const secondsLeft = useSecondsLeft(hold.expiresAt ? Date.parse(hold.expiresAt) : null);
  const form = useCustomerForm();
  const [discount, setDiscount] = useState<{ code: string; effect: AppliedDiscount } | null>(null);
  const [payState, setPayState] = useState<PayState>('idle');
  const [error, setError] = useState<string | null>(null);
  const [fallbackMessage, setFallbackMessage] = useState<string | null>(null);
  const timers = useRef<number[]>([]);
  const abort = useRef<AbortController | null>(null);

  // Totals are protocol's, on the server's price for the held lockers.
  const totals = bookingTotals({ priceCents: hold.priceCents, discount: discount?.effect ?? null });

  useEffect(
    () => () => {
      timers.current.forEach((timer) => window.clearTimeout(timer));
      abort.current?.abort();
    },
    [],
  );

  // Back from the provider's page the browser may restore this page as it was left, waiting for the
  // redirect: let the visitor pay again (a change to what is paid is then refused, see handleFrozen).
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setPayState((state) => (state === 'redirecting' ? 'idle' : state));
    };
    window.addEventListener('pageshow', restored);
    return () => window.removeEventListener('pageshow', restored);
  }, []);

  // The server releases held lockers when the payment window closes; the button follows it.
  useEffect(() => {
    if (!hold.expiresAt) return;
    const remaining = Date.parse(hold.expiresAt) - clock().getTime();
    const expire = () => {
      setPayState((state) => (state === 'redirecting' ? state : 'expired'));
      setFallbackMessage(t('payment.error.holdExpired'));
    };
    if (remaining <= 0) {
      expire();
      return;
    }
    // Timers cannot wait longer than ~24.8 days; a hold never lasts that long unless the clocks disagree.
    if (remaining > MAX_TIMER_MS) return;
    const timer = window.setTimeout(expire, remaining);
    return () => window.clearTimeout(timer);
  }, [hold.expiresAt, clock, t]);

  async function pay() {
    setError(null);
    form.touchAll();
    const checked = paymentPrecheck(form.values);
    if (!checked.ok) {
      setError(t(checked.error));
      return;
    }
    const amount = amountInCents(totals.totalCents);
    const amountCheck = validatePaymentAmount(amount);
    if (!amountCheck.ok) {
      setError(t(amountCheck.error));
      return;
    }
    const customer = checked.form;
    const language = i18n.resolvedLanguage ?? '';
    const note = buildNote({
      lang: isLanguage(language) ? language : 'it',
      fastTrack: hold.fastTrack ?? undefined,
    });

    setPayState('submitting');
    const controller = new AbortController();
    abort.current = controller;
    timers.current.push(
      window.setTimeout(() => {
        controller.abort();
        setPayState('timedOut');
        setError(t('payment.error.timeout'));
      }, PAYMENT_TIMEOUT_MS),
    );

    try {
      await saveCustomerDetails(hold.transactionId, {
        nome: customer.name,
        cognome: customer.surname,
        email: customer.email,
        conferma_email: customer.confirmEmail,
        telefono_prefisso: customer.phonePrefix,
        telefono_numero: customer.phone,
        codice_sconto: discount?.code ?? '',
        note,
      });
    } catch (failure) {
      if (controller.signal.aborted) return;
      // A hold that lapsed on the server says so and stays unpayable, never "could not save".
      if (handleExpired(failure) || handleFrozen(failure)) return;
      setPayState('idle');
      setError(t('payment.error.save'));
      return;
    }

    let transactionId = hold.transactionId;
    try {
      const saved = await saveBooking({
        transactionId,
        location: location.key,
        startTimeIso: hold.startTimeIso,
        endTimeIso: hold.endTimeIso,
        createdAtIso: clock().toISOString(),
        locker: {
          lockerId: hold.reservedLockers[0] ?? null,
          size: hold.size,
          duration: hold.fastTrack ? hold.duration.value : wireDuration(hold.duration),
        },
        reservedLockers: hold.reservedLockers,
        quantita: hold.quantity,
        price: centsToEuros(totals.priceCents),
        prezzoScontato: centsToEuros(totals.discountedPriceCents),
        note,
        ...(hold.fastTrack
          ? {
              status: 'pending' as const,
              createdAt: clock().toISOString(),
              startTime: hold.startTimeIso,
              endTime: hold.endTimeIso,
              duration: hold.duration.value,
            }
          : {}),
      });
      transactionId = saved.transactionId;
    } catch (failure) {
      if (controller.signal.aborted) return;
      if (handleExpired(failure) || handleFrozen(failure)) return;
      setPayState('idle');
      setError(t('payment.error.finalSave'));
      return;
    }

    try {
      const page = await createPayment(
        {
          currency: 'EUR',
          amount,
          transactionId,
          lockerId: hold.reservedLockers[0] ?? null,
          duration: hold.fastTrack ? hold.duration.value : wireDuration(hold.duration),
          price: centsToEuros(totals.priceCents),
          email: customer.email,
          nome: customer.name,
          cognome: customer.surname,
          telefono: internationalPhone(customer),
          codiceSconto: discount?.code ?? '',
          note,
        },
        controller.signal,
      );
      timers.current.forEach((timer) => window.clearTimeout(timer));
      setPayState('redirecting');
      if (typeof page === 'string') {
        timers.current.push(window.setTimeout(() => openPaymentPage(page), PAYMENT_REDIRECT_DELAY_MS));
      } else {
        navigate(`/booking-complete?transactionId=${encodeURIComponent(page.transactionId)}`);
      }
    } catch (failure) {
      if (controller.signal.aborted) return;
      if (handleExpired(failure) || handleFrozen(failure)) return;
      setPayState('idle');
      const message = isApiError(failure) && failure.message ? failure.message : t('payment.error.unknown');
      setError(t('payment.error.generic', { message }));
    }
  }

  function handleExpired(failure: unknown): boolean {
    if (!isApiError(failure) || failure.code !== 'BOOKING_EXPIRED') return false;
    timers.current.forEach((timer) => window.clearTimeout(timer));
    setPayState('expired');
    setError(null);
    setFallbackMessage(t('payment.error.holdExpired'));
    return true;
  }

  /**
   * The payment page was opened for this hold (in another tab, or before coming back here) and the
   * visitor changed what is paid, e.g. the discount code: the server keeps the hold as it was paid
   * for, so the visitor starts again.
   */
  function handleFrozen(failure: unknown): boolean {
    if (!isApiError(failure) || failure.code !== 'booking/payment_started') return false;
    timers.current.forEach((timer) => window.clearTimeout(timer));
    setPayState('frozen');
    return true;
  }

  const payDisabled = payState !== 'idle';
  return (
    <section aria-labelledby="summary-title">
      <div className="step-header">
        <StepHeading id="summary-title">{t('summary.title')}</StepHeading>
      </div>
      <div className="summary">
        <div className="card">
          <h3>{t('form.title')}</h3>
          <CustomerForm form={form} />
        </div>
        <div className="card stack">
          <div>
            <BookingRecap
              locationName={location.nome}
              address={location.indirizzo}
              zone={location.timezone}
              startTimeIso={hold.startTimeIso}
              endTimeIso={hold.endTimeIso}
              quantity={hold.quantity}
              size={hold.size}
            />
          </div>
          <DiscountPanel
            duration={hold.duration}
            location={location.key}
            disabled={payDisabled}
            onChange={setDiscount}
          />
          <TermsLink />
          <PriceBreakdown totals={totals} />
          <PaymentLogos />
          {fallbackMessage && <Alert tone="notice">{fallbackMessage}</Alert>}
          {error && <Alert tone="error">{error}</Alert>}
          {secondsLeft !== null && payState !== 'expired' && payState !== 'redirecting' && (
            <PaymentCountdown secondsLeft={secondsLeft} />
          )}
          {payState === 'frozen' ? (
            <>
              <Alert tone="notice">{t('errors.paymentStarted')}</Alert>
              <button
                type="button"
                className="button button-primary button-large button-block"
                onClick={onCancel}
              >
                {t('payment.restart')}
              </button>
            </>
          ) : (
            <button
              type="button"
              className="button button-primary button-large button-block"
              disabled={payDisabled}
              aria-busy={payState === 'submitting' || payState === 'redirecting'}
              onClick={() => void pay()}
            >
              {payState === 'submitting' || payState === 'redirecting'
                ? t('payment.processing')
                : t('payment.pay')}
            </button>
          )}
          <div className="actions">
            <button
              type="button"
              className="button button-ghost"
              onClick={onBack}
              disabled={payState === 'redirecting'}
            >
              {t('ui.back')}
            </button>
            <button type="button" className="button button-danger-ghost" onClick={onCancel}>
              {t('ui.cancel')}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
