import { expect, test } from '@playwright/test';
import { MOCK_TRANSACTION_ID, mockBookingReadBack, mockCloud } from './support/mock-cloud';
import { BookingPage } from './pages/booking-page';
import { NightWizardPage } from './pages/night-wizard-page';

// The customer pages in a real browser with the cloud stood in for by page.route; screenshots of
// each screen at the project's viewport go to the test output for visual review.

const NOW = new Date('2026-07-01T08:00:00Z'); // 10:00 in Rome

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(NOW);
});

test('home screen', async ({ page }, testInfo) => {
  await mockCloud(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Deposito bagagli' })).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('home.png'), fullPage: true });
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Luggage storage' })).toBeVisible();
});

test('daytime flow to the summary', async ({ page }, testInfo) => {
  await mockCloud(page);
  const booking = new BookingPage(page);
  await booking.open('vicolo');
  await expect(booking.bookButton).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('1-idle.png'), fullPage: true });
  await booking.startBooking();
  const mobile = (page.viewportSize()?.width ?? 1000) <= 768;
  if (mobile) {
    await page.screenshot({ path: testInfo.outputPath('1b-start-options.png'), fullPage: true });
    await page.getByRole('button', { name: 'Inizia più tardi' }).click();
  }
  await page.screenshot({ path: testInfo.outputPath('2-calendar.png'), fullPage: true });
  await booking.chooseDate('2026-07-01');
  await page.screenshot({ path: testInfo.outputPath('3-time.png'), fullPage: true });
  await booking.chooseTime('11:00');
  await page.getByLabel('Durata').selectOption('hours:4');
  await page.screenshot({ path: testInfo.outputPath('4-duration.png'), fullPage: true });
  await booking.continue();
  await page.screenshot({ path: testInfo.outputPath('5-sizes.png'), fullPage: true });
  await booking.chooseSize(/Standard/);
  await page.screenshot({ path: testInfo.outputPath('6-quantity.png'), fullPage: true });
  await booking.chooseQuantity(2);
  await expect(booking.summaryHeading()).toBeVisible();
  await page.getByLabel('Nome', { exact: true }).focus();
  await page.getByLabel('Cognome', { exact: true }).focus();
  await page.screenshot({ path: testInfo.outputPath('7-summary.png'), fullPage: true });
  await expect(page.getByRole('row', { name: /Totale/ })).toContainText('12,50');
});

test('fast track popup', async ({ page }, testInfo) => {
  await mockCloud(page);
  const booking = new BookingPage(page);
  await booking.open('vicolo', '?showStartOptions=1');
  await page.getByRole('button', { name: 'Inizia ora' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('fast-track.png'), fullPage: true });
});

test('night wizard to the summary with its countdown', async ({ page }, testInfo) => {
  await mockCloud(page);
  const night = new NightWizardPage(page);
  await night.open('vicolo');
  await page.screenshot({ path: testInfo.outputPath('night-1-calendar.png'), fullPage: true });
  await night.chooseDate('2026-07-02');
  await night.chooseTime('18:00');
  await night.chooseDuration('hours:3');
  await night.chooseSize(/Grande/);
  await night.chooseQuantity(1);
  await expect(night.countdown()).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('night-2-summary.png'), fullPage: true });
});

test('booking complete', async ({ page }, testInfo) => {
  await mockCloud(page, {
    [`GET /api/bookings/${MOCK_TRANSACTION_ID}`]: mockBookingReadBack(),
  });
  await page.goto(`/booking-complete?transactionId=${MOCK_TRANSACTION_ID}`);
  await expect(page.getByText('482913')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('complete.png'), fullPage: true });
  await page.goto('/booking-complete');
  await expect(page.getByRole('heading', { name: 'Pagamento annullato' })).toBeVisible();
});

test.describe('a browser that reads English', () => {
  test.use({ locale: 'en-US' });

  test('loads the English translations only, not the Italian ones beside them', async ({ page }) => {
    const translations: string[] = [];
    page.on('request', (request) => {
      const { pathname } = new URL(request.url());
      if (pathname.startsWith('/locales/')) translations.push(pathname);
    });
    await mockCloud(page);
    await page.goto('/vicolo');
    await expect(page.getByRole('button', { name: 'Book a locker' })).toBeVisible();
    expect(translations).toEqual(['/locales/en/common.json']);
  });

  test('reads Italian when the English translations do not load, never bare keys', async ({ page }) => {
    await mockCloud(page);
    await page.route('**/locales/en/common.json', (route) => route.fulfill({ status: 404 }));
    await page.goto('/');
    await expect(page.getByRole('heading', { name: 'Deposito bagagli' })).toBeVisible();
    await expect(page.getByText('home.title')).toHaveCount(0);
  });
});

test('stays in Italian when the language picked does not load, never bare keys', async ({ page }) => {
  await mockCloud(page);
  await page.route('**/locales/en/common.json', (route) => route.fulfill({ status: 404 }));
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Deposito bagagli' })).toBeVisible();
  await page.getByRole('button', { name: 'English' }).click();
  await expect(page.getByRole('heading', { name: 'Deposito bagagli' })).toBeVisible();
  await expect(page.getByText('home.title')).toHaveCount(0);
});
