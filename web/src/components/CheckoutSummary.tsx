import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { LockerSize } from '@deposito/protocol/pricing/locker-size';
import type { Duration } from '@deposito/protocol/pricing/price-table';
import type { bookingTotals } from '@deposito/protocol/pricing/totals';
import type { PublicLocation } from '@deposito/protocol/schemas/location';
import { BookingRecap } from './BookingRecap';
import { CustomerForm, type CustomerFormState } from './CustomerForm';
import { DiscountPanel } from './DiscountPanel';
import { PaymentLogos } from './PaymentLogos';
import { PriceBreakdown } from './PriceBreakdown';
import { StepHeading } from './StepHeading';
import { TermsLink } from './TermsDialog';

/**
 * The summary step of both wizards (daytime and night): the visitor's details beside what is booked,
 * the discount code, the terms, the price and how it is paid; `children` are the wizard's own
 * messages and buttons under them.
 */
export function CheckoutSummary({
  titleId,
  form,
  location,
  stay,
  discount,
  totals,
  children,
}: {
  titleId: string;
  form: CustomerFormState;
  location: PublicLocation;
  /** What is booked: the lockers and the stay. */
  stay: { size: LockerSize; quantity: number; duration: Duration; startTimeIso: string; endTimeIso: string };
  /** The discount code's panel, for this stay at this location. */
  discount: Omit<ComponentProps<typeof DiscountPanel>, 'duration' | 'location'>;
  totals: ReturnType<typeof bookingTotals>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={titleId}>
      <div className="step-header">
        <StepHeading id={titleId}>{t('summary.title')}</StepHeading>
      </div>
      <div className="summary">
        <div className="card">
          <h3>{t('form.title')}</h3>
          <CustomerForm form={form} />
        </div>
        <div className="card stack">
          <div>
            <BookingRecap
              {...stay}
              locationName={location.nome}
              address={location.indirizzo}
              zone={location.timezone}
            />
          </div>
          <DiscountPanel {...discount} duration={stay.duration} location={location.key} />
          <TermsLink />
          <PriceBreakdown totals={totals} />
          <PaymentLogos />
          {children}
        </div>
      </div>
    </section>
  );
}
