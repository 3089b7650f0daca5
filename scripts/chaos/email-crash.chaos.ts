import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, kill9, scenarioDatabase, startCloud } from './cloud-process';
import { PAID_BOOKING_STATUSES } from '@deposito/protocol';
import { BOOKING_EMAIL_HEADER, BOOKING_EMAIL_KIND_HEADER } from '@deposito/cloud/mail/booking-email';
import { readOutbox } from '@deposito/cloud/mail/outbox';
import { openStore } from '@deposito/cloud/store/store';
import { STORE_DIALECTS } from '@deposito/cloud/test/test-store';
import { bookAndPay, futureHold, type VisitorFlow } from '@deposito/cloud/test/visitor-flow';

// Fault injection (issue 19, item 5): the cloud process is killed with SIGKILL in the middle of a
// burst of visitors paying, then started again on the same store. Every booking that ended up paid
// gets exactly one confirmation e-mail, whatever instant the crash hit (the e-mail is a row written
// with the payment, sent by a worker with retries), and every visitor told "paid" is paid.

const FLOWS = Number(process.env.CHAOS_FLOWS ?? 40);
const CONCURRENCY = 6;

const cleanups: Array<() => Promise<unknown> | unknown> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

describe.each(STORE_DIALECTS)('kill -9 of the cloud during paid flows, on %s', (dialect) => {
  it('loses no confirmation e-mail and sends none twice', async () => {
    const database = await scenarioDatabase(dialect);
    cleanups.push(() => database.dispose());
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const databaseUrl = database.url;
    const outbox = path.join(database.dir, 'outbox');
    const env = {
      PORT: String(port),
      PUBLIC_URL: url,
      DATABASE_URL: databaseUrl,
      DEMO: '1',
      PAYMENT_PROVIDER: 'sandbox',
      // The same secret after the restart, so payment pages opened before the crash still work.
      SANDBOX_PAYMENT_SECRET: 'chaos-sandbox-secret-0123456789abcdef',
      MAIL_OUTBOX_DIR: outbox,
      ADMIN_EMAIL: 'ops@deposito.test',
      ADMIN_PASSWORD: 'chaos-admin-password',
    };

    let cloud = await startCloud(env);
    cleanups.push(() => kill9(cloud));
    const flows: VisitorFlow[] = [];
    let next = 0;
    let crashed = false;
    // New visitors arrive while the cloud is up; the ones mid-flow at the crash are cut off.
    let up: Promise<unknown> = Promise.resolve();
    const crashAfter = 8 + Math.floor(Math.random() * 8);
    const visitor = async () => {
      while (next < FLOWS) {
        await up;
        const n = next++;
        const flow = await bookAndPay(url, futureHold(n));
        flows.push(flow);
        if (!crashed && flows.length >= crashAfter) {
          // The crash, while the other visitors are mid-flow; the cloud comes back a moment later.
          crashed = true;
          up = kill9(cloud).then(async () => (cloud = await startCloud(env)));
        }
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, visitor));
    expect(crashed).toBe(true);

    // Some visitors were cut off by the crash; the rest went through before or after it.
    const store = await openStore(database.target);
    cleanups.push(() => store.close());
    const paidIds: string[] = [];
    for (const flow of flows) {
      if (!flow.transactionId) continue;
      const booking = await store.bookings.get(flow.transactionId);
      const paid = booking !== null && (PAID_BOOKING_STATUSES as readonly string[]).includes(booking.status);
      // Told "paid" means paid.
      if (flow.paid) expect(paid, `${flow.transactionId} was shown as paid`).toBe(true);
      if (paid) paidIds.push(flow.transactionId);
    }
    expect(paidIds.length, flows.map((flow) => flow.error ?? 'paid').join('\n')).toBeGreaterThan(FLOWS / 2);

    // Every paid booking gets exactly one confirmation, once the worker has caught up.
    const confirmations = async () => {
      const mails = await readOutbox(outbox);
      const counts = new Map<string, number>();
      for (const mail of mails) {
        // A paid booking's e-mail: its PIN (today), or when the PIN comes (a later day).
        const kind = mail.headers[BOOKING_EMAIL_KIND_HEADER.toLowerCase()];
        if (kind !== 'confirmation' && kind !== 'scheduled') continue;
        const id = mail.headers[BOOKING_EMAIL_HEADER.toLowerCase()] ?? '';
        counts.set(id, (counts.get(id) ?? 0) + 1);
      }
      return counts;
    };
    await expect
      .poll(
        async () => {
          const counts = await confirmations();
          return paidIds.filter((id) => !counts.has(id));
        },
        { timeout: 60_000 },
      )
      .toEqual([]);
    const counts = await confirmations();
    expect(paidIds.filter((id) => counts.get(id) !== 1)).toEqual([]);
    // And nothing for a booking that was not paid.
    expect([...counts.keys()].filter((id) => !paidIds.includes(id))).toEqual([]);
  }, 180_000);
});
