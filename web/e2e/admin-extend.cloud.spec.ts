import { expect, test } from '@playwright/test';
import { AdminApp } from './pages/admin-app';
import { CloudControl } from './support/cloud-control';
import { mailsTo } from './support/outbox';

// An operator gives a visitor's stay more time without charge (issue 17, with issue 16's extension):
// from the booking's details in Prenotazioni, among the ends the server offers, with a reason that
// stays in the booking's history; the visitor is told by e-mail.

test("Prenotazioni: an operator extends a visitor's stay without charge, with a reason", async ({
  page,
  request,
}) => {
  const email = `admin-extend-${Date.now()}@example.com`;
  // A stay for the whole of today at oca (whatever the hour), extendable by days.
  const { transactionId } = await new CloudControl(request).paidStayToday('oca', email);
  const admin = new AdminApp(page);
  await admin.openLogin();
  await admin.login();
  await admin.goTo('Recenti', 'Prenotazioni');
  await page.getByRole('searchbox', { name: 'Cerca' }).fill(transactionId);
  await page.getByRole('button', { name: 'Cerca', exact: true }).click();
  await page
    .getByRole('row')
    .filter({ hasText: 'Giulia Rossi' })
    .getByRole('button', { name: 'Dettagli' })
    .click();

  await page.getByRole('button', { name: 'Prolunga senza addebito…' }).click();
  const extend = page.getByRole('group', { name: 'Prolunga' });
  const ends = extend.getByRole('combobox', { name: 'Fino a' });
  // Two more days: the second end offered.
  const secondOption = ends.locator('option').nth(1);
  const second = (await secondOption.getAttribute('value'))!;
  const secondText = (await secondOption.textContent())!.trim();
  await ends.selectOption(second);
  await expect(extend.getByRole('button', { name: 'Prolunga' })).toBeDisabled();
  await extend.getByRole('textbox', { name: 'Motivo' }).fill('Sportello bloccato ieri');
  await extend.getByRole('button', { name: 'Prolunga' }).click();
  await admin.confirm('Prolunga');
  await expect(
    admin.notice(`Prenotazione ${transactionId} prolungata fino al ${secondText} senza addebito`),
  ).toBeVisible();
  await expect(page.locator('.adm-history')).toContainText("prolungata dall'operatore senza addebito");
  await expect(page.locator('.adm-history')).toContainText('Sportello bloccato ieri');
  await admin.screenshot('admin-10c-bookings-extended');

  // The visitor hears of it.
  await expect
    .poll(async () => (await mailsTo(email)).some((mail) => /X-Deposito-Email: extension/i.test(mail)), {
      timeout: 20_000,
    })
    .toBe(true);
});
