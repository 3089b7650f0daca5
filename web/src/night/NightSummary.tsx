import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { buildNote, isLanguage } from '@deposito/protocol/booking/note';
import { generatePin } from '@deposito/protocol/booking/pin';
import { internationalPhone, paymentPrecheck } from '@deposito/protocol/forms/customer-form';
import { pricingFromPriceLists } from '@deposito/protocol/pricing/location-pricing';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import { SERVICE_FEE_CENTS, centsToEuros } from '@deposito/protocol/pricing/money';
import {
  durationInHours,
  nightPriceCents,
  nightPricingConfig,
  type Duration,
} from '@deposito/protocol/pricing/price-table';
import { bookingTotals, type AppliedDiscount } from '@deposito/protocol/pricing/totals';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { createNightPayment } from '../api/deposito-api';
import { isApiError } from '../api/http';
import { CustomerForm, useCustomerForm } from '../components/CustomerForm';
import { DiscountPanel } from '../components/DiscountPanel';
import { PriceBreakdown } from '../components/PriceBreakdown';
import { PaymentLogos } from '../components/PaymentLogos';
import { BookingRecap } from '../components/BookingRecap';
import { TermsLink } from '../components/TermsDialog';
import { Alert } from '../components/Alert';
import { StepHeading } from '../components/StepHeading';
import { openPaymentPage } from '../components/payment-page';
import { PaymentCountdown, useSecondsLeft } from '../components/PaymentCountdown';
import { useClock } from '../components/clock';
import { scheduleSettledResizes } from '../embed/resize-reporter';

/** Seconds the visitor has to pay once the summary shows. */
export const NIGHT_PAYMENT_SECONDS = 240;

const randomBytes = (size: number) => crypto.getRandomValues(new Uint8Array(size));

export function NightSummary({
  location,
  size,
  quantity,
  duration,
  startTimeIso,
  endTimeIso,
  fallbackMessage,
  onCancel,
}: {
  location: PublicLocation;
  size: LockerSize;
  quantity: number;
  duration: Duration;
  startTimeIso: string;
  endTimeIso: string;
  fallbackMessage: string | null;
  onCancel: () => void;
}) {
  const { t, i18n } = useTranslation();
  const form = useCustomerForm();
  const [discount, setDiscount] = useState<{ code: string; effect: AppliedDiscount } | null>(null);
  const clock = useClock();
  // The payment window runs from when the summary was shown, measured on the clock (not in ticks).
  const [deadline] = useState(() => clock().getTime() + NIGHT_PAYMENT_SECONDS * 1000);
  const secondsLeft = useSecondsLeft(deadline) ?? 0;
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const expired = secondsLeft <= 0;

  const priceCents = nightPriceCents(
    nightPricingConfig(pricingFromPriceLists(location)),
    size,
    durationInHours(duration),
    quantity,
  );
  const totals = bookingTotals({ priceCents, discount: discount?.effect ?? null });

  useEffect(() => scheduleSettledResizes(), []);

  const unpriced = priceCents === 0;

  async function pay() {
    if (expired || unpriced) return;
    setError(null);
    form.touchAll();
    const checked = paymentPrecheck(form.values);
    if (!checked.ok) {
      setError(t(checked.error));
      return;
    }
    const customer = checked.form;
    const language = i18n.resolvedLanguage ?? '';
    setLoading(true);
    try {
      const page = await createNightPayment({
        locationKey: location.key,
        tipoLocker: size,
        quantita: quantity,
        startTimeIso,
        endTimeIso,
        prezzoOriginale: centsToEuros(totals.priceCents + SERVICE_FEE_CENTS),
        prezzoScontato: centsToEuros(totals.totalCents),
        email: customer.email,
        nome: customer.name,
        cognome: customer.surname,
        telefono: internationalPhone(customer),
        pin: generatePin({ randomBytes }),
        note: buildNote({ lang: isLanguage(language) ? language : 'it', night: true }),
        codiceSconto: discount?.code ?? '',
      });
      openPaymentPage(page);
    } catch (failure) {
      setLoading(false);
      setError(
        isApiError(failure) && failure.code === 'BOOKING_EXPIRED'
          ? t('night.error.sessionExpired')
          : t('night.error.paymentCreation'),
      );
    }
  }

  return (
    <section aria-labelledby="night-summary-title">
      <div className="step-header">
        <StepHeading id="night-summary-title">{t('summary.title')}</StepHeading>
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
              startTimeIso={startTimeIso}
              endTimeIso={endTimeIso}
              quantity={quantity}
              size={size}
            />
          </div>
          <DiscountPanel
            duration={duration}
            location={location.key}
            disabled={expired || loading}
            onChange={setDiscount}
          />
          <TermsLink />
          <PriceBreakdown totals={totals} />
          <PaymentLogos />
          {fallbackMessage && <Alert tone="notice">{fallbackMessage}</Alert>}
          {error && <Alert tone="error">{error}</Alert>}
          {unpriced && <Alert tone="error">{t('errors.noPrice')}</Alert>}
          {expired && (
            <Alert tone="error">
              {t('payment.error.timeout')} {t('night.error.sessionExpired')}
            </Alert>
          )}
          <PaymentCountdown secondsLeft={secondsLeft} />
          <button
            type="button"
            className="button button-primary button-large button-block"
            disabled={expired || loading || unpriced}
            aria-busy={loading}
            onClick={() => void pay()}
          >
            {loading ? t('payment.processing') : t('payment.pay')}
          </button>
          <div className="actions">
            <button type="button" className="button button-danger-ghost" onClick={onCancel}>
              {t('ui.cancel')}
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}
