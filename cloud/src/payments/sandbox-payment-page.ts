import { LANGUAGE_LOCALE, LANGUAGE_TAG } from '@deposito/protocol/booking/note';
import { formatEuros } from '@deposito/protocol/pricing/money';
import { html, type TrustedHtml } from './html';
import type { PaymentLanguage } from './payment-provider';
import type { SandboxCheckout } from './sandbox-tokens';
import type { CardForm, CardFormError } from './sandbox-test-cards';

// The sandbox's hosted card page, rendered on the server (no script at all): it looks and behaves
// like a gateway's page, and says everywhere that nothing real is charged.

interface PageTexts {
  title: string;
  testBanner: string;
  merchant: string;
  amount: string;
  booking: string;
  cardholder: string;
  cardNumber: string;
  expiry: string;
  cvc: string;
  pay: (amount: string) => string;
  cancel: string;
  testCardsTitle: string;
  approved: string;
  declined: string;
  insufficientFunds: string;
  anyExpiry: string;
  invalidLinkTitle: string;
  invalidLinkBody: string;
  errors: Record<CardFormError, string>;
}

const TEXTS: Record<PaymentLanguage, PageTexts> = {
  it: {
    title: 'Pagamento di prova',
    testBanner: 'Pagina di pagamento di PROVA: nessuna carta viene addebitata.',
    merchant: 'Esercente',
    amount: 'Importo',
    booking: 'Prenotazione',
    cardholder: 'Titolare della carta',
    cardNumber: 'Numero della carta',
    expiry: 'Scadenza (MM/AA)',
    cvc: 'CVV',
    pay: (amount) => `Paga ${amount}`,
    cancel: 'Annulla e torna al sito',
    testCardsTitle: 'Carte di prova',
    approved: 'pagamento accettato',
    declined: 'pagamento rifiutato',
    insufficientFunds: 'rifiutato: fondi insufficienti',
    anyExpiry: 'Qualsiasi scadenza futura e qualsiasi CVV di 3 cifre.',
    invalidLinkTitle: 'Link di pagamento non valido',
    invalidLinkBody: 'Questo link di pagamento non è valido o è scaduto. Torna al sito e riprova.',
    errors: {
      cardholderRequired: 'Inserisci il nome del titolare.',
      cardNumberInvalid: 'Il numero della carta non è valido.',
      notATestCard: 'Questa è una pagina di prova: usa una delle carte di prova qui sotto.',
      expiryInvalid: 'Inserisci la scadenza come MM/AA.',
      expiryPast: 'La carta è scaduta.',
      cvcInvalid: 'Il CVV ha 3 o 4 cifre.',
    },
  },
  en: {
    title: 'Test payment',
    testBanner: 'TEST payment page: no card is charged.',
    merchant: 'Merchant',
    amount: 'Amount',
    booking: 'Booking',
    cardholder: 'Cardholder name',
    cardNumber: 'Card number',
    expiry: 'Expiry (MM/YY)',
    cvc: 'CVC',
    pay: (amount) => `Pay ${amount}`,
    cancel: 'Cancel and return to the site',
    testCardsTitle: 'Test cards',
    approved: 'payment accepted',
    declined: 'payment declined',
    insufficientFunds: 'declined: insufficient funds',
    anyExpiry: 'Any future expiry date and any 3-digit CVC.',
    invalidLinkTitle: 'Invalid payment link',
    invalidLinkBody: 'This payment link is not valid or has expired. Go back to the site and try again.',
    errors: {
      cardholderRequired: 'Enter the cardholder name.',
      cardNumberInvalid: 'The card number is not valid.',
      notATestCard: 'This is a test page: use one of the test cards below.',
      expiryInvalid: 'Enter the expiry date as MM/YY.',
      expiryPast: 'The card has expired.',
      cvcInvalid: 'The CVC has 3 or 4 digits.',
    },
  },
  es: {
    title: 'Pago de prueba',
    testBanner: 'Página de pago de PRUEBA: no se realiza ningún cargo en la tarjeta.',
    merchant: 'Comercio',
    amount: 'Importe',
    booking: 'Reserva',
    cardholder: 'Titular de la tarjeta',
    cardNumber: 'Número de tarjeta',
    expiry: 'Caducidad (MM/AA)',
    cvc: 'CVC',
    pay: (amount) => `Pagar ${amount}`,
    cancel: 'Cancelar y volver al sitio',
    testCardsTitle: 'Tarjetas de prueba',
    approved: 'pago aceptado',
    declined: 'pago rechazado',
    insufficientFunds: 'rechazado: fondos insuficientes',
    anyExpiry: 'Cualquier fecha de caducidad futura y cualquier CVC de 3 cifras.',
    invalidLinkTitle: 'Enlace de pago no válido',
    invalidLinkBody: 'Este enlace de pago no es válido o ha caducado. Vuelve al sitio e inténtalo de nuevo.',
    errors: {
      cardholderRequired: 'Introduce el nombre del titular.',
      cardNumberInvalid: 'El número de tarjeta no es válido.',
      notATestCard: 'Esta es una página de prueba: usa una de las tarjetas de prueba de abajo.',
      expiryInvalid: 'Introduce la caducidad como MM/AA.',
      expiryPast: 'La tarjeta ha caducado.',
      cvcInvalid: 'El CVC tiene 3 o 4 cifras.',
    },
  },
  jp: {
    title: 'テスト決済',
    testBanner: 'これはテスト用の決済ページです。カードへの請求は発生しません。',
    merchant: '加盟店',
    amount: '金額',
    booking: '予約',
    cardholder: 'カード名義人',
    cardNumber: 'カード番号',
    expiry: '有効期限 (MM/YY)',
    cvc: 'セキュリティコード',
    pay: (amount) => `${amount} を支払う`,
    cancel: 'キャンセルしてサイトに戻る',
    testCardsTitle: 'テストカード',
    approved: '決済承認',
    declined: '決済拒否',
    insufficientFunds: '拒否：残高不足',
    anyExpiry: '将来の任意の有効期限と任意の3桁のセキュリティコードを使用できます。',
    invalidLinkTitle: '無効な決済リンク',
    invalidLinkBody: 'この決済リンクは無効か、有効期限が切れています。サイトに戻ってもう一度お試しください。',
    errors: {
      cardholderRequired: 'カード名義人を入力してください。',
      cardNumberInvalid: 'カード番号が正しくありません。',
      notATestCard: 'これはテストページです。下記のテストカードを使用してください。',
      expiryInvalid: '有効期限を MM/YY の形式で入力してください。',
      expiryPast: 'カードの有効期限が切れています。',
      cvcInvalid: 'セキュリティコードは3桁または4桁です。',
    },
  },
};

// Interpolated through the escaping `html` tag into a <style> element, where entities are not
// decoded: keep quotes and angle brackets out of it (unquoted font names are valid CSS).
const STYLE = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,Segoe UI,Roboto,Helvetica Neue,Arial,sans-serif;background:#f3f4f6;color:#111827}
main{max-width:28rem;margin:0 auto;padding:1rem}
.banner{background:#fef3c7;border:1px solid #f59e0b;color:#92400e;border-radius:.5rem;padding:.75rem;font-weight:600;text-align:center}
.card{background:#fff;border-radius:.75rem;box-shadow:0 1px 3px rgba(0,0,0,.12);padding:1.25rem;margin-top:1rem}
h1{font-size:1.25rem;margin:0 0 .75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem 1rem;margin:0}
dt{color:#6b7280}dd{margin:0;text-align:right;font-weight:600}
.total{font-size:1.5rem}
label{display:block;font-size:.875rem;color:#374151;margin-top:.75rem}
input{width:100%;font-size:1rem;padding:.625rem;border:1px solid #d1d5db;border-radius:.5rem;margin-top:.25rem}
input[aria-invalid=true]{border-color:#dc2626}
.row{display:grid;grid-template-columns:1fr 1fr;gap:.75rem}
.error{color:#dc2626;font-size:.8125rem;margin:.25rem 0 0}
button{width:100%;margin-top:1.25rem;padding:.875rem;font-size:1.0625rem;font-weight:600;color:#fff;background:#2563eb;border:0;border-radius:.5rem;cursor:pointer}
.cancel{background:none;color:#4b5563;font-weight:400;font-size:1rem;text-decoration:underline;margin-top:.75rem}
.cards{font-size:.8125rem;color:#4b5563}
.cards ul{padding-left:1.25rem;margin:.5rem 0}
code{font-size:.875rem}
`;

function layout(language: PaymentLanguage, title: string, body: TrustedHtml): string {
  return html`<!doctype html>
    <html lang="${LANGUAGE_TAG[language]}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>${title}</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <main>${body}</main>
      </body>
    </html> `.value;
}

function groupCardNumber(number: string): string {
  return number.replace(/(\d{4})(?=\d)/g, '$1 ');
}

export interface CheckoutPageModel {
  checkout: SandboxCheckout;
  merchantName: string;
  /** The `a` and `b` of the page URL, posted back with the card. */
  a: string;
  b: string;
  form?: Partial<CardForm>;
  errors?: Partial<Record<keyof CardForm, CardFormError>>;
  testCards: readonly { number: string; outcome: 'approved' | 'declined'; errorCode?: string }[];
}

export function renderSandboxCheckoutPage(model: CheckoutPageModel): string {
  const { checkout } = model;
  const t = TEXTS[checkout.language];
  const amount = formatEuros(checkout.amountCents, LANGUAGE_LOCALE[checkout.language]);
  const errors = model.errors ?? {};
  const field = (
    name: keyof CardForm,
    label: string,
    attributes: { autocomplete: string; inputmode?: string; placeholder?: string },
  ) => {
    const error = errors[name];
    const value = name === 'cvc' ? '' : (model.form?.[name] ?? '');
    return html`<label for="${name}">${label}</label>
      <input
        id="${name}"
        name="${name}"
        value="${value}"
        autocomplete="${attributes.autocomplete}"
        ${
          attributes.inputmode ? html` inputmode="${attributes.inputmode}"` : ''
        }${attributes.placeholder ? html` placeholder="${attributes.placeholder}"` : ''}
        required${error ? html` aria-invalid="true" aria-describedby="${name}-error"` : ''}
      />
      ${error ? html`<p class="error" id="${name}-error">${t.errors[error]}</p>` : ''}`;
  };
  const outcomeLabel = (card: CheckoutPageModel['testCards'][number]) =>
    card.outcome === 'approved' ? t.approved : card.errorCode === '251' ? t.insufficientFunds : t.declined;

  const body = html`<p class="banner" role="note">${t.testBanner}</p>
    <section class="card">
      <h1>${t.title}</h1>
      <dl>
        <dt>${t.merchant}</dt>
        <dd>${model.merchantName}</dd>
        <dt>${t.booking}</dt>
        <dd><code>${checkout.transactionId}</code></dd>
        <dt>${t.amount}</dt>
        <dd class="total">${amount}</dd>
      </dl>
    </section>
    <form class="card" method="post" action="pay" novalidate>
      <input type="hidden" name="a" value="${model.a}" />
      <input type="hidden" name="b" value="${model.b}" />
      ${field('cardholder', t.cardholder, { autocomplete: 'cc-name' })}
      ${field('cardNumber', t.cardNumber, { autocomplete: 'cc-number', inputmode: 'numeric', placeholder: '4242 4242 4242 4242' })}
      <div class="row">
        <div>
          ${field('expiry', t.expiry, { autocomplete: 'cc-exp', inputmode: 'numeric', placeholder: 'MM/YY' })}
        </div>
        <div>
          ${field('cvc', t.cvc, { autocomplete: 'cc-csc', inputmode: 'numeric', placeholder: '123' })}
        </div>
      </div>
      <button type="submit">${t.pay(amount)}</button>
    </form>
    <form method="post" action="cancel">
      <input type="hidden" name="a" value="${model.a}" />
      <input type="hidden" name="b" value="${model.b}" />
      <button type="submit" class="cancel">${t.cancel}</button>
    </form>
    <section class="card cards">
      <strong>${t.testCardsTitle}</strong>
      <ul>
        ${model.testCards.map((card) => html`<li><code>${groupCardNumber(card.number)}</code>: ${outcomeLabel(card)}</li>`)}
      </ul>
      <p>${t.anyExpiry}</p>
    </section>`;
  return layout(checkout.language, `${t.title} · ${model.merchantName}`, body);
}

export function renderSandboxInvalidLinkPage(language: PaymentLanguage): string {
  const t = TEXTS[language];
  return layout(
    language,
    t.invalidLinkTitle,
    html`<p class="banner" role="note">${t.testBanner}</p>
      <section class="card">
        <h1>${t.invalidLinkTitle}</h1>
        <p>${t.invalidLinkBody}</p>
      </section>`,
  );
}
