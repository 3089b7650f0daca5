import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';

const localesDir = fileURLToPath(new URL('../../../locales', import.meta.url));

/** Translation files straight from the repository, for runs where no server serves /locales. */
export async function serveLocalesFromRepository(page: Page): Promise<void> {
  await page.route('**/locales/*/common.json', async (route) => {
    const lng = new URL(route.request().url()).pathname.split('/')[2]!;
    await route.fulfill({
      contentType: 'application/json',
      body: readFileSync(`${localesDir}/${lng}/common.json`),
    });
  });
}
