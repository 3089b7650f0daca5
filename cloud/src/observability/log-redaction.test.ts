import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_SANDBOX } from '../../test/payment-test-app';
import { testEnv, LIMITS_OFF } from '../../test/test-app';
import { createTestDatabase, type TestDatabase } from '../../test/test-store';
import { futureHold } from '../../test/visitor-flow';
import { TEST_PAYER } from '../../test/builders';
import { payOnSandbox } from '../../test/sandbox-card';
import { createApp, type CloudApp } from '../app';
import { systemClock } from '../clock';
import { seedLocationsAndDiscounts } from '../services/demo-seed.service';
import type { Store } from '../store/store';
import { logRedaction, shortBookingId } from './log-redaction';

// The process log is read by whoever runs the servers and shown in the admin area: a booking id in
// it would open the booking and its PIN. A paid booking, walked as a visitor over HTTP, leaves
// lines that name it only by its first characters.

describe('the process log of a paid booking', () => {
  let database: TestDatabase;
  let store: Store;
  let cloud: CloudApp;
  let url = '';
  let outboxDir = '';
  const lines: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await database.open();
    await seedLocationsAndDiscounts({ store, clock: systemClock });
    outboxDir = await mkdtemp(path.join(tmpdir(), 'deposito-log-redaction-'));
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split('\n').filter(Boolean));
        done();
      },
    });
    cloud = createApp({
      env: testEnv(LIMITS_OFF),
      store,
      clock: systemClock,
      logger: pino({ level: 'info', redact: logRedaction }, sink),
      payment: TEST_SANDBOX,
      mail: {
        from: 'Deposito <no-reply@deposito.test>',
        transport: { kind: 'outbox', directory: outboxDir },
      },
      publicUrl: () => url,
    });
    ({ url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false }));
  });

  afterAll(async () => {
    await cloud?.stop();
    await database?.dispose();
    if (outboxDir) await rm(outboxDir, { recursive: true, force: true });
  });

  it('names the booking by a short prefix in every line, never by its whole id, and shows no PIN', async () => {
    const held = await fetch(`${url}/api/lockers/inhibit-multi`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(futureHold(0)),
    });
    expect(held.status).toBe(200);
    const { transactionId } = (await held.json()) as { transactionId: string };
    const created = await fetch(`${url}/api/payments/create-payment`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...TEST_PAYER, transactionId }),
    });
    expect(created.status).toBe(200);
    const paid = await payOnSandbox(await created.text());
    expect(paid.status).toBe(303);
    // The visitor's return also reads the result ("payment result", via: return).
    const back = paid.back!;
    const decrypted = await fetch(`${url}/api/payments/decrypt`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ a: back.searchParams.get('a'), b: back.searchParams.get('b') }),
    });
    expect(decrypted.status).toBe(200);
    await cloud.context.services.emails.deliver(transactionId);
    const booking = await store.bookings.get(transactionId);
    expect(booking?.status).toMatch(/^confirmed|scheduled/);

    const aboutIt = lines.filter((line) => line.includes(shortBookingId(transactionId)));
    const messages = aboutIt.map((line) => (JSON.parse(line) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining(['payment result', 'booking paid']));
    const whole = lines.filter((line) => line.includes(transactionId));
    expect(whole).toEqual([]);
    if (booking?.pin) expect(lines.filter((line) => line.includes(`"${booking.pin}"`))).toEqual([]);
  });
});

describe('logRedaction', () => {
  const logged = (fields: Record<string, unknown>) => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString());
        done();
      },
    });
    pino({ redact: logRedaction }, sink).info(fields, 'line');
    return JSON.parse(lines[0]) as Record<string, unknown>;
  };

  it('shortens booking ids at the top of a line, one level down, in lists and inside command ids', () => {
    const id = 'BOOKING-abcdefghijklmnopqrstuv';
    const line = logged({
      transactionId: id,
      booking: { transactionId: id },
      transactionIds: [id, id],
      commandId: `book.${id}.14`,
    });
    expect(line.transactionId).toBe('BOOKING-abcdef…');
    // A bridge command's id embeds its booking's.
    expect(line.commandId).toBe('book.BOOKING-abcdef….14');
    expect(line.booking).toEqual({ transactionId: 'BOOKING-abcdef…' });
    expect(line.transactionIds).toEqual(['BOOKING-abcdef…', 'BOOKING-abcdef…']);
  });

  it('hides PINs, tokens, passwords and credentials', () => {
    const line = logged({
      pin: '123456',
      command: { pin: '654321' },
      token: 'secret',
      password: 'hunter2',
      req: { headers: { authorization: 'Bearer x', cookie: 'a=b' } },
    });
    expect(line).toMatchObject({
      pin: '[redacted]',
      command: { pin: '[redacted]' },
      token: '[redacted]',
      password: '[redacted]',
      req: { headers: { authorization: '[redacted]', cookie: '[redacted]' } },
    });
  });
});
