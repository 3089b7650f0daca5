// The sandbox payment page as a visitor's browser uses it, for tests and benchmarks that pay over
// real HTTP: follow the page create-payment answers, read the signed checkout, submit a card.

/** The sandbox's test card that pays, as its form takes it. */
export const SANDBOX_TEST_CARD = {
  cardholder: 'Giulia Rossi',
  expiry: '12/30',
  cvc: '123',
  cardNumber: '4242 4242 4242 4242',
};

export type SandboxCard = typeof SANDBOX_TEST_CARD;

/** The hosted-page URL inside the HTML page create-payment answers. */
export function redirectUrlOf(html: string): string {
  const match = /location\.href = ("[^"]+")/.exec(html);
  if (!match) throw new Error(`No redirect in ${html.slice(0, 200)}`);
  return JSON.parse(match[1]!) as string;
}

/** The payment's token on the hosted page (its `b`), from the HTML page create-payment answers. */
export function paymentTokenOf(html: string): string {
  return new URL(redirectUrlOf(html)).searchParams.get('b')!;
}

/** A hidden field of the sandbox card page (`a` and `b` carry its signed checkout). */
export function hiddenField(page: string, name: string): string {
  const match = new RegExp(`name="${name}" value="([^"]*)"`).exec(page);
  if (!match) throw new Error(`No ${name} in the payment page`);
  return match[1]!;
}

/** The card form of a sandbox page as the browser posts it (url-encoded), `card` over the test card. */
export function sandboxCardForm(page: string, card: Partial<SandboxCard> = {}): string {
  return new URLSearchParams({
    a: hiddenField(page, 'a'),
    b: hiddenField(page, 'b'),
    ...SANDBOX_TEST_CARD,
    ...card,
  }).toString();
}

/**
 * Opens the sandbox page the create-payment HTML leads to and submits a card on it, not following
 * the answer: the page, and the gateway's 303 back to the booking pages (its `a`/`b` parameters).
 */
export async function payOnSandbox(createPaymentHtml: string, card: Partial<SandboxCard> = {}) {
  const pageUrl = redirectUrlOf(createPaymentHtml);
  const page = await (await fetch(pageUrl)).text();
  const response = await fetch(new URL('/sandbox-pay/pay', pageUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: sandboxCardForm(page, card),
  });
  await response.text();
  const location = response.headers.get('location');
  const back = location ? new URL(location) : null;
  return {
    page,
    status: response.status,
    back,
    params: { a: back?.searchParams.get('a') ?? '', b: back?.searchParams.get('b') ?? '' },
  };
}
