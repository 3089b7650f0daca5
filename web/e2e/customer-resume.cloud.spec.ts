import { expect, type Locator, type Page } from '@playwright/test';
import { BookingPage, firstOfferedDuration } from './pages/booking-page';
import { NightWizardPage } from './pages/night-wizard-page';
import { SandboxPaymentPage } from './pages/payment-pages';
import { dateInZone } from './support/cloud-control';
import { CUSTOMER, resetCloudAroundEachTest } from './support/customer-session';
import { screenOf, testOnEveryScreen } from './support/visitor-screens';

// Issue 15 item 3, against the real cloud at phone and desktop size: the phone's Back goes one step
// back at every step (leaving the summary gives the held lockers back), a reload resumes the step
// with every choice, and Back from the payment page returns to the summary, not the start screen.

resetCloudAroundEachTest({ resetAfterAll: false });

/** The hold the flow keeps in this tab's session storage. */
async function heldTransaction(page: Page): Promise<string> {
  const id = await page.evaluate(() => {
    const saved = window.sessionStorage.getItem('deposito.flow.daytime.vicolo');
    return saved
      ? (JSON.parse(saved) as { state: { hold?: { transactionId: string } } }).state.hold?.transactionId
      : null;
  });
  expect(id, 'the flow keeps its hold in session storage').toBeTruthy();
  return id!;
}

async function bookingStatus(page: Page, transactionId: string): Promise<string> {
  const answer = await page.request.get(`/api/bookings/${encodeURIComponent(transactionId)}`);
  return ((await answer.json()) as { status: string }).status;
}

/** What shows each step of both wizards, from the summary back to the calendar. */
function stepsOf(page: Page) {
  return {
    quantity: page.getByRole('heading', { name: 'Quanti locker?' }),
    size: page.getByRole('heading', { name: 'Scegli la dimensione' }),
    duration: page.getByLabel('Durata'),
    time: page.getByLabel('Orario di inizio'),
    date: page.getByLabel('Data'),
  };
}

/** The browser's Back once per step given, each step shown as the page goes back to it. */
async function goBackThrough(page: Page, steps: Locator[]): Promise<void> {
  for (const step of steps) {
    await page.goBack();
    await expect(step).toBeVisible();
  }
}

/** The daytime flow up to the summary (phones choose "start later" first); the page and its hold. */
async function toSummary(page: Page) {
  const booking = new BookingPage(page);
  await booking.open('vicolo');
  await booking.startBooking();
  if (screenOf(page) === 'phone') await page.getByRole('button', { name: 'Inizia più tardi' }).click();
  await booking.chooseDate(dateInZone(6));
  await booking.chooseTime(await booking.firstOfferedTime());
  await booking.chooseDuration('hours:3');
  // The demo's lockers carry their inside measurements (Parametri di sistema).
  await expect(page.getByRole('button', { name: /Standard/ })).toContainText(
    'Misure interne: 35 × 45 × 60 cm',
  );
  await booking.chooseSize(/Standard/);
  await booking.chooseQuantity(1);
  await expect(booking.summaryHeading()).toBeVisible();
  return { booking, held: await heldTransaction(page) };
}

testOnEveryScreen(
  'a reload on the summary resumes it; Back goes one step at a time and gives the hold back',
  async ({ page }) => {
    const { booking, held } = await toSummary(page);
    const total = await page
      .getByRole('table', { name: 'Dettaglio prezzo' })
      .getByRole('row', { name: /Totale/ })
      .textContent();

    await page.reload();
    await expect(booking.summaryHeading()).toBeVisible();
    await expect(
      page.getByRole('table', { name: 'Dettaglio prezzo' }).getByRole('row', { name: /Totale/ }),
    ).toHaveText(total!);
    expect(await heldTransaction(page)).toBe(held);
    expect(await bookingStatus(page, held)).toBe('pending');

    // The browser's Back: the quantity again, and the lockers are free again.
    const steps = stepsOf(page);
    await goBackThrough(page, [steps.quantity]);
    await expect.poll(() => bookingStatus(page, held)).toBe('cancelled');
    await goBackThrough(page, [steps.size]);
    // A reload in the middle keeps the step too.
    await page.reload();
    await expect(steps.size).toBeVisible();
    await goBackThrough(page, [steps.duration, steps.time, steps.date, booking.bookButton]);
    await expect(page).toHaveURL(/\/vicolo$/);
  },
);

testOnEveryScreen(
  "Back from the payment page returns to the summary with the visitor's hold",
  async ({ page }) => {
    const { booking, held } = await toSummary(page);
    await booking.fillCustomer(CUSTOMER);
    await page.getByRole('button', { name: 'Paga ora' }).click();
    const sandbox = new SandboxPaymentPage(page);
    await sandbox.waitUntilShown();

    await page.goBack();
    await expect(booking.summaryHeading()).toBeVisible();
    expect(await heldTransaction(page)).toBe(held);
    // Still payable: the same hold goes to the payment page again and is paid.
    await booking.fillCustomer(CUSTOMER);
    await page.getByRole('button', { name: 'Paga ora' }).click();
    await sandbox.waitUntilShown();
    await sandbox.payWithTestCard();
    await expect.poll(() => bookingStatus(page, held)).toMatch(/^(scheduled|confirmed)$/);
    // Paid: the booking pages start afresh in this tab.
    await booking.open('vicolo');
    await expect(page.getByRole('button', { name: 'Prenota un locker' })).toBeVisible();
  },
);

testOnEveryScreen(
  'the night wizard: a reload resumes the summary, and Back goes one step at a time',
  async ({ page }) => {
    const night = new NightWizardPage(page);
    await night.open('vicolo');
    await night.chooseDate(dateInZone(6));
    await night.chooseTime(await night.firstOfferedTime());
    await night.chooseDuration(await firstOfferedDuration(page));
    await night.chooseSize(/Standard/);
    await night.chooseQuantity(1);
    const booking = new BookingPage(page);
    await expect(booking.summaryHeading()).toBeVisible();

    await page.reload();
    await expect(booking.summaryHeading()).toBeVisible();
    await expect(night.countdown()).toBeVisible();
    const steps = stepsOf(page);
    await goBackThrough(page, [steps.quantity, steps.size, steps.duration]);
    // The page's own Back agrees with the browser's.
    await page.getByRole('button', { name: 'Indietro' }).click();
    await expect(steps.time).toBeVisible();
    await goBackThrough(page, [steps.date]);
    await expect(page).toHaveURL(/\/booking-notte\/vicolo$/);
  },
);
