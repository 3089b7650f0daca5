import { expect, type Locator, type Page } from '@playwright/test';

/** The administrator the cloud project's server is started with (playwright.config.ts). */
export const E2E_ADMIN = { email: 'e2e-admin@deposito.test', password: 'e2e-admin-password' };

/** The two screens the admin specs check every page at: a desktop and a 390 px phone. */
export const ADMIN_DEVICES = [
  ['desktop', { width: 1280, height: 800 }],
  ['phone', { width: 390, height: 844 }],
] as const;

const SCREENSHOT_DIR = new URL('../screenshots/', import.meta.url).pathname;

/** The admin area as an operator uses it: login, the side menu, messages, screenshots. */
export class AdminApp {
  constructor(readonly page: Page) {}

  async openLogin(): Promise<void> {
    await this.page.goto('/admin/login');
    await expect(this.page.getByRole('heading', { name: 'Login Admin' })).toBeVisible();
  }

  async login(email = E2E_ADMIN.email, password = E2E_ADMIN.password): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByLabel('Password').fill(password);
    await this.page.getByRole('button', { name: 'Accedi' }).click();
  }

  menu(): Locator {
    return this.page.getByRole('navigation', { name: 'Menu amministrazione' });
  }

  /** Follows a menu entry, opening its group first when it is inside one. */
  async goTo(label: string, group?: string): Promise<void> {
    const toggle = this.page.getByRole('button', { name: 'Menu' });
    if (await toggle.isVisible()) await toggle.click();
    if (group) {
      const groupButton = this.menu().getByRole('button', { name: group });
      if ((await groupButton.getAttribute('aria-expanded')) !== 'true') await groupButton.click();
    }
    await this.menu().getByRole('link', { name: label, exact: true }).click();
  }

  heading(name: string | RegExp): Locator {
    return this.page.getByRole('heading', { name, level: 1 });
  }

  /** The page's success or error notice containing `text`. */
  notice(text: string | RegExp): Locator {
    return this.page.locator('.adm-notice').filter({ hasText: text });
  }

  /** Confirms the question the page asks in its dialog, with its button `label`. */
  async confirm(label: string): Promise<void> {
    const dialog = this.page.getByRole('dialog');
    await dialog.getByRole('button', { name: label, exact: true }).click();
    await expect(dialog).toBeHidden();
  }

  async screenshot(name: string): Promise<void> {
    await this.page.waitForLoadState('networkidle');
    // Full-page shots of a scrolled page draw the sticky header and menu mid-page.
    await this.page.evaluate(() => window.scrollTo(0, 0));
    await this.page.screenshot({ path: `${SCREENSHOT_DIR}${name}.png`, fullPage: true });
  }
}
