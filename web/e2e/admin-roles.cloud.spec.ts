import { expect, test, type Browser, type Page } from '@playwright/test';
import { AdminApp } from './pages/admin-app';

// Roles (issue 17), as the people given them meet them on a 390 px phone and on a desktop: an
// administrator adds a technician for one site and a site operator for another in Utenti; each of
// them sees only what the role reaches, and the server refuses the rest with 403.

test.describe.configure({ mode: 'serial' });

const stamp = Date.now().toString(36);
const TECHNICIAN = { email: `tech-${stamp}@deposito.test`, password: 'a technician passphrase' };
const OPERATOR = { email: `ops-${stamp}@deposito.test`, password: 'a site operator passphrase' };

async function signIn(
  browser: Browser,
  who: { email: string; password: string },
  width: number,
): Promise<Page> {
  const page = await browser.newPage({ viewport: { width, height: 844 }, locale: 'it-IT' });
  const admin = new AdminApp(page);
  await admin.openLogin();
  await admin.login(who.email, who.password);
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  return page;
}

/** The menu links the page shows, groups opened. */
async function menuLinks(page: Page): Promise<string[]> {
  const menu = page.getByRole('navigation', { name: 'Menu amministrazione' });
  // One at a time: each click changes which groups are still closed.
  const closed = menu.locator('button.adm-menu-group[aria-expanded="false"]');
  while ((await closed.count()) > 0) await closed.first().click();
  return menu.getByRole('link').allTextContents();
}

test('an administrator adds a technician and a site operator, each limited to its sites', async ({
  browser,
}) => {
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, locale: 'it-IT' });
  const admin = new AdminApp(page);
  await admin.openLogin();
  await admin.login();
  await admin.goTo('Tutti gli utenti', 'Utenti');
  for (const [who, role, site] of [
    [TECHNICIAN, 'technician', 'Deposito Oca'],
    [OPERATOR, 'site_operator', 'Deposito Vicolo'],
  ] as const) {
    await page.getByLabel('Email').fill(who.email);
    await page.getByLabel('Password').fill(who.password);
    await page.getByLabel('Ruolo').selectOption(role);
    await page.getByRole('checkbox', { name: new RegExp(`^${site}`) }).check();
    await page.getByRole('button', { name: 'Aggiungi', exact: true }).click();
    await expect(admin.notice(who.email)).toBeVisible();
  }
  await expect(page.getByRole('row').filter({ hasText: TECHNICIAN.email })).toContainText('Tecnico');
  await admin.screenshot('admin-roles-users');
  await page.close();
});

test('a technician sees only Gestione Locker for its site, and the server refuses the bookings', async ({
  browser,
}) => {
  const page = await signIn(browser, TECHNICIAN, 390);
  await page.getByRole('button', { name: /menu/i }).first().click();
  expect(await menuLinks(page)).toEqual(['Gestione Locker']);
  await page
    .getByRole('navigation', { name: 'Menu amministrazione' })
    .getByRole('link', { name: 'Gestione Locker' })
    .click();
  const sites = page.getByRole('combobox', { name: 'Location' }).locator('option');
  await expect(sites.filter({ hasText: /Deposito Oca/ })).toHaveCount(1);
  await expect(sites.filter({ hasText: /Deposito Vicolo/ })).toHaveCount(0);
  expect((await page.request.get('/api/admin/bookings/recent')).status()).toBe(403);
  expect((await page.request.get('/api/lockers/full-state?location=vicolo')).status()).toBe(403);
  expect((await page.request.get('/api/lockers/full-state?location=oca')).status()).toBe(200);
  await new AdminApp(page).screenshot('admin-roles-technician');
  await page.close();
});

test('a site operator has no accounts or system parameters, and no other site', async ({ browser }) => {
  const page = await signIn(browser, OPERATOR, 1280);
  const links = await menuLinks(page);
  expect(links).toContain('Recenti');
  for (const hidden of ['Tutti gli utenti', 'Parametri di sistema', 'Codici sconto', 'Processo']) {
    expect(links).not.toContain(hidden);
  }
  expect((await page.request.get('/api/admin/users')).status()).toBe(403);
  expect((await page.request.get('/api/lockers/full-state?location=oca')).status()).toBe(403);
  await page.goto('/admin/bookings');
  await expect(
    page
      .getByLabel('Sede')
      .locator('option')
      .filter({ hasText: /Deposito Oca/ }),
  ).toHaveCount(0);
  await page.close();
});
