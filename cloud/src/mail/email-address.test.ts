import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isEmail } from '@deposito/protocol';
import addressparser from 'nodemailer/lib/addressparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCustomerDetails } from '../../test/builders';
import { holdOverApi, startTestApp, useTestApp } from '../../test/test-app';
import { createMailer } from './mailer';

// One e-mail definition (protocol's isEmail) for the forms, the API and the mailer: what is
// accepted is mailed to exactly that address, never to one a display name or a list hides.

const REWRITTEN = [
  'attacker<victim@x.it>',
  'attacker <victim@x.it>',
  'a,victim@x.it',
  'a;victim@x.it',
  'group:victim@x.it;',
  '"victim"@x.it',
  'a(comment)@x.it',
  'victim@[10.0.0.1]',
  'a\\b@x.it',
];
const PLAIN = [
  'maria.rossi@example.it',
  "o'brien@example.ie",
  'a+tag@sub.example.co.uk',
  'jós@example.es',
  '山田@例え.jp',
];

describe('the e-mail address definition', () => {
  it.each(REWRITTEN)('refuses %s, which a mail library would read as something else', (address) => {
    expect(isEmail(address)).toBe(false);
  });

  it.each(PLAIN)('accepts %s, which the mailer reads as exactly that address', (address) => {
    expect(isEmail(address)).toBe(true);
    expect(addressparser(address)).toEqual([{ address, name: '' }]);
  });
});

describe('addresses over HTTP and in the mailer', () => {
  const { test, api } = useTestApp(() => startTestApp());
  let bookingId: string;
  let outbox: string;

  beforeAll(async () => {
    outbox = mkdtempSync(path.join(tmpdir(), 'deposito-mail-'));
    bookingId = await holdOverApi(api);
  });
  afterAll(() => rmSync(outbox, { recursive: true, force: true }));

  it.each(['attacker<victim@x.it>', 'a,victim@x.it'])('refuses %s in the booking details', async (email) => {
    const answer = await api.patch<{ error: { code: string } }>(
      `/api/bookings/${bookingId}`,
      buildCustomerDetails({ email, conferma_email: email }),
    );
    expect(answer.status).toBe(400);
    expect(answer.body.error.code).toBe('validation/invalid_body');
    expect((await test.store.bookings.get(bookingId))?.customer.email).toBeNull();
  });

  it('refuses attacker<victim@x.it> on the payment call, and takes the bare address', async () => {
    const payer = {
      transactionId: bookingId,
      currency: 'EUR',
      nome: 'Giulia',
      cognome: 'Rossi',
      telefono: '+393331234567',
    };
    const refused = await api.post<{ error: { code: string } }>('/api/payments/create-payment', {
      ...payer,
      email: 'attacker<victim@x.it>',
    });
    expect(refused.status).toBe(400);
    expect(refused.body.error.code).toBe('validation/invalid_body');
    const taken = await api.post('/api/payments/create-payment', { ...payer, email: 'victim@x.it' });
    expect(taken.status).toBe(200);
  });

  it('never mails a recipient that is not one bare address', async () => {
    const mailer = createMailer({
      from: 'Deposito <no-reply@deposito.test>',
      transport: { kind: 'outbox', directory: outbox },
    });
    try {
      await expect(
        mailer.send({
          to: 'attacker<victim@x.it>',
          subject: 'PIN',
          text: 'PIN: 1234',
          html: '<p>PIN: 1234</p>',
        }),
      ).rejects.toThrow(/bare e-mail address/);
      expect(readdirSync(outbox)).toEqual([]);
      await mailer.send({
        to: 'maria.rossi@example.it',
        subject: 'PIN',
        text: 'PIN: 1234',
        html: '<p>1234</p>',
      });
      expect(readdirSync(outbox)).toHaveLength(1);
    } finally {
      mailer.close();
    }
  });
});
