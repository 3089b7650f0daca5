import { expect, test, type Page, type Route } from '@playwright/test';
import { MOCK_TRANSACTION_ID, mockCloud } from './support/mock-cloud';
import { BookingPage } from './pages/booking-page';

// The phone number on the summary as visitors type it: with spaces, with +39, for their own
// country picked by name and flag; sent to the cloud as dial code and national number (the
// spec's telefono_prefisso and telefono_numero) and as E.164 in the payment call.

const NOW = new Date('2026-07-01T08:00:00Z'); // 10:00 in Rome

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(NOW);
});

type Sent = { details: Record<string, unknown>[]; payments: Record<string, unknown>[] };

/** The mocked cloud, recording the customer details and payment calls the page sends. */
async function mockRecordingCloud(page: Page): Promise<Sent> {
  const sent: Sent = { details: [], payments: [] };
  await mockCloud(page, {
    [`PATCH /api/bookings/${MOCK_TRANSACTION_ID}`]: (route: Route) => {
      sent.details.push(route.request().postDataJSON() as Record<string, unknown>);
      return { success: true };
    },
    'POST /api/bookings/save': {
      success: true,
      transactionId: MOCK_TRANSACTION_ID,
      status: 'pending',
      expiresAt: '2026-07-01T08:15:00.000Z',
    },
  });
  // The payment call is recorded and answered with a provider failure, so the page stays here.
  await page.route('**/api/payments/create-payment', async (route) => {
    sent.payments.push(route.request().postDataJSON() as Record<string, unknown>);
    await route.fulfill({
      status: 502,
      json: { error: { code: 'payment/provider_error', message: 'stopped by the test' } },
    });
  });
  return sent;
}

async function openSummary(page: Page, lng = '') {
  const booking = new BookingPage(page);
  await booking.open('vicolo', lng ? `?lng=${lng}` : '');
  await booking.startBooking();
  if ((page.viewportSize()?.width ?? 1000) <= 768)
    await page.getByRole('button', { name: /Inizia più tardi|Start later/ }).click();
  await booking.chooseDate('2026-07-01');
  await booking.chooseTime('11:00');
  await page.getByLabel(/^(Durata|Duration)$/).selectOption('hours:4');
  await booking.continue();
  await booking.chooseSize(/Standard/);
  await booking.chooseQuantity(1);
  await expect(booking.summaryHeading()).toBeVisible();
  return booking;
}

const CUSTOMER = { name: 'Giulia', surname: 'Rossi', email: 'giulia.rossi@example.com' };

test('Italian numbers with spaces or +39 are accepted and sent as +39 and the national number', async ({
  page,
}, testInfo) => {
  const sent = await mockRecordingCloud(page);
  const booking = await openSummary(page);
  const picker = page.getByLabel('Prefisso internazionale');
  await expect(picker).toHaveValue('IT');
  await expect(page.locator('.phone-country-face')).toHaveText('IT +39');

  for (const typed of ['+39 333 123 4567', '333 123 4567']) {
    await booking.fillCustomer({ ...CUSTOMER, phone: typed });
    await page.getByRole('textbox', { name: 'Telefono' }).blur();
    await expect(page.locator('#customer-phone-error')).toHaveText('');
    await page.screenshot({
      path: testInfo.outputPath(`phone-${typed.replace(/\W/g, '')}.png`),
      fullPage: true,
    });
    await page.getByRole('button', { name: 'Paga ora' }).click();
    await expect.poll(() => sent.payments.length).toBeGreaterThan(0);
    expect(sent.details.at(-1)).toMatchObject({ telefono_prefisso: '+39', telefono_numero: '3331234567' });
    expect(sent.payments.at(-1)).toMatchObject({ telefono: '+393331234567' });
    sent.payments.length = 0;
  }
});

test('a US and a UK number with their country picked by name and flag', async ({ page }, testInfo) => {
  const sent = await mockRecordingCloud(page);
  const booking = await openSummary(page, 'en');
  const picker = page.getByLabel('Country code');
  // Names in the page's language; the spec's countries first, then every other one. This browser
  // has no emoji font, so the country's letters stand in for the flag (see the next test).
  await expect(picker.locator('option').first()).toHaveText('IT Italy (+39)');
  await expect(picker.locator('option[value="GB"]')).toHaveText('GB United Kingdom (+44)');
  await expect(picker.locator('option[value="CA"]')).toHaveText('CA Canada (+1)');
  await expect(picker.locator('option[value="TH"]')).toHaveText('TH Thailand (+66)');
  expect(await picker.locator('option').count()).toBeGreaterThan(200);

  for (const [country, typed, prefix, national] of [
    ['US', '(201) 555-0123', '+1', '2015550123'],
    ['GB', '020 7946 0018', '+44', '2079460018'],
  ] as const) {
    await picker.selectOption(country);
    await booking.fillCustomer({ ...CUSTOMER, phone: typed });
    await page.getByRole('textbox', { name: 'Phone' }).blur();
    await expect(page.locator('#customer-phone-error')).toHaveText('');
    // The picker and the number fit side by side on the narrowest phones.
    for (const width of [320, 360, 1280]) {
      await page.setViewportSize({ width, height: 740 });
      const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(scrollWidth, `${width} px`).toBeLessThanOrEqual(width);
      await page.screenshot({ path: testInfo.outputPath(`phone-${country}-${width}.png`), fullPage: true });
    }
    await page.getByRole('button', { name: 'Pay now' }).click();
    await expect.poll(() => sent.payments.length).toBeGreaterThan(0);
    expect(sent.details.at(-1)).toMatchObject({ telefono_prefisso: prefix, telefono_numero: national });
    expect(sent.payments.at(-1)).toMatchObject({ telefono: `${prefix}${national}` });
    sent.payments.length = 0;
  }
});

test('a number that is not one of the country is pointed out, translated', async ({ page }) => {
  const sent = await mockRecordingCloud(page);
  const booking = await openSummary(page);
  await page.getByLabel('Prefisso internazionale').selectOption('US');
  await expect(page.locator('.phone-country-face')).toHaveText('US +1');
  await booking.fillCustomer({ ...CUSTOMER, phone: '333 123 4567' });
  await page.getByRole('textbox', { name: 'Telefono' }).blur();
  await expect(page.locator('#customer-phone-error')).toHaveText(
    'Non è un numero di telefono valido per il paese scelto.',
  );
  await page.getByRole('button', { name: 'Paga ora' }).click();
  await expect(page.getByText(/Controlla i dati inseriti/).first()).toBeVisible();
  expect(sent.details).toHaveLength(0);
});

test('flags where the device draws them, names in the page language', async ({ page }) => {
  // A phone's emoji font draws a flag as one glyph: as if this browser had one.
  await page.addInitScript(() => {
    const measure = CanvasRenderingContext2D.prototype.measureText;
    CanvasRenderingContext2D.prototype.measureText = function (text: string) {
      return measure.call(this, text === '🇮🇹' ? 'i' : text);
    };
  });
  await mockRecordingCloud(page);
  await openSummary(page);
  const picker = page.getByLabel('Prefisso internazionale');
  await expect(picker.locator('option').first()).toHaveText('🇮🇹 Italia (+39)');
  await expect(picker.locator('option[value="GB"]')).toHaveText('🇬🇧 Regno Unito (+44)');
  await expect(picker.locator('option[value="US"]')).toHaveText('🇺🇸 Stati Uniti (+1)');
  await expect(page.locator('.phone-country-face')).toHaveText('🇮🇹 +39');
});
