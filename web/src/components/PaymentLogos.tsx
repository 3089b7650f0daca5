import { useTranslation } from 'react-i18next';

/** Card and wallet marks drawn inline (no external downloads); names are brand names, not text. */
const LOGOS = [
  {
    name: 'Visa',
    svg: (
      <svg viewBox="0 0 56 36" role="img" aria-label="Visa">
        <rect width="56" height="36" fill="#fff" />
        <text
          x="28"
          y="24"
          textAnchor="middle"
          fontSize="15"
          fontWeight="800"
          fontStyle="italic"
          fill="#1a1f71"
        >
          VISA
        </text>
      </svg>
    ),
  },
  {
    name: 'Mastercard',
    svg: (
      <svg viewBox="0 0 56 36" role="img" aria-label="Mastercard">
        <rect width="56" height="36" fill="#fff" />
        <circle cx="23" cy="18" r="10" fill="#eb001b" />
        <circle cx="33" cy="18" r="10" fill="#f79e1b" fillOpacity="0.9" />
      </svg>
    ),
  },
  {
    name: 'Maestro',
    svg: (
      <svg viewBox="0 0 56 36" role="img" aria-label="Maestro">
        <rect width="56" height="36" fill="#fff" />
        <circle cx="23" cy="18" r="10" fill="#0099df" />
        <circle cx="33" cy="18" r="10" fill="#e30613" fillOpacity="0.85" />
      </svg>
    ),
  },
  {
    name: 'PayPal',
    svg: (
      <svg viewBox="0 0 56 36" role="img" aria-label="PayPal">
        <rect width="56" height="36" fill="#fff" />
        <text x="28" y="23" textAnchor="middle" fontSize="12" fontWeight="800" fontStyle="italic">
          <tspan fill="#003087">Pay</tspan>
          <tspan fill="#009cde">Pal</tspan>
        </text>
      </svg>
    ),
  },
  {
    name: 'Apple Pay',
    svg: (
      <svg viewBox="0 0 56 36" role="img" aria-label="Apple Pay">
        <rect width="56" height="36" fill="#000" />
        <path
          d="M15.6 12.2c.6-.8 1-1.8.9-2.8-.9 0-2 .6-2.6 1.4-.6.6-1 1.7-.9 2.7 1 .1 2-.5 2.6-1.3zm.9 1.5c-1.4-.1-2.6.8-3.3.8s-1.7-.8-2.8-.7c-1.5 0-2.8.8-3.5 2.1-1.5 2.6-.4 6.4 1.1 8.5.7 1 1.5 2.2 2.6 2.1 1-.1 1.4-.7 2.7-.7s1.6.7 2.7.6c1.1 0 1.8-1 2.5-2.1.8-1.2 1.1-2.3 1.1-2.4 0 0-2.2-.8-2.2-3.3 0-2.1 1.7-3.1 1.8-3.1-1-1.4-2.5-1.6-3-1.6z"
          fill="#fff"
        />
        <text x="36" y="23" textAnchor="middle" fontSize="12" fontWeight="600" fill="#fff">
          Pay
        </text>
      </svg>
    ),
  },
  {
    name: 'Google Pay',
    svg: (
      <svg viewBox="0 0 56 36" role="img" aria-label="Google Pay">
        <rect width="56" height="36" fill="#fff" />
        <text x="28" y="23" textAnchor="middle" fontSize="12" fontWeight="600">
          <tspan fill="#4285f4">G</tspan>
          <tspan fill="#5f6368"> Pay</tspan>
        </text>
      </svg>
    ),
  },
];

export function PaymentLogos() {
  const { t } = useTranslation();
  return (
    <div>
      <p className="logos-caption">{t('payment.logos.caption')}</p>
      <ul className="payment-logos" aria-label={t('payment.logos.caption')}>
        {LOGOS.map((logo) => (
          <li key={logo.name}>{logo.svg}</li>
        ))}
      </ul>
    </div>
  );
}
