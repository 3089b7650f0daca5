import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A card or wallet mark drawn inline (no external downloads); its name is a brand name, not text. */
function Mark({ name, background, children }: { name: string; background: string; children: ReactNode }) {
  return (
    <svg viewBox="0 0 56 36" role="img" aria-label={name}>
      <rect width="56" height="36" fill={background} />
      {children}
    </svg>
  );
}

/** Mastercard's and Maestro's two overlapping circles. */
function Rings({ left, right, rightOpacity }: { left: string; right: string; rightOpacity: string }) {
  return (
    <>
      <circle cx="23" cy="18" r="10" fill={left} />
      <circle cx="33" cy="18" r="10" fill={right} fillOpacity={rightOpacity} />
    </>
  );
}

/** A wordmark in two colours (PayPal, Google Pay): each part of the text in its own. */
function Wordmark({
  parts,
  weight,
  italic = false,
}: {
  parts: [string, string][];
  weight: string;
  italic?: boolean;
}) {
  return (
    <text
      x="28"
      y="23"
      textAnchor="middle"
      fontSize="12"
      fontWeight={weight}
      fontStyle={italic ? 'italic' : undefined}
    >
      {parts.map(([text, fill]) => (
        <tspan key={text} fill={fill}>
          {text}
        </tspan>
      ))}
    </text>
  );
}

const APPLE =
  'M15.6 12.2c.6-.8 1-1.8.9-2.8-.9 0-2 .6-2.6 1.4-.6.6-1 1.7-.9 2.7 1 .1 2-.5 2.6-1.3zm.9 1.5c-1.4-.1-2.6.8-3.3.8s-1.7-.8-2.8-.7c-1.5 0-2.8.8-3.5 2.1-1.5 2.6-.4 6.4 1.1 8.5.7 1 1.5 2.2 2.6 2.1 1-.1 1.4-.7 2.7-.7s1.6.7 2.7.6c1.1 0 1.8-1 2.5-2.1.8-1.2 1.1-2.3 1.1-2.4 0 0-2.2-.8-2.2-3.3 0-2.1 1.7-3.1 1.8-3.1-1-1.4-2.5-1.6-3-1.6z';

const LOGOS: { name: string; background: string; drawing: ReactNode }[] = [
  {
    name: 'Visa',
    background: '#fff',
    drawing: (
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
    ),
  },
  {
    name: 'Mastercard',
    background: '#fff',
    drawing: <Rings left="#eb001b" right="#f79e1b" rightOpacity="0.9" />,
  },
  {
    name: 'Maestro',
    background: '#fff',
    drawing: <Rings left="#0099df" right="#e30613" rightOpacity="0.85" />,
  },
  {
    name: 'PayPal',
    background: '#fff',
    drawing: (
      <Wordmark
        weight="800"
        italic
        parts={[
          ['Pay', '#003087'],
          ['Pal', '#009cde'],
        ]}
      />
    ),
  },
  {
    name: 'Apple Pay',
    background: '#000',
    drawing: (
      <>
        <path d={APPLE} fill="#fff" />
        <text x="36" y="23" textAnchor="middle" fontSize="12" fontWeight="600" fill="#fff">
          Pay
        </text>
      </>
    ),
  },
  {
    name: 'Google Pay',
    background: '#fff',
    drawing: (
      <Wordmark
        weight="600"
        parts={[
          ['G', '#4285f4'],
          [' Pay', '#5f6368'],
        ]}
      />
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
          <li key={logo.name}>
            <Mark name={logo.name} background={logo.background}>
              {logo.drawing}
            </Mark>
          </li>
        ))}
      </ul>
    </div>
  );
}
