import { expect, test, type Page } from '@playwright/test';
import { MOCK_TRANSACTION_ID, mockBookingReadBack, mockCloud } from './support/mock-cloud';

// The completion page for every booking status, in a real browser at phone and desktop size, with
// the cloud stood in for by page.route: each screen must fit the viewport; screenshots go to the
// test output for visual review.

function readBack(status: string, note = 'lang:it') {
  const paid = ['confirmed', 'confirmed_late'].includes(status);
  return mockBookingReadBack({
    reservedLockers: status === 'scheduled' ? [] : [3],
    total: 6.5,
    status,
    pin: paid ? '482913' : null,
    note,
  });
}

async function openComplete(page: Page, status: string, note?: string): Promise<void> {
  await mockCloud(page, { [`GET /api/bookings/${MOCK_TRANSACTION_ID}`]: readBack(status, note) });
  await page.goto(`/booking-complete?transactionId=${MOCK_TRANSACTION_ID}`);
}

async function expectFitsViewport(page: Page): Promise<void> {
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
}

const OUTCOMES = [
  ['confirmed', 'Prenotazione confermata'],
  ['scheduled', 'Prenotazione confermata'],
  ['paying', 'Pagamento in corso'],
  ['payment_declined', 'Pagamento rifiutato'],
  ['expired', 'Prenotazione scaduta'],
  ['cancelled_by_operator', 'Prenotazione annullata'],
  ['failed_after_payment', 'Prenotazione non valida'],
  ['pending', 'Pagamento non completato'],
] as const;

for (const [status, title] of OUTCOMES) {
  test(`booking complete: ${status}`, async ({ page }, testInfo) => {
    await openComplete(page, status);
    await expect(page.getByRole('heading', { name: title })).toBeVisible();
    await expectFitsViewport(page);
    await page.screenshot({ path: testInfo.outputPath(`complete-${status}.png`), fullPage: true });
  });
}

test('booking complete in Japanese: declined and refund owed', async ({ page }, testInfo) => {
  await openComplete(page, 'payment_declined', 'lang:jp');
  await expect(page.getByRole('heading', { name: 'お支払いが拒否されました' })).toBeVisible();
  await expectFitsViewport(page);
  await page.screenshot({ path: testInfo.outputPath('complete-jp-declined.png'), fullPage: true });

  await openComplete(page, 'refund_due', 'lang:jp');
  await expect(page.getByRole('heading', { name: 'この予約は無効です' })).toBeVisible();
  await expectFitsViewport(page);
  await page.screenshot({ path: testInfo.outputPath('complete-jp-refund.png'), fullPage: true });
});

test('a retry after the hold lapsed shows the expiry and the way back', async ({ page }, testInfo) => {
  await openComplete(page, 'payment_declined');
  // Registered after the stand-in, so it answers first.
  await page.route('**/api/payments/retry', (route) =>
    route.fulfill({
      status: 409,
      json: { error: { code: 'BOOKING_EXPIRED', message: 'The booking has expired' } },
    }),
  );
  await page.getByRole('button', { name: 'Riprova il pagamento' }).click();
  await expect(page.getByRole('heading', { name: 'Prenotazione scaduta' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('complete-retry-expired.png'), fullPage: true });
  await page.getByRole('link', { name: 'Prenota di nuovo' }).click();
  await expect(page).toHaveURL(/\/vicolo$/);
});

test('an old return link says it expired and sends the visitor to the e-mail, naming no booking', async ({
  page,
}, testInfo) => {
  await mockCloud(page);
  // Registered after the stand-in, so it answers first.
  await page.route('**/api/payments/decrypt', (route) =>
    route.fulfill({
      status: 410,
      json: { error: { code: 'payment/result_expired', message: 'This payment link has expired' } },
    }),
  );
  await page.goto('/booking-complete?a=DEPOSITO-SANDBOX&b=an-old-result');
  await expect(page.getByRole('heading', { name: 'Link scaduto' })).toBeVisible();
  await expect(page.getByText(/nell'email di conferma/)).toBeVisible();
  await expectFitsViewport(page);
  await page.screenshot({ path: testInfo.outputPath('complete-link-expired.png'), fullPage: true });
  await page.getByRole('link', { name: 'Prenota di nuovo' }).click();
  await expect(page).toHaveURL(/\/$/);
});
