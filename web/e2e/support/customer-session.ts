import { expect, test, type Page } from '@playwright/test';
import { BookingPage } from '../pages/booking-page';
import { CloudControl } from './cloud-control';
import { screenOf } from './visitor-screens';

// What the customer specs against the real cloud share: the visitor who books, where their
// screenshots go for review, and the cloud's settings and holds put back around every test.

const SCREENSHOT_DIR = new URL('../screenshots/', import.meta.url).pathname;

/** Where a screenshot goes for review: e2e/screenshots/, named after the page's screen (phone, desktop) and `name`. */
export function screenshotPath(page: Page, name: string): string {
  return `${SCREENSHOT_DIR}${screenOf(page)}-${name}.png`;
}

/** A full-page screenshot, to screenshotPath. */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: screenshotPath(page, name), fullPage: true });
}

export const CUSTOMER = {
  name: 'Giulia',
  surname: 'Rossi',
  email: 'giulia@example.com',
  phone: '3331234567',
};

/**
 * Gives each test of the spec a CloudControl (to `use`, when the spec drives the cloud itself) with
 * the system settings reset, and releases the holds the test left; with `resetAfterAll`, the
 * settings are reset once more after the last test, for the specs that run after this one.
 */
export function resetCloudAroundEachTest({
  use,
  resetAfterAll = true,
}: {
  use?: (cloud: CloudControl) => void;
  resetAfterAll?: boolean;
}): void {
  let cloud: CloudControl;
  test.beforeEach(async ({ request }) => {
    cloud = new CloudControl(request);
    use?.(cloud);
    await cloud.resetSettings();
  });
  test.afterEach(async () => {
    await cloud.releaseHolds();
  });
  if (resetAfterAll) {
    test.afterAll(async ({ request }) => {
      await new CloudControl(request).resetSettings();
    });
  }
}

/**
 * With fast track shown, books a locker at vicolo starting now and submits the summary ("Paga ora"):
 * the page is then on its way to the sandbox gateway. Other specs' fast-track bookings may have taken
 * every large locker of the shared cloud by now: then the offer falls back to a standard one, which
 * is as good for these tests.
 */
export async function submitFastTrackBooking(
  page: Page,
  cloud: CloudControl,
  customer: { name: string; surname: string; email: string; phone: string } = CUSTOMER,
): Promise<void> {
  await cloud.updateSettings({ ALWAYS_SHOW_FAST_TRACK: true });
  const booking = new BookingPage(page);
  await booking.open('vicolo');
  await booking.startBooking();
  await page.getByRole('button', { name: 'Inizia ora' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /^(Prenota ora|Sì, procedi)$/ })
    .click();
  await expect(booking.summaryHeading()).toBeVisible();
  await booking.fillCustomer(customer);
  await page.getByRole('button', { name: 'Paga ora' }).click();
}
