import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { bookingRoutes, normaliseTakingsData, takingsRoutes } from '@deposito/protocol';
import { afterAll, describe, expect, it } from 'vitest';
import { startPaymentTestApp, type PaymentTestApp } from '../../test/payment-test-app';
import { payOnSandbox } from '../../test/sandbox-card';
import { createPostgresDatabase, createTestDatabase } from '../../test/test-store';
import { openStore } from './store';
import { TEST_PAYER as PAYER } from '../../test/builders';

// The restore drill (issue 20): a backup taken with scripts/backup while visitors keep booking and
// paying, restored with scripts/restore into a fresh database, and a cloud started on the copy
// finds every booking paid before the backup began, with its PIN, and takings that agree with the
// bookings it holds. Clock: Friday 27 March 2026, 09:00 in Rome (the payment test app's).

const run = promisify(execFile);
const SCRIPTS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../scripts');
const TODAY = { startTimeIso: '2026-03-27T11:00:00.000Z', endTimeIso: '2026-03-27T14:00:00.000Z' };
/** Every locker sold online today in the Rome sites, one booking each. */
const SLOTS = [
  ...Array.from({ length: 8 }, () => ['oca', 'standard'] as const),
  ...Array.from({ length: 3 }, () => ['oca', 'large'] as const),
  ...Array.from({ length: 10 }, () => ['vicolo', 'standard'] as const),
  ...Array.from({ length: 5 }, () => ['vicolo', 'large'] as const),
  ...Array.from({ length: 12 }, () => ['termini', 'standard'] as const),
  ...Array.from({ length: 5 }, () => ['termini', 'large'] as const),
];

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function json<T>(url: string, init?: RequestInit): Promise<{ status: number; body: T; text: string }> {
  const response = await fetch(url, init);
  const text = await response.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // An HTML page.
  }
  return { status: response.status, body: body as T, text };
}

/** A visitor's whole flow: hold, payment page, card on the sandbox page. The paid booking's id. */
async function bookAndPay(
  app: PaymentTestApp,
  [locationKey, size]: readonly [string, string],
): Promise<string> {
  const held = await json<{ transactionId: string }>(`${app.url}/api/lockers/inhibit-multi`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ locationKey, dimensione: size, quantita: 1, ...TODAY }),
  });
  expect(held.status, held.text).toBe(200);
  const transactionId = held.body.transactionId;
  const created = await json(`${app.url}/api/payments/create-payment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...PAYER, transactionId }),
  });
  expect(created.status, created.text).toBe(200);
  const paid = await payOnSandbox(created.text);
  expect(paid.status).toBe(303);
  return transactionId;
}

async function onlineTakingsCents(app: PaymentTestApp): Promise<number> {
  const answer = await json<{ data: unknown }>(
    `${app.url}${takingsRoutes.monthly.path}?month=2026-03&location=all&reload=1`,
    { headers: { authorization: `Bearer ${await app.adminToken()}` } },
  );
  expect(answer.status, answer.text).toBe(200);
  const days = Object.values(normaliseTakingsData(answer.body.data)).flatMap((byDay) => Object.values(byDay));
  return days.reduce((sum, day) => sum + day.onlineCents, 0);
}

function script(name: 'backup' | 'restore', args: string[]) {
  return run(path.join(SCRIPTS, name), args, { env: { ...process.env, DATABASE_URL: '' } });
}

describe('backup and restore', () => {
  it('on PostgreSQL: backs up under load, restores into a fresh database, and the cloud finds every paid booking, PIN and takings total', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deposito-drill-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const source = await createPostgresDatabase();
    cleanups.push(() => source.dispose());
    const fresh = await createPostgresDatabase();
    cleanups.push(() => fresh.dispose());
    const app = await startPaymentTestApp({ database: source });
    cleanups.push(() => app.close());

    const slots = [...SLOTS];
    const paidBefore: string[] = [];
    for (let i = 0; i < 8; i++) paidBefore.push(await bookAndPay(app, slots.shift()!));

    // Visitors keep booking and paying while the backup runs.
    let backupDone = false;
    const paidDuring: string[] = [];
    const load = (async () => {
      while (!backupDone && slots.length > 0) paidDuring.push(await bookAndPay(app, slots.shift()!));
    })();
    const file = path.join(dir, 'deposito.backup');
    const backedUp = await script('backup', [
      '--database-url',
      source.connectionString,
      '--out',
      file,
    ]).finally(() => (backupDone = true));
    await load;
    expect(backedUp.stdout).toMatch(/✓ postgres store saved to .*deposito\.backup/);

    // A restore refuses a database that is not empty, and changes nothing there.
    const refused = await script('restore', [
      '--from',
      file,
      '--database-url',
      source.connectionString,
    ]).catch((error: { code: number; stderr: string }) => error);
    expect(refused).toMatchObject({ code: 1, stderr: expect.stringContaining('already has') });

    const restoredRun = await script('restore', ['--from', file, '--database-url', fresh.connectionString]);
    expect(restoredRun.stdout).toMatch(/✓ postgres store restored/);
    const restored = await startPaymentTestApp({ database: fresh, seed: false });
    cleanups.push(() => restored.close());

    // Every booking paid before the backup began is there, paid, with its PIN, and reads back.
    for (const id of paidBefore) {
      const original = await app.store.bookings.get(id);
      const copy = await restored.store.bookings.get(id);
      expect(copy).toMatchObject({
        status: 'confirmed',
        pin: original!.pin,
        totalCents: original!.totalCents,
      });
      expect(copy!.pin).toMatch(/^\d+$/);
      const readBack = bookingRoutes.readBack.response.parse(
        (await json(`${restored.url}/api/bookings/${id}`)).body,
      );
      expect(readBack).toMatchObject({ pin: original!.pin });
    }
    // Bookings paid during the backup are in the copy whole or not at all.
    let missingCents = 0;
    for (const id of paidDuring) {
      const original = (await app.store.bookings.get(id))!;
      const copy = await restored.store.bookings.get(id);
      if (copy?.status === 'confirmed')
        expect(copy).toMatchObject({ pin: original.pin, totalCents: original.totalCents });
      // Takings count the discounted price (fee aside), as the spec has it.
      else missingCents += original.priceDiscountedCents;
    }
    // The load really overlapped the backup: some bookings paid while it ran.
    expect(paidDuring.length).toBeGreaterThan(0);
    // Takings of the copy: the source's, less what was paid after the snapshot.
    const sourceTakings = await onlineTakingsCents(app);
    expect(sourceTakings).toBeGreaterThan(0);
    expect(await onlineTakingsCents(restored)).toBe(sourceTakings - missingCents);
  }, 120_000);

  it('on SQLite: copies the database while it is in use, and restores only over a stopped one when asked', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'deposito-drill-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    const database = await createTestDatabase('sqlite');
    cleanups.push(() => database.dispose());
    const app = await startPaymentTestApp({ database });
    const paid = [await bookAndPay(app, SLOTS[0]!), await bookAndPay(app, SLOTS[20]!)];
    const filename = database.target.dialect === 'sqlite' ? database.target.filename : '';
    const file = path.join(dir, 'deposito.backup');

    const backedUp = await script('backup', ['--database-url', `sqlite:${filename}`, '--out', file]);
    expect(backedUp.stdout).toMatch(/✓ sqlite store saved .*2 paid bookings/);
    const pins = await Promise.all(paid.map(async (id) => (await app.store.bookings.get(id))!.pin));
    await app.close();

    const target = path.join(dir, 'restored.db');
    await script('restore', ['--from', file, '--database-url', `sqlite:${target}`]);
    const again = await script('restore', ['--from', file, '--database-url', `sqlite:${target}`]).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(again).toMatchObject({ code: 1, stderr: expect.stringContaining('--replace') });
    await script('restore', ['--from', file, '--database-url', `sqlite:${target}`, '--replace']);

    const restored = await startPaymentTestApp({
      database: {
        target: { dialect: 'sqlite', filename: target },
        open: () => openStore({ dialect: 'sqlite', filename: target }),
        dispose: async () => undefined,
      },
      seed: false,
    });
    cleanups.push(() => restored.close());
    for (const [i, id] of paid.entries()) {
      expect(await restored.store.bookings.get(id)).toMatchObject({ status: 'confirmed', pin: pins[i] });
    }
  }, 60_000);
});
