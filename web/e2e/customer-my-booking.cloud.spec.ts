import { expect, test, type Page } from '@playwright/test';
import { MyBookingPage } from './pages/my-booking-page';
import { BookingCompletePage, SandboxPaymentPage } from './pages/payment-pages';
import { CloudControl, dateInZone, romeInstant } from './support/cloud-control';
import {
  CUSTOMER,
  resetCloudAroundEachTest,
  screenshotPath,
  shot,
  submitFastTrackBooking,
} from './support/customer-session';
import { screenOf, testOnEveryScreen } from './support/visitor-screens';
import { mailsTo, myBookingLinkMailedTo } from './support/outbox';

// The visitor's own booking page (issue 16), against the real cloud with sandbox payments, at phone
// and desktop size: a paid booking's e-mail carries a private link; it opens the booking with its
// PIN, QR code, map and calendar links, in Italian and in English; the completion page links to it
// too; a link that is not (or no longer) valid says so.

// Each test pays a booking through the whole flow: on a busy machine that takes longer than most specs.
test.slow();

let cloud: CloudControl;
resetCloudAroundEachTest({ use: (control) => (cloud = control) });

/** Books a locker starting now at vicolo and pays it with the sandbox's good card; the PIN shown. */
async function bookAndPayNow(page: Page, email: string): Promise<string> {
  await submitFastTrackBooking(page, cloud, { ...CUSTOMER, email });
  const sandbox = new SandboxPaymentPage(page);
  await sandbox.waitUntilShown();
  await sandbox.payWithTestCard(SandboxPaymentPage.APPROVED_CARD);
  const complete = new BookingCompletePage(page);
  await complete.expectConfirmed();
  await complete.expectPin();
  return (await page.locator('.confirmation-pin').textContent())!.trim();
}

testOnEveryScreen(
  'the link in the confirmation e-mail opens the booking: PIN, QR, map, calendar, in Italian and English',
  async ({ page }) => {
    const email = `my-booking-${screenOf(page)}-${Date.now()}@example.com`;
    const pin = await bookAndPayNow(page, email);
    // The completion page links to the booking page too.
    await expect(page.getByTestId('my-booking-link')).toHaveAttribute(
      'href',
      /^\/my-booking\/[A-Za-z0-9_-]{43}$/,
    );
    await shot(page, 'my-booking-complete-link');

    const link = await myBookingLinkMailedTo(email);
    expect(new URL(link).pathname).toMatch(/^\/my-booking\/[A-Za-z0-9_-]{43}$/);
    await page.goto(new URL(link).pathname);
    const mine = new MyBookingPage(page);
    await expect(mine.heading()).toHaveText('La tua prenotazione');
    await expect(mine.status()).toHaveText('Confermata');
    await expect(mine.pin()).toHaveText(pin);
    await expect(mine.reference()).toHaveText(/^[A-Za-z0-9_-]+$/);
    await mine.expectQrCode();
    await expect(mine.mapLink()).toHaveAttribute(
      'href',
      /^https:\/\/www\.google\.com\/maps\/search\/\?api=1&query=/,
    );
    await expect(mine.mapLink()).toHaveAttribute('target', '_blank');
    await expect(mine.googleCalendarLink()).toHaveAttribute(
      'href',
      /^https:\/\/calendar\.google\.com\/calendar\/render\?/,
    );
    await shot(page, 'my-booking-it');

    // The calendar file: the stay, with the PIN in its notes.
    const ics = await page.request.get((await mine.calendarFileLink().getAttribute('href'))!);
    expect(ics.headers()['content-type']).toMatch(/^text\/calendar/);
    const text = (await ics.text()).replace(/\r\n[ \t]/g, '');
    expect(text).toContain('BEGIN:VEVENT');
    expect(text).toContain(`PIN: ${pin}`);

    // The receipt: a PDF naming the booking and what was paid.
    const receiptLink = page.getByRole('link', { name: 'Scarica la ricevuta (PDF)' });
    const receipt = await page.request.get((await receiptLink.getAttribute('href'))!);
    expect(receipt.headers()['content-type']).toBe('application/pdf');
    const receiptText = (await receipt.body()).toString('latin1');
    expect(receiptText).toMatch(/^%PDF-/);
    expect(receiptText).toContain('Totale pagato');
    expect(receiptText).toContain(`(${(await mine.reference().textContent())!.trim()})`);

    await mine.switchTo('English');
    await expect(mine.heading()).toHaveText('Your booking');
    await expect(mine.status()).toHaveText('Confirmed');
    await expect(page.getByText('Show this code to the staff on site.')).toBeVisible();
    await shot(page, 'my-booking-en');
    await mine.switchTo('Italiano');
  },
);

/**
 * A booking for a later day at oca, held and sent to the payment page through the API (as the
 * booking pages do), paid on the sandbox page in the browser; its e-mail's address.
 */
async function payLaterDayBooking(page: Page, email: string, daysAhead: number): Promise<void> {
  const date = dateInZone(daysAhead);
  const held = await page.request.post('/api/lockers/inhibit-multi', {
    data: {
      locationKey: 'oca',
      dimensione: 'standard',
      quantita: 1,
      startTimeIso: romeInstant(date, '10:00'),
      endTimeIso: romeInstant(date, '13:00'),
    },
  });
  expect(held.status()).toBe(200);
  const { transactionId } = (await held.json()) as { transactionId: string };
  const created = await page.request.post('/api/payments/create-payment', {
    data: {
      transactionId,
      currency: 'EUR',
      email,
      nome: 'Giulia',
      cognome: 'Rossi',
      telefono: '+393331234567',
      note: 'lang:it',
    },
  });
  const redirect = /location\.href = ("[^"]+")/.exec(await created.text())?.[1];
  expect(redirect).toBeDefined();
  await page.goto(JSON.parse(redirect!) as string);
  const sandbox = new SandboxPaymentPage(page);
  await sandbox.waitUntilShown();
  await sandbox.payWithTestCard(SandboxPaymentPage.APPROVED_CARD);
  await new BookingCompletePage(page).expectConfirmed();
}

testOnEveryScreen(
  'a later-day booking is cancelled from its page under the policy: refunded, PIN gone',
  async ({ page }) => {
    const email = `my-booking-cancel-${screenOf(page)}-${Date.now()}@example.com`;
    // Phone and desktop each pay their own booking, two and three days ahead.
    await payLaterDayBooking(page, email, screenOf(page) === 'phone' ? 2 : 3);
    await page.goto(new URL(await myBookingLinkMailedTo(email)).pathname);
    const mine = new MyBookingPage(page);
    await expect(mine.status()).toHaveText('Pagata, in attesa del giorno');
    await expect(page.getByRole('status')).toContainText(
      'Il PIN e il numero del locker ti arriveranno per email',
    );
    await expect(page.getByText(/si possono annullare gratuitamente fino all’inizio/)).toBeVisible();
    await shot(page, 'my-booking-scheduled-it');

    // The confirmation again, to the booking's own address (named partly hidden).
    await page.getByRole('button', { name: 'Invia di nuovo la conferma' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Inviata a m•••@example.com' })).toBeVisible();
    await expect.poll(async () => (await mailsTo(email)).length, { timeout: 20_000 }).toBe(2);

    await mine.switchTo('English');
    await expect(page.getByText(/can be cancelled free of charge until the start/)).toBeVisible();
    await page.getByRole('button', { name: 'Cancel the booking' }).click();
    await expect(page.getByText('Cancel the booking and get a refund?')).toBeVisible();
    await shot(page, 'my-booking-cancel-confirm-en');
    await page.getByRole('button', { name: 'Yes, cancel and refund' }).click();
    await expect(mine.status()).toHaveText('Cancelled, refunded');
    await expect(page.getByRole('status').filter({ hasText: 'Your booking is cancelled' })).toBeVisible();
    await expect(mine.pin()).toHaveCount(0);
    await shot(page, 'my-booking-cancelled-en');

    // Read again: still cancelled, nothing left to cancel (through the API: a reload would race
    // other runs rebuilding the web app on this machine).
    const again = await page.request.get(`/api${new URL(page.url()).pathname}`);
    expect(await again.json()).toMatchObject({
      status: 'refunded',
      pin: null,
      cancellation: { allowed: false, refusal: 'not_paid' },
    });
    await mine.switchTo('Italiano');
    await expect(mine.status()).toHaveText('Annullata, rimborsata');
    await expect(page.getByRole('button', { name: 'Annulla la prenotazione' })).toHaveCount(0);
  },
);

testOnEveryScreen(
  'a stay is extended from its page: the choices, a declined card, then paid: new end, same PIN, e-mail',
  async ({ page }) => {
    const email = `my-booking-extend-${screenOf(page)}-${Date.now()}@example.com`;
    // A stay for the whole of today (whatever the hour the suite runs at), extendable by days.
    const { token } = await cloud.paidStayToday('oca', email);
    await page.goto(`/my-booking/${token}`);
    const mine = new MyBookingPage(page);
    await expect(mine.status()).toHaveText('Confermata');
    const pin = (await mine.pin().textContent())!.trim();
    const extend = page.getByRole('region', { name: 'Prolunga' });
    await expect(extend.getByText(/paghi solo la differenza di prezzo/)).toBeVisible();
    await expect(extend.getByRole('button', { name: /\+1 giorno/ })).toHaveAttribute('aria-pressed', 'true');
    await expect(extend.getByRole('button', { name: /\+14 giorni/ })).toBeVisible();
    await shot(page, 'my-booking-extend-it');
    await extend.screenshot({ path: screenshotPath(page, 'my-booking-extend-section') });

    // A declined card: nothing changes.
    await extend.getByRole('button', { name: /^Paga .+ e prolunga$/ }).click();
    const sandbox = new SandboxPaymentPage(page);
    await sandbox.waitUntilShown();
    await sandbox.payWithTestCard(SandboxPaymentPage.DECLINED_CARD);
    await new BookingCompletePage(page).expectDeclined();
    await page.goto(`/my-booking/${token}`);
    await expect(mine.status()).toHaveText('Confermata');
    await expect(page.getByTestId('my-booking-extensions')).toHaveCount(0);

    // In English, two more days, paid.
    await mine.switchTo('English');
    const english = page.getByRole('region', { name: 'Extend' });
    await english.getByRole('button', { name: /\+2 days/ }).click();
    await expect(english.getByRole('button', { name: /\+2 days/ })).toHaveAttribute('aria-pressed', 'true');
    const pay = english.getByRole('button', { name: /^Pay .+ and extend$/ });
    const amount = /^Pay (.+) and extend$/.exec((await pay.textContent())!.trim())![1]!;
    await pay.click();
    await sandbox.waitUntilShown();
    await sandbox.payWithTestCard(SandboxPaymentPage.APPROVED_CARD);
    await page.waitForURL(/\/booking-complete/, { timeout: 20_000 });
    await expect(page.locator('.confirmation-pin')).toHaveText(pin);

    // Back on the stay's page (the completion page spoke the booking's Italian).
    await page.goto(`/my-booking/${token}`);
    await expect(mine.pin()).toHaveText(pin);
    await mine.switchTo('English');
    const extensions = page.getByTestId('my-booking-extensions');
    await expect(extensions).toContainText(amount);
    await expect(extensions).toContainText('(Confirmed)');
    // Only longer stays are offered now: three days and more.
    await expect(
      page.getByRole('region', { name: 'Extend' }).getByRole('button', { name: /\+1 day\b/ }),
    ).toBeVisible();
    await shot(page, 'my-booking-extended-en');
    await mine.switchTo('Italiano');

    // The e-mail confirms the extension, with the PIN and a link to the stay's page.
    await expect
      .poll(async () => (await mailsTo(email)).find((mail) => /X-Deposito-Email: extension/i.test(mail)), {
        timeout: 20_000,
      })
      .toContain(`PIN: ${pin}`);
  },
);

testOnEveryScreen(
  'a booking starting today (fast track) says it cannot be cancelled online',
  async ({ page }) => {
    const email = `my-booking-same-day-${screenOf(page)}-${Date.now()}@example.com`;
    await bookAndPayNow(page, email);
    await page.goto(new URL(await myBookingLinkMailedTo(email)).pathname);
    await expect(new MyBookingPage(page).status()).toHaveText('Confermata');
    await expect(page.getByText(/si possono annullare gratuitamente fino all’inizio/)).toBeVisible();
    // Started at once (fast track starts now), and booked on its own day: either refusal is right.
    await expect(
      page.getByText(/La prenotazione è iniziata|Le prenotazioni fatte per lo stesso giorno/),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: 'Annulla la prenotazione' })).toHaveCount(0);
  },
);

testOnEveryScreen(
  'a link that is unknown (or expired, or revoked) says so, in Italian and English',
  async ({ page }) => {
    await page.goto(`/my-booking/${'x'.repeat(43)}`);
    const mine = new MyBookingPage(page);
    await expect(mine.heading()).toHaveText('Link non valido');
    await expect(page.getByRole('alert')).toContainText('è scaduto o è stato revocato');
    await shot(page, 'my-booking-not-found-it');
    await mine.switchTo('English');
    await expect(mine.heading()).toHaveText('Link not valid');
    await shot(page, 'my-booking-not-found-en');
    await mine.switchTo('Italiano');
  },
);
