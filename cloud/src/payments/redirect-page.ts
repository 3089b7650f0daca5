import { LANGUAGE_TAG } from '@deposito/protocol/booking/note';
import type { PaymentLanguage } from './payment-provider';
import { html, scriptValue } from './html';

const CONTINUE_LABEL: Record<PaymentLanguage, { title: string; link: string }> = {
  it: { title: 'Pagamento', link: 'Vai alla pagina di pagamento' },
  en: { title: 'Payment', link: 'Continue to the payment page' },
  es: { title: 'Pago', link: 'Ir a la página de pago' },
  jp: { title: 'お支払い', link: 'お支払いページへ進む' },
};

/**
 * The page answered by create-payment: the booking pages open it in place of their top window,
 * and it sends that top window on to the gateway's hosted page. Three ways, because any of them may
 * be blocked: a script (works from inside an iframe too), a meta refresh, and a link to click.
 */
export function renderPaymentRedirectPage(redirectUrl: string, language: PaymentLanguage): string {
  const label = CONTINUE_LABEL[language];
  return html`<!doctype html>
    <html lang="${LANGUAGE_TAG[language]}">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta http-equiv="refresh" content="0;url=${redirectUrl}" />
        <title>${label.title}</title>
      </head>
      <body style="font-family: system-ui, sans-serif; text-align: center; padding: 2rem;">
        <p><a href="${redirectUrl}" target="_top">${label.link}</a></p>
        <script>
          (window.top || window).location.href = ${scriptValue(redirectUrl)};
        </script>
      </body>
    </html> `.value;
}
