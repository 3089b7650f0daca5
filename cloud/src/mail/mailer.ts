import { randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isEmail } from '@deposito/protocol';
import nodemailer from 'nodemailer';
import type { MailConfig } from './mail-config';

export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** Files sent along, e.g. the booking's PDF receipt. */
  attachments?: Array<{ filename: string; contentType: string; content: Buffer }>;
  /** Extra headers, e.g. the booking the message is about, for support and tests. */
  headers?: Record<string, string>;
  /**
   * Names the message for good: the same id is the same message (its Message-ID, and its file in
   * the outbox directory), so sending it again after a crash replaces rather than duplicates it.
   */
  idempotency?: { messageId: string; createdAt: Date };
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

function outboxFileName(now: Date, key?: string): string {
  const stamp = now.toISOString().replace(/[-:]/g, '').replace('.', '-');
  return `${stamp}-${key ? key.replace(/[^A-Za-z0-9_-]/g, '_') : randomBytes(4).toString('hex')}.eml`;
}

/**
 * The nodemailer message: our fields, with a fixed Message-ID when the mail names one. `to` must be
 * a bare address by protocol's one definition: nodemailer would read `attacker<victim@x.it>` as a
 * display name and mail victim@x.it, or `a,b@x.it` as two recipients.
 */
function message(from: string, mail: OutgoingMail) {
  if (!isEmail(mail.to)) throw new Error('Refusing to mail a recipient that is not one bare e-mail address');
  const { idempotency, ...fields } = mail;
  return { from, ...fields, ...(idempotency ? { messageId: idempotency.messageId } : {}) };
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
        const info = await transporter.sendMail(message(config.from, mail));
        return { messageId: info.messageId, file: null };
      },
      close: () => transporter.close(),
    };
  }

  const directory = config.transport.directory;
  const transporter = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(mail) {
      const info = await transporter.sendMail(message(config.from, mail));
      await mkdir(directory, { recursive: true });
      const key = mail.idempotency?.messageId.replace(/^<|@.*$/g, '');
      const file = path.join(directory, outboxFileName(mail.idempotency?.createdAt ?? new Date(), key));
      const partial = `${file}.partial`;
      await writeFile(partial, info.message as Buffer);
      await rename(partial, file);
      return { messageId: info.messageId, file };
    },
    close: () => transporter.close(),
  };
}
