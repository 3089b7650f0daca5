import { useTranslation } from 'react-i18next';
import { MIN_AMOUNT_CENTS } from '@deposito/protocol/pricing/money';
import type { BookingTotals } from '@deposito/protocol/pricing/totals';
import { useFormatters } from './format';

/**
 * Price, discount, fee and total exactly as protocol's bookingTotals computed them; the total is
 * what the card is charged, so a total raised to the minimum charge says why.
 */
export function PriceBreakdown({ totals }: { totals: BookingTotals }) {
  const { t } = useTranslation();
  const { money } = useFormatters();
  return (
    <table className="price-table" aria-label={t('price.title')}>
      <tbody>
        <tr>
          <th scope="row">{t('price.price')}</th>
          <td>{money(totals.priceCents)}</td>
        </tr>
        {totals.discountCents > 0 && (
          <tr>
            <th scope="row">{t('price.discount')}</th>
            <td>−{money(totals.discountCents)}</td>
          </tr>
        )}
        {totals.discountCents > 0 && (
          <tr>
            <th scope="row">{t('price.discounted')}</th>
            <td>{money(totals.discountedPriceCents)}</td>
          </tr>
        )}
        <tr>
          <th scope="row">{t('price.fee')}</th>
          <td>{money(totals.feeCents)}</td>
        </tr>
        <tr className="total">
          <th scope="row">{t('price.total')}</th>
          <td>{money(totals.totalCents)}</td>
        </tr>
        {totals.minimumChargeTopUpCents > 0 && (
          <tr className="price-note">
            <td colSpan={2}>{t('price.minimumCharge', { amount: money(MIN_AMOUNT_CENTS) })}</td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
