import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import nodemailer from 'nodemailer';
import type { MailConfig } from './mail-config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Extra headers, e.g. the booking the message is about, for support and tests. */
  headers?: Record<string, string>;
}

export interface SentMail {
  messageId: string;
  /** The .eml file written, when the outbox transport is used. */
  file: string | null;
}

export interface Mailer {
  send(mail: OutgoingMail): Promise<SentMail>;
  close(): void;
}

function outboxFileName(now: Date): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '-');
  return `${stamp}-${randomBytes(4).toString('hex')}.eml`;
}

/**
 * SMTP when configured; otherwise nodemailer composes the full MIME message in memory and it is
 * written to the outbox directory (via a temporary name, so a reader never sees half a file).
 */
export function createMailer(config: MailConfig): Mailer {
  if (config.transport.kind === 'smtp') {
    const transporter = nodemailer.createTransport(config.transport.url);
    return {
      async send(mail) {
        const info = await transporter.sendMail({ from: config.from, ...mail });
        return { messageId: info.messageId, file: null };
      },
      close: () => transporter.close(),
    };
  }

  const directory = config.transport.directory;
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transporter.sendMail({ from: config.from, ...mail });
      await mkdir(directory, { recursive: true });
      const file = path.join(directory, outboxFileName(new Date()));
      const partial = `${file}.partial`;
      await writeFile(partial, info.message as Buffer);
      await rename(partial, file);
      return { messageId: info.messageId, file };
    },
    close: () => transporter.close(),
  };
}
