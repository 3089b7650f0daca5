import { expect, test } from '@playwright/test';
import { AdminApp } from '../pages/admin-app';
import { BookingPage } from '../pages/booking-page';
import { BookingCompletePage, SandboxPaymentPage } from '../pages/payment-pages';
import { CloudControl, E2E_ADMIN } from '../support/cloud-control';

// The whole business as one story, against what `npm start` (or `npm run cluster`) runs: a visitor
// books a locker and pays on the sandbox page; the paid booking's PIN reaches the site's locker
// controller through the cloud and the site's edge bridge; the operator opens the locker from the
// admin area and the controller's door opens. Only the simulated controller stands in for hardware.

const LOCATION = 'vicolo';
/** The demo sites' controllers listen from E2E_SITE_PORT in seed order (vicolo is the second). */
const CONTROLLER = `http://127.0.0.1:${Number(process.env.E2E_SITE_PORT ?? 11000) + 1}`;

interface SimulatorState {
  lockers: Array<{ number: number; occupancy: string; doorOpen: boolean; booking?: { pin: string } }>;
  history: Array<{ locker: number; type: string }>;
}

/** The vicolo bridge's status server (the second demo site: ports follow the seed order). */
const BRIDGE_STATUS = `http://127.0.0.1:${Number(process.env.E2E_BRIDGE_STATUS_PORT ?? 8790) + 1}/healthz`;

async function bridgeStatus(): Promise<string> {
  const answer = await fetch(BRIDGE_STATUS);
  return ((await answer.json()) as { status: string }).status;
}

async function simulatorState(): Promise<SimulatorState> {
  const answer = await fetch(`${CONTROLLER}/_sim/state`);
  expect(answer.ok).toBe(true);
  return (await answer.json()) as SimulatorState;
}

test('a visitor books and pays, the PIN reaches the locker, the operator opens it and the door opens', async ({
  page,
  request,
}) => {
  // The site's bridge is linked to the cloud and reads its controller.
  await expect.poll(bridgeStatus, { timeout: 30_000 }).toBe('ok');
  if (test.info().project.name === 'cluster') {
    // The visitor's requests go through HAProxy (it says so in Via), not to one process.
    const home = await request.get('/');
    expect(home.headers()['via']).toContain('haproxy');
  }
  const cloud = new CloudControl(request);
  // The fast track (start now) is offered only inside its window: open it around the current hour.
  await cloud.resetSettings({ ALWAYS_SHOW_FAST_TRACK: true });

  // The visitor: start now, accept the offered locker (a large one, or a standard one once every
  // large one is taken: the same system may have run the story before), fill the form, pay.
  const booking = new BookingPage(page);
  await booking.open(LOCATION);
  await booking.startBooking();
  await page.getByRole('button', { name: 'Inizia ora' }).click();
  const offer = page.getByRole('dialog');
  await expect(offer, 'the fast-track offer').toBeVisible();
  await offer.getByRole('button', { name: /^(Prenota ora|Sì, procedi)$/ }).click();
  await expect(booking.summaryHeading()).toBeVisible();
  await booking.fillCustomer({
    name: 'Marco',
    surname: 'Bianchi',
    email: 'marco@example.com',
    phone: '3331234567',
  });
  await page.getByRole('button', { name: 'Paga ora' }).click();
  const sandbox = new SandboxPaymentPage(page);
  await sandbox.waitUntilShown();
  await sandbox.payWithTestCard();
  const complete = new BookingCompletePage(page);
  await complete.expectConfirmed();
  await complete.expectPin();
  const pin = (await page.locator('.confirmation-pin').textContent())?.trim() ?? '';
  const lockerText = await page
    .locator('dt', { hasText: 'Numero locker' })
    .locator('xpath=following-sibling::dd[1]')
    .textContent();
  const locker = Number(lockerText?.split(',')[0]?.trim());
  expect(locker).toBeGreaterThan(0);

  // The cloud programmed the booking on the site's controller, with the PIN the visitor sees.
  await expect
    .poll(async () => (await simulatorState()).lockers.find((l) => l.number === locker)?.booking?.pin, {
      timeout: 20_000,
    })
    .toBe(pin);

  // The operator opens that locker from the admin area.
  const admin = new AdminApp(page);
  await admin.openLogin();
  await admin.login();
  await admin.goTo('Gestione Locker');
  await page.getByLabel('Location').selectOption(LOCATION);
  const grid = page.getByRole('listbox', { name: 'Locker' });
  await expect(grid.getByRole('option', { name: new RegExp(`^${locker}\\b`) })).toContainText('Occupato');
  await page.getByLabel('ID locker').fill(String(locker));
  const opensBefore = (await simulatorState()).history.filter(
    (h) => h.locker === locker && h.type === 'open',
  ).length;
  await page.getByRole('button', { name: 'Apri', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Apri', exact: true }).click();

  // The site's controller opened the door.
  await expect
    .poll(
      async () =>
        (await simulatorState()).history.filter((h) => h.locker === locker && h.type === 'open').length,
      { timeout: 10_000 },
    )
    .toBe(opensBefore + 1);

  // With several cloud processes, the operator's command works through each of them, whichever
  // one holds the site's bridge (the commands cross through PostgreSQL).
  const processUrls = (process.env.E2E_PROCESS_URLS ?? '').split(',').filter(Boolean);
  const login = await request.post('/api/admin/login', { data: E2E_ADMIN });
  const { token } = (await login.json()) as { token: string };
  for (const [index, processUrl] of processUrls.entries()) {
    const answer = await request.post(`${processUrl}/api/lockers/open`, {
      data: { location: LOCATION, lockerId: locker },
      headers: { authorization: `Bearer ${token}` },
    });
    expect(answer.status(), await answer.text()).toBe(200);
    await expect
      .poll(
        async () =>
          (await simulatorState()).history.filter((h) => h.locker === locker && h.type === 'open').length,
      )
      .toBe(opensBefore + 2 + index);
  }
});
