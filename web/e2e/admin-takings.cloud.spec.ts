import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { inflateSync } from 'node:zlib';
import { expect, test, type Page } from '@playwright/test';
import { DateTime } from 'luxon';

// Incassi Mensili against the real cloud (demo data, the administrator from playwright.config.ts).
// The demo locations' kiosk (Promotec) systems answer at 127.0.0.1 from E2E_SITE_PORT, one port each
// in seed order (playwright.config.ts picks free ones and seeds the cloud with them): this file starts
// a simulator on every one of those ports except Magna's, whose kiosk stays down, so the page must
// still show Magna's online figures and the cloud must log the failure.

test.describe.configure({ mode: 'serial' });

const ADMIN = { email: 'e2e-admin@deposito.test', password: 'e2e-admin-password' };
const SITE_PORT = Number(process.env.E2E_SITE_PORT ?? 11000);
const KIOSKS = [
  { key: 'oca', port: SITE_PORT, zone: 'Europe/Rome' },
  { key: 'vicolo', port: SITE_PORT + 1, zone: 'Europe/Rome' },
  { key: 'termini', port: SITE_PORT + 2, zone: 'Europe/Rome' },
  { key: 'areadebug', port: SITE_PORT + 3, zone: 'Europe/Rome' },
  { key: 'campo', port: SITE_PORT + 4, zone: 'Europe/London' },
];
const DOWN = { key: 'magna', port: SITE_PORT + 5, name: 'Deposito Magna – San Giovanni' };
const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

let page: Page;
const simulators: ChildProcess[] = [];
// Also when the worker is torn down without running afterAll (a timed-out test).
process.once('exit', () => {
  for (const child of simulators) child.kill('SIGTERM');
});
const month = DateTime.now().setZone('Europe/Rome').toFormat('yyyy-MM');

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** One simulated kiosk system as its own process (cloud/src/takings/promotec-simulator.main.ts). */
function startKiosk(kiosk: (typeof KIOSKS)[number]): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'cloud/src/takings/promotec-simulator.main.ts',
      '--location',
      kiosk.key,
      '--zone',
      kiosk.zone,
      '--port',
      String(kiosk.port),
    ],
    { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`kiosk ${kiosk.key} did not start: ${output}`)), 20_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Promotec simulator for')) {
        clearTimeout(timer);
        resolve(child);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', read);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`kiosk ${kiosk.key} exited with ${code}: ${output}`));
    });
  });
}

/** Every content stream of a PDF, inflated when compressed, as text. */
function pdfContentText(bytes: Buffer): string {
  const text: string[] = [];
  const source = bytes.toString('latin1');
  const streams = /<<([^]*?)>>\s*stream\r?\n/g;
  for (let match = streams.exec(source); match; match = streams.exec(source)) {
    const start = match.index + match[0].length;
    const end = source.indexOf('endstream', start);
    const raw = bytes.subarray(start, end);
    text.push(/\/FlateDecode/.test(match[1]) ? inflateSync(raw).toString('latin1') : raw.toString('latin1'));
  }
  return text.join('\n');
}

async function euros(label: string): Promise<string> {
  return (await page.locator('.adm-tk-card', { hasText: label }).locator('.adm-tk-card-value').innerText())
    .replace(/\u00a0/g, ' ')
    .trim();
}

test.beforeAll(async ({ browser }) => {
  expect(
    await listening(DOWN.port),
    `port ${DOWN.port} must be free: Magna's kiosk is meant to be down`,
  ).toBe(false);
  for (const kiosk of KIOSKS) {
    // Something already answering there (a demo's own kiosks) serves the page just as well.
    if (!(await listening(kiosk.port))) simulators.push(await startKiosk(kiosk));
  }
  page = await browser.newPage({
    viewport: { width: 1366, height: 900 },
    locale: 'it-IT',
    timezoneId: 'Europe/Rome',
  });
});

test.afterAll(async () => {
  await page?.close();
  for (const child of simulators) child.kill('SIGTERM');
});

test('logs in and opens Incassi Mensili from the menu', async () => {
  await page.goto('/admin/login');
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Accedi' }).click();
  await expect(page).toHaveURL(/\/admin\/dashboard$/);
  await page.getByRole('link', { name: 'Incassi' }).click();
  await expect(page).toHaveURL(/\/admin\/incassi$/);
  await expect(page.getByRole('heading', { name: 'Incassi Mensili' })).toBeVisible();
  await expect(page.getByLabel('Mese')).toHaveValue(month);
  await expect(page.getByText('Seleziona una Location')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Esporta PDF' })).toBeDisabled();
});

test('shows every location: cards, accordion, and Magna online though its kiosk is down', async () => {
  await page.getByLabel('Location', { exact: true }).selectOption('all');
  await expect(page.getByText('Totale Generale', { exact: true })).toBeVisible({ timeout: 30_000 });
  // The demo's paid bookings were made today; the running kiosks took money this month.
  expect(await euros('Incassi Online')).not.toBe('0,00 €');
  expect(await euros('Incassi Totem')).not.toBe('0,00 €');
  await expect(page.locator('.adm-tk-card', { hasText: 'Location Attive' })).toBeVisible();
  const rows = page.locator('.adm-tk-location-head');
  await expect(rows).toHaveCount(KIOSKS.length + 1);
  await expect(page.getByText('TOTALE GENERALE (incompleto)', { exact: true })).toBeVisible();

  const magna = page.getByRole('button', { name: new RegExp(DOWN.name) });
  await expect(magna).toBeVisible();
  // Magna's kiosk is down: said before any figure, never a quietly lower total.
  const warning = page.getByRole('alert').filter({ hasText: 'Totale incompleto' });
  await expect(warning).toContainText(`Dati totem non disponibili per ${DOWN.name}: totale incompleto`);
  await expect(warning).toContainText(`127.0.0.1:${DOWN.port} non raggiungibile`);
  for (const label of ['Incassi Totem', 'Totale Generale']) {
    await expect(page.locator('.adm-tk-card', { hasText: label })).toContainText('incompleto');
  }
  await expect(magna).toContainText('Totem non disponibile');
  await page.screenshot({ path: `${SCREENSHOTS}takings-04-kiosk-missing.png`, fullPage: false });
  // The page's request context carries the session cookie.
  const log = await page.request.get('/api/admin/logs/recent');
  expect(log.ok()).toBe(true);
  const entries = JSON.stringify(await log.json());
  expect(entries).toContain('Impossibile contattare il sistema Promotec: ');
  expect(entries).toContain(`127.0.0.1:${DOWN.port} non raggiungibile`);

  for (const name of ['Deposito Oca', 'Deposito Campo']) {
    await page.getByRole('button', { name: new RegExp(name) }).click();
    await expect(
      page.getByRole('list', { name: new RegExp(`Incassi giornalieri di ${name}`) }),
    ).toBeVisible();
  }
  // Both stay open: rows expand independently.
  await expect(page.locator('.adm-tk-location-open')).toHaveCount(2);
  await expect(page.getByRole('group', { name: /Incassi giornalieri — Tutte le location/ })).toBeVisible();
  await page.screenshot({ path: `${SCREENSHOTS}takings-01-all-locations.png`, fullPage: true });
});

test('exports the month as incassi_yyyy_MM.pdf with the report title', async () => {
  const testInfo = test.info();
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Esporta PDF' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`incassi_${month.replace('-', '_')}.pdf`);
  const file = testInfo.outputPath(download.suggestedFilename());
  await download.saveAs(file);
  const bytes = readFileSync(file);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const pages = bytes.toString('latin1').match(/\/Type\s*\/Page(?!s)/g) ?? [];
  expect(pages.length).toBeGreaterThanOrEqual(1);
  const text = pdfContentText(bytes);
  const monthName = DateTime.fromFormat(month, 'yyyy-MM').setLocale('it').toFormat('LLLL yyyy').toUpperCase();
  expect(text).toContain(`REPORT INCASSI ${monthName}`);
  expect(text).toContain('ATTENZIONE: TOTALE INCOMPLETO');
  expect(text).toContain('Dati totem non disponibili per Deposito Magna');
  expect(text).toContain(`Pagina 1 di ${pages.length}`);
  expect(text).toContain('Deposito S.r.l.');
});

test('exports the month as CSV: a line per location and day, then the totals', async () => {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Esporta CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(`incassi-${month}.csv`);
  const lines = readFileSync((await download.path())!, 'utf8')
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');
  expect(lines[0]).toBe(
    'Location;Giorno;Giorno della settimana;Online (€);Totem (€);Totale (€);Rimborsi, già sottratti (€)',
  );
  expect(
    lines.some((line) =>
      /^Deposito Oca[^;]*;\d{2}\/\d{2}\/\d{4};[^;]+;-?\d+,\d{2};\d+,\d{2};-?\d+,\d{2};\d+,\d{2}$/.test(line),
    ),
  ).toBe(true);
  expect(
    lines.some((line) => new RegExp(`^Deposito Magna[^;]*;Totale ${month};totem non letti`).test(line)),
  ).toBe(true);
  expect(lines.at(-1)).toMatch(new RegExp(`^Tutte le location;Totale ${month};totem non letti: incompleto;`));
});

test('shows one location with its chart and daily list', async () => {
  await page.getByLabel('Location', { exact: true }).selectOption('oca');
  await expect(page.getByText('Totale Sede', { exact: true })).toBeVisible({ timeout: 30_000 });
  await expect(page.locator('.adm-tk-card', { hasText: 'Location Attive' })).toHaveCount(0);
  // Oca's kiosk answers: nothing is missing there.
  await expect(page.locator('.adm-tk-warning')).toHaveCount(0);
  const list = page.getByRole('list', { name: /Incassi giornalieri di Deposito Oca/ });
  await expect(list).toBeVisible();
  const firstDay = await list.locator('.adm-tk-date').first().innerText();
  await page.getByLabel('Ordina per').selectOption('date-asc');
  expect(await list.locator('.adm-tk-date').first().innerText()).not.toBe(firstDay);
  await page.getByLabel('Ordina per').selectOption('date-desc');
  const bars = page.getByRole('group', { name: /Incassi giornalieri — Deposito Oca/ }).getByRole('img');
  await bars.nth(2).focus();
  await expect(page.locator('.adm-tk-tooltip')).toContainText('Totale');
  await page.screenshot({ path: `${SCREENSHOTS}takings-02-one-location.png`, fullPage: true });
});

test('tests every kiosk connection in turn and exports the result', async () => {
  const testInfo = test.info();
  await page.getByRole('button', { name: 'Test Connessioni' }).click();
  await expect(page.getByRole('button', { name: 'Nascondi Test' })).toBeVisible();
  const magna = page.getByTestId(`connection-${DOWN.key}`);
  await expect(magna).toContainText('Errore', { timeout: 60_000 });
  await expect(magna).toContainText(`127.0.0.1:${DOWN.port} non raggiungibile`);
  for (const kiosk of KIOSKS)
    await expect(page.getByTestId(`connection-${kiosk.key}`)).toContainText('Connesso');
  await expect(page.getByText(`${KIOSKS.length} di ${KIOSKS.length + 1} location connesse.`)).toBeVisible();
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOTS}takings-03-connection-test.png`, fullPage: false });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Esporta PDF test' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('test_connessioni_promotec.pdf');
  const file = testInfo.outputPath('test_connessioni_promotec.pdf');
  await download.saveAs(file);
  expect(pdfContentText(readFileSync(file))).toContain('TEST CONNESSIONI PROMOTEC');

  await page.getByRole('button', { name: 'Nascondi Test' }).click();
  await expect(page.getByTestId(`connection-${DOWN.key}`)).toHaveCount(0);
});
