import { expect, test, type Page } from '@playwright/test';
import { expectNoViolations } from './support/axe';
import { ADMIN_DEVICES, AdminApp } from './pages/admin-app';

// Issue 17: axe-core on every admin page, on a desktop and on a 390 px phone, with zero violations
// of any impact (WCAG 2.x A and AA rules and axe's best practices), against the real cloud.

test.describe.configure({ mode: 'serial' });

const PAGES: Array<{ path: string; heading: string | RegExp }> = [
  { path: '/admin/dashboard', heading: 'Dashboard' },
  { path: '/admin/locker-status', heading: 'Gestione Locker' },
  { path: '/admin/bookings', heading: 'Prenotazioni' },
  { path: '/admin/advanced', heading: 'Strumenti Avanzati' },
  { path: '/admin/incassi', heading: 'Incassi Mensili' },
  { path: '/admin/users/all', heading: 'Utenti' },
  { path: '/admin/locations', heading: 'Gestione Sedi' },
  { path: '/admin/discounts', heading: /Codici sconto/i },
  { path: '/admin/settings/prices', heading: /Impostazioni/ },
  { path: '/admin/settings/block-windows', heading: /Impostazioni|Parametri/ },
  { path: '/admin/logs', heading: /Log/ },
  { path: '/admin/logs/archive', heading: /Log|Archivio/ },
  { path: '/admin/logs/pm2', heading: /Log|Processo/ },
  { path: '/admin/non-esiste', heading: 'Pagina non trovata' },
];

for (const [device, viewport] of ADMIN_DEVICES) {
  test.describe(device, () => {
    let page: Page;
    let admin: AdminApp;

    test.beforeAll(async ({ browser }) => {
      // axe needs the page's own context (it injects its script into every frame of it).
      const context = await browser.newContext({ viewport, locale: 'it-IT', timezoneId: 'Europe/Rome' });
      page = await context.newPage();
      admin = new AdminApp(page);
    });
    test.afterAll(async () => {
      await page.context().close();
    });

    test('the login page', async () => {
      await admin.openLogin();
      await expectNoViolations(page, `${device} login`);
      await admin.login();
      await expect(page).toHaveURL(/\/admin\/dashboard$/);
    });

    test('every page of the admin area', async () => {
      // Fourteen pages, each loaded, settled and checked by axe: about 2 s each, more on a busy machine.
      test.setTimeout(150_000);
      for (const { path, heading } of PAGES) {
        await page.goto(path);
        await expect(admin.heading(heading), path).toBeVisible();
        await page.waitForLoadState('networkidle');
        await expect(page.locator('.adm-loading')).toHaveCount(0);
        await expectNoViolations(page, `${device} ${path}`);
      }
    });

    test('the side menu opened, and a booking with its details', async () => {
      await page.goto('/admin/bookings');
      await expect(admin.heading('Prenotazioni')).toBeVisible();
      await page.getByRole('button', { name: 'Dettagli' }).first().click();
      await expect(page.locator('.adm-details')).toBeVisible();
      await expectNoViolations(page, `${device} booking details`);
      const toggle = page.getByRole('button', { name: 'Menu' });
      if (await toggle.isVisible()) {
        await toggle.click();
        await expect(admin.menu()).toBeVisible();
        await expectNoViolations(page, `${device} menu drawer`);
      }
    });
  });
}
