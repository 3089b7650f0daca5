/** Delay before leaving for the provider's page, so the visitor sees the button's state change. */
export const PAYMENT_REDIRECT_DELAY_MS = 500;

/**
 * Shows the payment provider's page in the top window (the booking page usually sits in an
 * iframe, and card pages refuse to run framed). The page travels as a temporary blob URL.
 */
export function openPaymentPage(html: string, target: Window = window.top ?? window): void {
  const url = URL.createObjectURL(new Blob([html], { type: 'text/html' }));
  try {
    target.location.href = url;
  } catch {
    // A host page that forbids top navigation: show the page in our own frame instead.
    window.location.href = url;
  }
}
