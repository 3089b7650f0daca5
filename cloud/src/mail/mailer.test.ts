import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailConfigFromEnv, mailEnvSchema } from './mail-config';
import { createMailer } from './mailer';
import { parseEml } from './outbox';

// A minimal SMTP server (enough of RFC 5321 for nodemailer without TLS or auth) that keeps what it
// receives, so the SMTP path is tested over a real socket.
interface ReceivedMail {
  from: string;
  to: string[];
  data: string;
}

function startSmtpServer(received: ReceivedMail[]): Promise<Server> {
  const server = createServer((socket: Socket) => {
    let buffer = '';
    let inData = false;
    let current: ReceivedMail = { from: '', to: [], data: '' };
    socket.write('220 test.local ESMTP\r\n');
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end === -1) return;
          current.data = buffer.slice(0, end).replace(/\r\n\.\./g, '\r\n.');
          buffer = buffer.slice(end + 5);
          inData = false;
          received.push(current);
          current = { from: '', to: [], data: '' };
          socket.write('250 OK queued\r\n');
          continue;
        }
        const lineEnd = buffer.indexOf('\r\n');
        if (lineEnd === -1) return;
        const line = buffer.slice(0, lineEnd);
        buffer = buffer.slice(lineEnd + 2);
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === 'EHLO' || verb === 'HELO') socket.write('250-test.local\r\n250 8BITMIME\r\n');
        else if (verb === 'MAIL') {
          current.from = /<([^>]*)>/.exec(line)?.[1] ?? '';
          socket.write('250 OK\r\n');
        } else if (verb === 'RCPT') {
          current.to.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          socket.write('250 OK\r\n');
        } else if (verb === 'DATA') {
          inData = true;
          socket.write('354 End data with <CR><LF>.<CR><LF>\r\n');
        } else if (verb === 'QUIT') socket.end('221 Bye\r\n');
        else socket.write('250 OK\r\n');
      }
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

describe('mailer over SMTP', () => {
  const received: ReceivedMail[] = [];
  let server: Server;

  beforeAll(async () => {
    server = await startSmtpServer(received);
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  it('delivers the composed message to the SMTP server of SMTP_URL', async () => {
    const { port } = server.address() as AddressInfo;
    const config = mailConfigFromEnv(
      mailEnvSchema.parse({
        SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`,
        MAIL_FROM: 'Deposito <no-reply@deposito.test>',
      }),
      '/srv',
    );
    const mailer = createMailer(config);
    try {
      const sent = await mailer.send({
        to: 'ann@example.com',
        subject: 'Prenotazione confermata – Termini',
        text: 'PIN: 482913',
        html: '<p>PIN: 482913</p>',
      });
      expect(sent.file).toBeNull();
      expect(sent.messageId).toMatch(/^<.+@deposito\.test>$/);
    } finally {
      mailer.close();
    }
    expect(received).toHaveLength(1);
    expect(received[0]).toMatchObject({ from: 'no-reply@deposito.test', to: ['ann@example.com'] });
    const message = parseEml(received[0]!.data);
    expect(message.subject).toBe('Prenotazione confermata – Termini');
    expect(message.text).toBe('PIN: 482913');
    expect(message.html).toBe('<p>PIN: 482913</p>');
  });
});

describe('mail configuration', () => {
  it('writes to data/outbox under the given root unless SMTP_URL is set', () => {
    expect(mailConfigFromEnv(mailEnvSchema.parse({}), '/repo')).toEqual({
      from: 'Deposito <no-reply@deposito.local>',
      transport: { kind: 'outbox', directory: path.resolve('/repo', 'data/outbox') },
    });
    expect(
      mailConfigFromEnv(mailEnvSchema.parse({ MAIL_OUTBOX_DIR: '/var/mail/out' }), '/repo').transport,
    ).toEqual({
      kind: 'outbox',
      directory: '/var/mail/out',
    });
    expect(
      mailConfigFromEnv(mailEnvSchema.parse({ SMTP_URL: 'smtps://u:p@mail.example.com:465' }), '/repo')
        .transport,
    ).toEqual({ kind: 'smtp', url: 'smtps://u:p@mail.example.com:465' });
  });

  it('refuses a SMTP_URL that is not smtp or smtps', () => {
    expect(mailEnvSchema.safeParse({ SMTP_URL: 'https://mail.example.com' }).success).toBe(false);
  });
});
