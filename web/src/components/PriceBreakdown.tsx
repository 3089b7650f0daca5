import { useTranslation } from 'react-i18next';
import type { BookingTotals } from '@deposito/protocol/pricing/totals';
import { useFormatters } from './format';

/** Price, discount, fee and total exactly as protocol's bookingTotals computed them. */
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
      </tbody>
    </table>
  );
}
