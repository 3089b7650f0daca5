import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { bookingTotals, type AppliedDiscount } from '@deposito/protocol/pricing/totals';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { useCustomerForm } from '../components/CustomerForm';
import { CheckoutSummary } from '../components/CheckoutSummary';
import { Alert } from '../components/Alert';
import { PaymentCountdown, useSecondsLeft } from '../components/PaymentCountdown';
import type { LockerHold } from './daytime-state';
import { useDaytimePayment } from './use-daytime-payment';

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
  const { t } = useTranslation();
  // The hold's payment window, shown beside Pay (the server releases the lockers when it ends).
  const secondsLeft = useSecondsLeft(hold.expiresAt ? Date.parse(hold.expiresAt) : null);
  const form = useCustomerForm();
  const [discount, setDiscount] = useState<{ code: string; effect: AppliedDiscount } | null>(null);
  // Totals are protocol's, on the server's price for the held lockers.
  const totals = bookingTotals({ priceCents: hold.priceCents, discount: discount?.effect ?? null });
  const { payState, error, fallbackMessage, pay } = useDaytimePayment({
    location,
    hold,
    totals,
    discountCode: discount?.code ?? '',
    form,
  });

  const payDisabled = payState !== 'idle';
  return (
    <CheckoutSummary
      titleId="summary-title"
      form={form}
      location={location}
      stay={hold}
      discount={{ disabled: payDisabled, onChange: setDiscount }}
      totals={totals}
    >
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
    </CheckoutSummary>
  );
}
