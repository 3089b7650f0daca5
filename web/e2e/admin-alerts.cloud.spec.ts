import { expect, test } from '@playwright/test';
import { AdminApp } from './pages/admin-app';
import { CloudControl, E2E_ADMIN } from './support/cloud-control';
import { mailsTo } from './support/outbox';

// Alerts (issue 17) as an operator meets them: a site whose bridge is not connected (no bridge runs
// beside the test cloud) raises "bridge offline" once the operators' threshold has passed; the
// administrators get it by e-mail, see it on the dashboard and take note of it there.

test('a bridge offline past the threshold is e-mailed to the operators and acknowledged on the dashboard', async ({
  page,
  request,
}) => {
  // Waits for the threshold's minute to pass since the sites' tokens were issued.
  test.setTimeout(180_000);
  const cloud = new CloudControl(request);
  await cloud.updateSettings({ ALERT_BRIDGE_OFFLINE_MINUTES: 1 });
  try {
    const admin = new AdminApp(page);
    await admin.openLogin();
    await admin.login();
    await expect(page).toHaveURL(/\/admin\/dashboard$/);
    const alerts = page.getByRole('region', { name: /^Allarmi/ });
    // The dashboard asks for the alerts (the server looks again first); reloaded until it shows one.
    const offline = alerts
      .locator('li')
      .filter({ hasText: /Il bridge di Deposito Magna .* (offline|collegato)/ });
    await expect
      .poll(
        async () => {
          await page.reload();
          await expect(alerts).toBeVisible();
          return offline.count();
        },
        { timeout: 120_000, intervals: [5_000] },
      )
      .toBeGreaterThan(0);
    await expect(offline.first()).toContainText('In corso');
    await expect(offline.first()).toContainText('sede magna');

    // The administrators' e-mail names it.
    await expect
      .poll(
        async () =>
          (await mailsTo(E2E_ADMIN.email)).some(
            (mail) => /X-Deposito-Alerts:/i.test(mail) && /Il bridge di Deposito Magna/.test(mail),
          ),
        { timeout: 20_000 },
      )
      .toBe(true);

    await admin.screenshot('admin-alerts');
    await offline.first().getByRole('button', { name: 'Presa visione' }).click();
    await expect(offline.first()).toContainText(`visto da ${E2E_ADMIN.email}`);
    await expect(offline.first().getByRole('button', { name: 'Presa visione' })).toHaveCount(0);
  } finally {
    await cloud.updateSettings({ ALERT_BRIDGE_OFFLINE_MINUTES: 5 });
  }
});
