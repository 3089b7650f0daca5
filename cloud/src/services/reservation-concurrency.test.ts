import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { inhibitMultiResponseSchema, localDateTime } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../clock';
import { startTestApp, type TestApp } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-store';

// Termini has 14 standard lockers of which at most 12 are sold online at once, and 6 large (at most 5).
const LOCATION = 'termini';
const REQUESTS = 200;

/** Tomorrow 10:00–13:00 in Rome, by the real clock (shared with the other process). */
function tomorrowWindow() {
  const tomorrow = DateTime.now().setZone('Europe/Rome').plus({ days: 1 }).toFormat('yyyy-MM-dd');
  const start = localDateTime(tomorrow, '10:00', 'Europe/Rome');
  return { startTimeIso: start.toUTC().toISO()!, endTimeIso: start.plus({ hours: 3 }).toUTC().toISO()! };
}

/**
 * Fires all requests at once, each holding `quantity` lockers of `size` at LOCATION for `window`,
 * spread round-robin over the servers; returns the answers.
 */
async function reserveAtOnce(
  urls: string[],
  size: 'standard' | 'large',
  quantity: number,
  window: { startTimeIso: string; endTimeIso: string },
) {
  const body = { locationKey: LOCATION, dimensione: size, quantita: quantity, ...window };
  return Promise.all(
    Array.from({ length: REQUESTS }, async (_, index) => {
      const response = await fetch(`${urls[index % urls.length]}/api/lockers/inhibit-multi`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as unknown };
    }),
  );
}

async function assertNoLockerHeldTwice(test: TestApp, window: { startTimeIso: string; endTimeIso: string }) {
  const now = new Date();
  const snapshot = await test.store.bookings.occupancy(
    LOCATION,
    new Date(window.startTimeIso),
    new Date(window.endTimeIso),
    now,
  );
  const lockerIds = snapshot.occupations.map((o) => o.lockerId);
  expect(new Set(lockerIds).size).toBe(lockerIds.length);
  return snapshot.occupations;
}

describe('simultaneous reservations', () => {
  it(`SQLite: of ${REQUESTS} simultaneous holds for one window, exactly the sellable lockers succeed`, async () => {
    const test = await startTestApp({ dialect: 'sqlite', clock: systemClock });
    try {
      const window = tomorrowWindow();
      const answers = await reserveAtOnce([test.url], 'standard', 1, window);
      const succeeded = answers.filter((a) => a.status === 200);
      expect(succeeded).toHaveLength(12);
      expect(answers.filter((a) => a.status === 409)).toHaveLength(REQUESTS - 12);
      const lockers = succeeded.flatMap((a) => inhibitMultiResponseSchema.parse(a.body).reservedLockers);
      expect(new Set(lockers).size).toBe(12);
      expect(await assertNoLockerHeldTwice(test, window)).toHaveLength(12);
    } finally {
      await test.close();
    }
  });

  describe('PostgreSQL: two cloud instances in this process and one in another process, one schema', () => {
    let database: TestDatabase;
    let first: TestApp;
    let second: TestApp;
    let child: ChildProcess;
    let childUrl: string;

    beforeAll(async () => {
      database = await createTestDatabase('postgres');
      first = await startTestApp({ database, clock: systemClock });
      second = await startTestApp({ database, clock: systemClock, seed: false });
      const entry = path.join(
        path.dirname(fileURLToPath(import.meta.url)),
        '../../test/cloud-instance.main.ts',
      );
      child = spawn(process.execPath, ['--import', 'tsx', entry], {
        env: {
          ...process.env,
          DATABASE_URL: database.target.dialect === 'postgres' ? database.target.connectionString : '',
          TEST_SCHEMA: database.schema,
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      const firstLine = await new Promise<string>((resolve, reject) => {
        const lines = createInterface({ input: child.stdout! });
        lines.once('line', resolve);
        child.once('exit', (code) => reject(new Error(`cloud instance exited with ${code}`)));
      });
      childUrl = (JSON.parse(firstLine) as { url: string }).url;
    });

    afterAll(async () => {
      if (child && child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await second?.close();
      await first?.close();
      await database?.dispose();
    });

    it(`of ${REQUESTS} simultaneous holds spread over three instances, exactly the sellable lockers succeed`, async () => {
      const window = tomorrowWindow();
      const answers = await reserveAtOnce([first.url, second.url, childUrl], 'standard', 1, window);
      const unexpected = answers.filter((a) => a.status !== 200 && a.status !== 409);
      expect(unexpected).toEqual([]);
      expect(answers.filter((a) => a.status === 200)).toHaveLength(12);
      expect(await assertNoLockerHeldTwice(first, window)).toHaveLength(12);
    });

    it('holds several lockers per request without ever exceeding the large lockers sold online', async () => {
      const window = tomorrowWindow();
      const answers = await reserveAtOnce([first.url, second.url, childUrl], 'large', 2, window);
      // 5 large lockers sellable at once, 2 per booking: two bookings fit, the fifth locker stays free.
      expect(answers.filter((a) => a.status === 200)).toHaveLength(2);
      const held = (await assertNoLockerHeldTwice(first, window)).filter((o) => o.size === 'large');
      expect(held).toHaveLength(4);
    });
  });
});
