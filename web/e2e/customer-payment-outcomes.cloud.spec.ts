import { expect } from '@playwright/test';
import { BookingPage } from './pages/booking-page';
import { BookingCompletePage, SandboxPaymentPage } from './pages/payment-pages';
import { CloudControl, dateInZone } from './support/cloud-control';
import { CUSTOMER, resetCloudAroundEachTest, shot, submitFastTrackBooking } from './support/customer-session';
import { screenOf, testOnEveryScreen } from './support/visitor-screens';

// What the visitor sees after the gateway, against the real cloud (sandbox payments) at phone and
// desktop size: a declined card is never shown as a confirmed booking, the visitor can pay again
// while the hold lives, and every amount shown is the amount the card is charged (the 1 € minimum
// included).

let cloud: CloudControl;
resetCloudAroundEachTest({ use: (control) => (cloud = control) });

testOnEveryScreen(
  'a declined card says so and offers to pay again; paying again with a good card shows the PIN',
  async ({ page }) => {
    // Fast track starts now, so the booking paid on the second try has its PIN at once.
    await submitFastTrackBooking(page, cloud);

    const sandbox = new SandboxPaymentPage(page);
    await sandbox.waitUntilShown();
    const charged = await sandbox.amount().textContent();
    await sandbox.payWithTestCard(SandboxPaymentPage.DECLINED_CARD);

    const complete = new BookingCompletePage(page);
    await complete.expectDeclined();
    await shot(page, 'outcome-declined');

    await complete.retryButton().click();
    await sandbox.waitUntilShown();
    // The same frozen hold, so the same amount.
    await expect(sandbox.amount()).toHaveText(charged!);
    await sandbox.payWithTestCard(SandboxPaymentPage.APPROVED_CARD);
    await complete.expectConfirmed();
    await complete.expectPin();
    await complete.expectLockerIds();
    await expect(complete.paidAmount()).toHaveText(charged!);
    await shot(page, 'outcome-paid-after-retry');
  },
);

testOnEveryScreen(
  'FIVEOFF at areadebug: summary, gateway and completion page all say the 1,00 € charged',
  async ({ page }) => {
    const booking = new BookingPage(page);
    await booking.open('areadebug');
    await booking.startBooking();
    if (screenOf(page) === 'phone') {
      await page.getByRole('button', { name: 'Inizia più tardi' }).click();
    }
    // A day ahead: the 1,00 € standard locker for 3 hours.
    await booking.chooseDate(dateInZone(7));
    await booking.chooseTime(await booking.firstOfferedTime());
    await booking.chooseDuration('hours:3');
    await booking.chooseSize(/Standard/);
    await booking.chooseQuantity(1);
    await expect(booking.summaryHeading()).toBeVisible();

    await page.getByLabel('Codice sconto').fill('FIVEOFF');
    await page.getByRole('button', { name: 'Applica' }).click();
    const prices = page.getByRole('table', { name: 'Dettaglio prezzo' });
    await expect(prices.getByRole('row', { name: /Prezzo scontato/ })).toContainText('0,00');
    await expect(prices.getByRole('row', { name: /Totale/ })).toContainText('1,00');
    await expect(prices.getByText('Importo minimo addebitabile: 1,00 €')).toBeVisible();
    await booking.fillCustomer(CUSTOMER);
    await shot(page, 'outcome-minimum-summary');
    await page.getByRole('button', { name: 'Paga ora' }).click();

    const sandbox = new SandboxPaymentPage(page);
    await sandbox.waitUntilShown();
    await expect(sandbox.amount()).toHaveText('1,00 €');
    await sandbox.payWithTestCard();

    const complete = new BookingCompletePage(page);
    await complete.expectConfirmed();
    await complete.expectPinOnTheDay();
    await expect(complete.paidAmount()).toHaveText('1,00 €');
    await expect(page.getByText('Importo minimo addebitabile: 1,00 €')).toBeVisible();
    await shot(page, 'outcome-minimum-complete');
  },
);
