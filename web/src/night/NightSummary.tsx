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
import { useCustomerForm } from '../components/CustomerForm';
import { CheckoutSummary } from '../components/CheckoutSummary';
import { Alert } from '../components/Alert';
import { openPaymentPage } from '../components/payment-page';
import { PaymentCountdown, useSecondsLeft } from '../components/PaymentCountdown';
import { useClock } from '../components/clock';
import { scheduleSettledResizes } from '../embed/resize-reporter';

/** Seconds the visitor has to pay once the summary shows. */
export const NIGHT_PAYMENT_SECONDS = 240;

const randomBytes = (size: number) => crypto.getRandomValues(new Uint8Array(size));

/** The night price of the choice (0: the location has no night price for it) and its totals. */
function nightTotals(
  location: PublicLocation,
  size: LockerSize,
  duration: Duration,
  quantity: number,
  discount: AppliedDiscount | null,
) {
  const pricing = nightPricingConfig(pricingFromPriceLists(location));
  const priceCents = nightPriceCents(pricing, size, durationInHours(duration), quantity);
  return { priceCents, totals: bookingTotals({ priceCents, discount }) };
}

/** What the night payment is created with: the period, the price with the service fee, a PIN. */
function nightPaymentBody(booking: {
  location: PublicLocation;
  size: LockerSize;
  quantity: number;
  startTimeIso: string;
  endTimeIso: string;
  totals: ReturnType<typeof bookingTotals>;
  customer: Extract<ReturnType<typeof paymentPrecheck>, { ok: true }>['form'];
  language: string;
  discount: { code: string } | null;
}) {
  const { customer, totals, language } = booking;
  return {
    locationKey: booking.location.key,
    tipoLocker: booking.size,
    quantita: booking.quantity,
    startTimeIso: booking.startTimeIso,
    endTimeIso: booking.endTimeIso,
    prezzoOriginale: centsToEuros(totals.priceCents + SERVICE_FEE_CENTS),
    prezzoScontato: centsToEuros(totals.totalCents),
    email: customer.email,
    nome: customer.name,
    cognome: customer.surname,
    telefono: internationalPhone(customer),
    pin: generatePin({ randomBytes }),
    note: buildNote({ lang: isLanguage(language) ? language : 'it', night: true }),
    codiceSconto: booking.discount?.code ?? '',
  };
}

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

  const { priceCents, totals } = nightTotals(location, size, duration, quantity, discount?.effect ?? null);

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
      const page = await createNightPayment(
        nightPaymentBody({
          location,
          size,
          quantity,
          startTimeIso,
          endTimeIso,
          totals,
          customer,
          language,
          discount,
        }),
      );
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
    <CheckoutSummary
      titleId="night-summary-title"
      form={form}
      location={location}
      stay={{ size, quantity, duration, startTimeIso, endTimeIso }}
      discount={{ disabled: expired || loading, onChange: setDiscount }}
      totals={totals}
    >
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
    </CheckoutSummary>
  );
}
