import type { DiscountCodeInput } from '../schemas/index';

// Demo discount codes covering each rule: percent, euro amount, single use, minimum stay, expired.
export const SEED_DISCOUNTS = [
  {
    code: 'WELCOME10',
    description: '10% di sconto di benvenuto',
    discountPercent: 10,
    validFrom: '2025-01-01',
    validTo: null,
    usableOnce: false,
  },
  {
    code: 'FIVEOFF',
    description: '5 € di sconto',
    discountEuro: 5,
    validFrom: null,
    validTo: null,
    usableOnce: false,
  },
  {
    code: 'ONCE20',
    description: '20% di sconto, utilizzabile una sola volta',
    discountPercent: 20,
    validFrom: null,
    validTo: null,
    usableOnce: true,
  },
  {
    code: 'LONGSTAY',
    description: '15% di sconto per soggiorni di almeno 3 giorni',
    discountPercent: 15,
    validFrom: null,
    validTo: null,
    usableOnce: false,
    minDays: 3,
  },
  {
    code: 'SUMMER24',
    description: 'Promozione estate 2024 (scaduta)',
    discountPercent: 10,
    validFrom: '2024-06-01',
    validTo: '2024-09-30',
    usableOnce: false,
  },
] as const satisfies readonly DiscountCodeInput[];
