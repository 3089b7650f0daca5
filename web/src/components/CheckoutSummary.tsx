import type { ComponentProps, ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { bookingTotals } from '@deposito/protocol/pricing/totals';
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
  recap,
  discount,
  totals,
  children,
}: {
  titleId: string;
  form: CustomerFormState;
  recap: ComponentProps<typeof BookingRecap>;
  discount: ComponentProps<typeof DiscountPanel>;
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
            <BookingRecap {...recap} />
          </div>
          <DiscountPanel {...discount} />
          <TermsLink />
          <PriceBreakdown totals={totals} />
          <PaymentLogos />
          {children}
        </div>
      </div>
    </section>
  );
}
