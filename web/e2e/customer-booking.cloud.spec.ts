import { expect, test, type Page } from '@playwright/test';
import { BookingPage, firstOfferedDuration } from './pages/booking-page';
import { NightWizardPage } from './pages/night-wizard-page';
import { BookingCompletePage, SandboxPaymentPage } from './pages/payment-pages';
import {
  CloudControl,
  dateInZone,
  romeInstant,
  soonestBookingDay,
  timeInZone,
} from './support/cloud-control';
import { CUSTOMER, resetCloudAroundEachTest, shot } from './support/customer-session';
import { screenOf, testOnEveryScreen } from './support/visitor-screens';

// The customer pages against the real cloud (demo data, sandbox payments), at phone and desktop
// size: book, pay on the sandbox gateway's page and read the PIN, plus the screens the operator's
// settings and the lockers' availability lead to. The fast-track window is set around the current
// time, and the daytime and night tests book today while Rome's clock allows it (PIN and locker on
// the complete page) and tomorrow otherwise; their later-day twins always book days ahead (PIN and
// locker "on the day"), so every run covers both confirmations whatever the hour it starts at.

let cloud: CloudControl;
/** The smallest daytime booking: one standard locker for 3 hours. */
const ONE_STANDARD_FOR_THREE_HOURS = { duration: 'hours:3', size: /Standard/, quantity: 1 } as const;
resetCloudAroundEachTest({ use: (control) => (cloud = control) });

/** From the idle screen to the calendar: phones choose "start later" first. */
async function openCalendar(booking: BookingPage): Promise<void> {
  await expect(booking.bookButton).toBeEnabled();
  await shot(booking.page, '01-idle');
  await booking.startBooking();
  if (screenOf(booking.page) === 'phone') {
    await shot(booking.page, '02-start-options');
    await booking.page.getByRole('button', { name: 'Inizia più tardi' }).click();
  }
  await expect(booking.page.getByLabel('Data')).toBeVisible();
}

/** Pays on the sandbox gateway's page and checks the confirmation the visitor comes back to. */
async function payOnSandbox(page: Page, prefix: string, starts: 'today' | 'later day'): Promise<void> {
  const sandbox = new SandboxPaymentPage(page);
  await sandbox.waitUntilShown();
  await shot(page, `${prefix}-sandbox-page`);
  await sandbox.payWithTestCard();
  const complete = new BookingCompletePage(page);
  await complete.expectConfirmed();
  if (starts === 'today') {
    await complete.expectPin();
    await complete.expectLockerIds();
  } else {
    await complete.expectPinOnTheDay();
  }
  await shot(page, `${prefix}-complete`);
}

/** A booking from start to PIN on `date`, which `starts` today or later; `shots` prefixes its screenshots. */
type BookingRun = (page: Page, date: string, starts: 'today' | 'later day', shots: string) => Promise<void>;

/**
 * The daytime flow from the home page to the complete page: a standard locker on `date` at the
 * first start time offered, for the first duration offered, paid on the sandbox page.
 */
const bookDaytime: BookingRun = async (page, date, starts, shots) => {
  await page.goto('/');
  await expect(page.getByRole('heading', { name: 'Deposito bagagli' })).toBeVisible();
  await shot(page, `${shots}00-home`);

  const booking = new BookingPage(page);
  await booking.open('vicolo');
  await openCalendar(booking);
  await page.getByLabel('Data').fill(date);
  await shot(page, `${shots}03-calendar`);
  await booking.continue();
  await booking.chooseTime(await booking.firstOfferedTime());
  const duration = await firstOfferedDuration(page);
  // Hour options run from 3 up to the whole hours left until 22:00 (at most 6): the first is 3
  // hours for any start this test can get (today only before 18:30), and 3 standard hours cost 5,50.
  expect(duration).toBe('hours:3');
  await page.getByLabel('Durata').selectOption(duration);
  await shot(page, `${shots}04-duration`);
  await booking.continue();
  await shot(page, `${shots}05-sizes`);
  await booking.chooseSize(/Standard/);
  await shot(page, `${shots}06-quantity`);
  await booking.chooseQuantity(1);
  await expect(booking.summaryHeading()).toBeVisible();
  await expect(page.getByRole('row', { name: /Totale/ })).toContainText('5,50');
  await booking.fillCustomer(CUSTOMER);
  await shot(page, `${shots}07-summary`);
  await page.getByRole('button', { name: 'Paga ora' }).click();
  await payOnSandbox(page, `${shots}08`, starts);
};

testOnEveryScreen(
  'fast track: a large locker for the next three hours, paid and confirmed',
  async ({ page }) => {
    await cloud.updateSettings({ ALWAYS_SHOW_FAST_TRACK: true });
    // Earlier specs' fast-track bookings may hold every large locker of the shared cloud by now.
    await cloud.cancelBookingsOn('vicolo', 'large');
    const booking = new BookingPage(page);
    await booking.open('vicolo');
    await booking.startBooking();
    await page.getByRole('button', { name: 'Inizia ora' }).click();
    const dialog = page.getByRole('dialog');
    await expect(dialog).toContainText(/grande/i);
    await shot(page, 'fast-track-offer');
    await dialog.getByRole('button', { name: 'Prenota ora' }).click();
    await expect(booking.summaryHeading()).toBeVisible();
    await booking.fillCustomer(CUSTOMER);
    await page.getByRole('button', { name: 'Paga ora' }).click();
    await payOnSandbox(page, 'fast-track', 'today');
  },
);

testOnEveryScreen(
  'fast track falls back to a standard locker when every large one is taken',
  async ({ page }) => {
    await cloud.updateSettings({ ALWAYS_SHOW_FAST_TRACK: true });
    await cloud.cancelBookingsOn('vicolo', 'large');
    await cloud.holdAllLockers('vicolo', 'large');
    const booking = new BookingPage(page);
    await booking.open('vicolo');
    await booking.startBooking();
    await page.getByRole('button', { name: 'Inizia ora' }).click();
    const dialog = page.getByRole('dialog', { name: 'Locker grande non disponibile' });
    await expect(dialog).toBeVisible();
    await shot(page, 'fast-track-fallback');
    await dialog.getByRole('button', { name: 'Sì, procedi' }).click();
    await expect(booking.summaryHeading()).toBeVisible();
    await expect(page.getByText(/standard/i).first()).toBeVisible();
    await booking.fillCustomer(CUSTOMER);
    await page.getByRole('button', { name: 'Paga ora' }).click();
    await payOnSandbox(page, 'fast-track-fallback', 'today');
  },
);

/**
 * The night wizard from its calendar to the complete page: a large locker on `date` at the first
 * start time offered, for the first duration offered, paid on the sandbox page.
 */
const bookNight: BookingRun = async (page, date, starts, shots) => {
  await cloud.cancelBookingsOn('vicolo', 'large');
  const night = new NightWizardPage(page);
  await night.open('vicolo');
  await expect(page.getByLabel('Data')).toBeVisible();
  await shot(page, `${shots}1-calendar`);
  await night.chooseDate(date);
  await night.chooseTime(await night.firstOfferedTime());
  await night.chooseDuration(await firstOfferedDuration(page));
  await night.chooseSize(/Grande/);
  await night.chooseQuantity(1);
  await expect(night.countdown()).toBeVisible();
  await new BookingPage(page).fillCustomer(CUSTOMER);
  await shot(page, `${shots}2-summary`);
  await page.getByRole('button', { name: 'Paga ora' }).click();
  await payOnSandbox(page, `${shots}3`, starts);
};

// Each flow books as soon as it can: today before 18:30 in Rome (PIN and locker on the complete
// page; the night wizard offers today's starts until 19:00), tomorrow after; and on a later day.
const FLOWS = [
  {
    flow: 'daytime flow',
    locker: 'a standard locker',
    book: bookDaytime,
    later: { title: 'a booking for next week', daysAhead: 7 },
    shots: { soonest: '', later: 'later-' },
  },
  {
    flow: 'night wizard',
    locker: 'a large locker',
    book: bookNight,
    later: { title: 'a booking for a later day', daysAhead: 8 },
    shots: { soonest: 'night-', later: 'night-later-' },
  },
];

for (const { flow, locker, book, later, shots } of FLOWS) {
  testOnEveryScreen(
    `${flow}: books ${locker} as soon as it can, pays and sees the PIN when it starts today`,
    async ({ page }, testInfo) => {
      const { date, starts } = soonestBookingDay();
      testInfo.annotations.push({ type: 'booking day', description: `${date} (${starts})` });
      await book(page, date, starts, shots.soonest);
    },
  );

  testOnEveryScreen(
    `${flow}: ${later.title} is confirmed with PIN and locker to come on the day`,
    async ({ page }) => {
      await book(page, dateInZone(later.daysAhead), 'later day', shots.later);
    },
  );
}

test.describe('what the operator and the lockers decide', () => {
  testOnEveryScreen(
    'maintenance mode shows the maintenance screen and refuses bookings',
    async ({ page }) => {
      await cloud.updateSettings({ MAINTENANCE_MODE: true });
      await page.goto('/vicolo');
      await expect(page.getByRole('heading', { name: 'Servizio in manutenzione' })).toBeVisible();
      await shot(page, 'maintenance');
      await cloud.updateSettings({ MAINTENANCE_MODE: false });
      await page.reload();
      await expect(new BookingPage(page).bookButton).toBeEnabled();
    },
  );

  testOnEveryScreen(
    'a block window around the current time shows the maintenance screen',
    async ({ page }) => {
      await cloud.updateSettings({ BLOCK_WINDOWS: [{ from: timeInZone(-30), to: timeInZone(30) }] });
      await page.goto('/vicolo');
      await expect(page.getByRole('heading', { name: 'Servizio in manutenzione' })).toBeVisible();
      await shot(page, 'block-window');
    },
  );

  testOnEveryScreen('a day without free lockers is refused in the calendar', async ({ page }) => {
    const day = dateInZone(20);
    // A whole day from 10:00, so no locker of either size is free at any time that day.
    const window = {
      startTimeIso: romeInstant(day, '10:00'),
      endTimeIso: romeInstant(dateInZone(21), '10:00'),
    };
    await cloud.holdAllLockers('vicolo', 'standard', window);
    await cloud.holdAllLockers('vicolo', 'large', window);
    const booking = new BookingPage(page);
    await booking.open('vicolo');
    await openCalendar(booking);
    await booking.chooseDate(day);
    const dayRefused = page.getByText(
      'Non ci sono locker disponibili per questa data. Scegli un altro giorno.',
    );
    await expect(dayRefused.or(page.getByLabel('Orario di inizio'))).toBeVisible();
    if (!(await dayRefused.isVisible())) {
      await booking.chooseTime('11:00');
      await booking.chooseDuration('hours:3');
      await expect(
        page.getByText('Purtroppo non ci sono locker disponibili per questa durata.'),
      ).toBeVisible();
    }
    await shot(page, 'no-availability');
  });

  testOnEveryScreen('invalid customer details are pointed out and nothing is paid', async ({ page }) => {
    const booking = new BookingPage(page);
    await booking.open('vicolo');
    await openCalendar(booking);
    await booking.chooseStay({ ...ONE_STANDARD_FOR_THREE_HOURS, date: dateInZone(9), time: '11:00' });
    await expect(booking.summaryHeading()).toBeVisible();
    await booking.fillCustomer({ name: 'Giulia3', surname: '', email: 'giulia@', phone: '33a' });
    await page.getByLabel('Conferma email').fill('other@example.com');
    await page.getByLabel('Conferma email').blur();
    await page.getByRole('button', { name: 'Paga ora' }).click();
    await expect(page.getByText(/Controlla i dati inseriti/).first()).toBeVisible();
    await shot(page, 'invalid-form');
    await expect(page).toHaveURL(/\/vicolo/);
  });

  testOnEveryScreen('a hold that lapses disables paying and says so', async ({ page }) => {
    await cloud.updateSettings({ BOOKING_EXPIRATION_MINUTES: 1 });
    await page.clock.install();
    const booking = new BookingPage(page);
    await booking.open('vicolo');
    await openCalendar(booking);
    await booking.chooseStay({ ...ONE_STANDARD_FOR_THREE_HOURS, date: dateInZone(10), time: '12:00' });
    await expect(booking.summaryHeading()).toBeVisible();
    await booking.fillCustomer(CUSTOMER);
    await page.clock.fastForward('01:05');
    await expect(page.getByText(/Il tempo per completare la prenotazione è scaduto/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Paga ora' })).toBeDisabled();
    await shot(page, 'hold-expired');
  });
});

test.describe('each language', () => {
  const LANGUAGES = [
    { lng: 'it', book: 'Prenota un locker', home: 'Deposito bagagli' },
    { lng: 'en', book: 'Book a locker', home: 'Luggage storage' },
    { lng: 'es', book: 'Reservar una taquilla', home: 'Consigna de equipaje' },
    { lng: 'jp', book: 'ロッカーを予約する', home: '手荷物預かり' },
  ];
  for (const { lng, book, home } of LANGUAGES) {
    testOnEveryScreen(`${lng}: home and booking pages are translated`, async ({ page }) => {
      await page.goto(`/?lng=${lng}`);
      await expect(page.getByRole('heading', { name: home })).toBeVisible();
      await page.goto(`/vicolo?lng=${lng}`);
      await expect(page.getByRole('button', { name: book })).toBeVisible();
      await shot(page, `language-${lng}`);
    });
  }
});
