import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type FrameLocator, type Locator, type Page } from '@playwright/test';
import { MOCK_TRANSACTION_ID, mockBookingReadBack, mockCloud } from './support/mock-cloud';

// Layout as a visitor meets it: the completion page on the narrowest phones, and the booking
// pages inside another site's page through embed.js (a host page served from a second origin):
// the frame follows the content down as well as up, and a dialog opens where the visitor looks.

const NOW = new Date('2026-07-01T08:00:00Z'); // 10:00 in Rome
const WIDTHS = [320, 360, 1280] as const;

test.beforeEach(async ({ page }) => {
  await page.clock.setFixedTime(NOW);
});

/** A paid booking of a visitor with an ordinary long e-mail address (35 characters) and name. */
const LONG_EMAIL_BOOKING = mockBookingReadBack({
  nome: 'Mariagrazia',
  cognome: 'Dell’Orologio Bianchi',
  email: 'mariagrazia.dellorologio@example.com',
  lockerType: 'large',
  quantita: 3,
  reservedLockers: [12, 13, 14],
  endTimeIso: '2026-07-03T09:00:00.000Z',
  price_discounted: 90,
});

/** Opens `url` at each of the widths in turn and checks it there. */
async function atEachWidth(page: Page, url: string, check: (width: number) => Promise<void>): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 740 });
    await page.goto(url);
    await check(width);
  }
}

/** True when `locator`'s box lies inside the window horizontally. */
async function fitsWidth(page: Page, locator: Locator): Promise<boolean> {
  const box = await locator.boundingBox();
  const width = page.viewportSize()!.width;
  return box !== null && box.x >= 0 && box.x + box.width <= width + 0.5;
}

test('the completion page fits 320, 360 and 1280 px with a long e-mail address', async ({
  page,
}, testInfo) => {
  expect(LONG_EMAIL_BOOKING.email.length).toBeGreaterThanOrEqual(26);
  await mockCloud(page, { [`GET /api/bookings/${MOCK_TRANSACTION_ID}`]: LONG_EMAIL_BOOKING });
  await atEachWidth(page, `/booking-complete?transactionId=${MOCK_TRANSACTION_ID}`, async (width) => {
    await expect(page.getByText('482913')).toBeVisible();
    const overflow = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      innerWidth: window.innerWidth,
    }));
    expect(overflow.scrollWidth, `${width} px`).toBeLessThanOrEqual(overflow.innerWidth);
    // Every fact is on screen, the address, the price, the dates and the lockers included.
    for (const text of [LONG_EMAIL_BOOKING.email, '90,00', '12, 13, 14', '2026']) {
      const value = page.locator('dd', { hasText: text }).first();
      await expect(value).toBeVisible();
      expect(await fitsWidth(page, value), `${text} at ${width} px`).toBe(true);
    }
    await page.screenshot({ path: testInfo.outputPath(`complete-${width}.png`), fullPage: true });
  });
});

test.describe('inside a host page on another origin', () => {
  // Each test walks the flow at every width inside the host page: 27–35 s on a busy 2-core host,
  // too near the 45 s default.
  test.slow();

  let host: Server;
  let hostUrl: string;

  test.beforeAll(async ({ baseURL }) => {
    // The host site: a header, the embed snippet, a footer; on its own port, so a cross-origin frame.
    const page = `<!doctype html>
<html lang="it">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>Hotel Roma</title>
  </head>
  <body style="margin: 0; font-family: sans-serif">
    <header style="box-sizing: border-box; height: 600px; background: #e8e2d0; padding: 16px">Hotel Roma: deposito bagagli</header>
    <script src="${baseURL}/embed.js" data-location="vicolo" data-lang="it"></script>
    <footer style="box-sizing: border-box; height: 300px; background: #d0d8e8; padding: 16px">Contatti</footer>
  </body>
</html>`;
    host = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page);
    });
    await new Promise<void>((resolve) => host.listen(0, '127.0.0.1', resolve));
    hostUrl = `http://localhost:${(host.address() as AddressInfo).port}/`;
  });

  test.afterAll(async () => {
    await new Promise((resolve) => host?.close(resolve));
  });

  const frameHeight = (page: Page) =>
    page.locator('iframe').evaluate((frame) => frame.getBoundingClientRect().height);

  /** The height of the booking page's content, measured inside the frame. */
  const contentHeight = (frame: FrameLocator) =>
    frame.locator('body').evaluate((body) => body.getBoundingClientRect().height);

  test('the frame follows the content down as well as up', async ({ page }, testInfo) => {
    await mockCloud(page);
    await atEachWidth(page, hostUrl, async (width) => {
      const frame = page.frameLocator('iframe');
      await expect(frame.getByRole('button', { name: 'Prenota un locker' })).toBeVisible();
      // As tall as the content (embed.js's 480 px minimum only holds the place until the first report).
      await expect
        .poll(async () => Math.abs((await frameHeight(page)) - (await contentHeight(frame))))
        .toBeLessThan(2);
      const short = await frameHeight(page);
      const content = await contentHeight(frame);

      // Content grows by 2,000 px (as a long step would), then goes back to what it was.
      await frame.locator('#root').evaluate((root) => {
        const tall = document.createElement('div');
        tall.id = 'e2e-tall';
        tall.style.height = '2000px';
        root.append(tall);
      });
      await expect.poll(() => frameHeight(page)).toBeGreaterThan(content + 1990);
      await frame.locator('#e2e-tall').evaluate((tall) => tall.remove());
      await expect.poll(() => frameHeight(page), `${width} px`).toBeLessThan(short + 2);

      // No blank space left on the host page: header, frame, footer.
      const hostHeight = await page.evaluate(() => document.documentElement.scrollHeight);
      expect(hostHeight).toBeLessThan(600 + short + 300 + 4);
      await page.screenshot({ path: testInfo.outputPath(`embedded-${width}.png`), fullPage: true });

      // The same through the flow: the summary is long, the step before it short.
      await toSummary(page, frame);
      await expect
        .poll(async () => Math.abs((await frameHeight(page)) - (await contentHeight(frame))))
        .toBeLessThan(2);
      const summary = await frameHeight(page);
      await frame.getByRole('button', { name: 'Indietro' }).last().click();
      await expect(frame.getByRole('heading', { name: 'Riepilogo e pagamento' })).toBeHidden();
      await expect
        .poll(() => frameHeight(page), `${width} px, back from the summary`)
        .toBeLessThan(summary - 200);
      await expect
        .poll(async () => Math.abs((await frameHeight(page)) - (await contentHeight(frame))))
        .toBeLessThan(2);
    });
  });

  /** The daytime flow inside the frame, up to the summary. */
  async function toSummary(page: Page, frame: FrameLocator) {
    await frame.getByRole('button', { name: 'Prenota un locker' }).click();
    if (page.viewportSize()!.width <= 768)
      await frame.getByRole('button', { name: 'Inizia più tardi' }).click();
    await frame.getByLabel('Data').fill('2026-07-01');
    await frame.getByRole('button', { name: 'Continua' }).click();
    await frame.getByLabel('Orario di inizio').selectOption('11:00');
    await frame.getByRole('button', { name: 'Continua' }).click();
    await frame.getByLabel('Durata').selectOption('hours:4');
    await frame.getByRole('button', { name: 'Continua' }).click();
    await frame.getByRole('button', { name: /Standard/ }).click();
    await frame.locator('.choice .choice-number', { hasText: '2' }).click();
    await expect(frame.getByRole('heading', { name: 'Riepilogo e pagamento' })).toBeVisible();
  }

  /** True when the dialog lies wholly inside the host's window. */
  async function dialogInHostWindow(page: Page, dialog: Locator): Promise<boolean> {
    const box = await dialog.boundingBox();
    const { height } = page.viewportSize()!;
    return box !== null && box.y >= 0 && box.y + box.height <= height + 0.5;
  }

  test('the terms dialog opens in the part of the frame the visitor sees', async ({ page }, testInfo) => {
    await mockCloud(page);
    await atEachWidth(page, hostUrl, async (width) => {
      const frame = page.frameLocator('iframe');
      await toSummary(page, frame);
      const termsLink = frame.getByRole('button', { name: "termini e condizioni e l'informativa privacy" });
      const dialog = frame.getByRole('dialog', { name: 'Termini e condizioni' });

      // As the visitor scrolls to the link and taps it.
      await termsLink.scrollIntoViewIfNeeded();
      await termsLink.click();
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialogInHostWindow(page, dialog), `${width} px, at the link`).toBe(true);
      await page.screenshot({ path: testInfo.outputPath(`terms-dialog-${width}.png`) });
      await dialog.getByRole('button', { name: 'Chiudi' }).click();
      await expect(dialog).toBeHidden();

      // Host page scrolled to its end (the frame's last part and the footer in sight), the dialog follows.
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await termsLink.evaluate((link) => (link as HTMLElement).click());
      await expect(dialog).toBeVisible();
      await expect.poll(() => dialogInHostWindow(page, dialog), `${width} px, at the end`).toBe(true);
      await dialog.getByRole('button', { name: 'Chiudi' }).click();
    });
  });
});
