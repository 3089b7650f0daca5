import path from 'node:path';
import { z } from 'zod';

// The e-mail variables of the environment, composed into env.ts like the payment ones. With no
// SMTP_URL every message is written as an .eml file to the outbox directory, so a laptop or a test
// run sends "mail" without any mail server.

export const mailEnvShape = {
  /** smtp://user:pass@host:587 or smtps://…:465; absent → messages go to the outbox directory. */
  SMTP_URL: z
    .url()
    .refine((url) => /^smtps?:\/\//.test(url), { message: 'Expected smtp://… or smtps://…' })
    .optional(),
  /** The sender of customer e-mails. */
  MAIL_FROM: z.string().trim().min(3).default('Deposito <no-reply@deposito.local>'),
  /** Where .eml files are written when there is no SMTP_URL (relative to the repository root). */
  MAIL_OUTBOX_DIR: z.string().trim().min(1).default('data/outbox'),
};

export const mailEnvSchema = z.object(mailEnvShape);
export type MailEnv = z.infer<typeof mailEnvSchema>;

export type MailTransportConfig = { kind: 'smtp'; url: string } | { kind: 'outbox'; directory: string };

export interface MailConfig {
  from: string;
  transport: MailTransportConfig;
}

/** `baseDir` anchors a relative MAIL_OUTBOX_DIR (env.ts passes the repository root). */
export function mailConfigFromEnv(env: MailEnv, baseDir: string): MailConfig {
  return {
    from: env.MAIL_FROM,
    transport: env.SMTP_URL
      ? { kind: 'smtp', url: env.SMTP_URL }
      : { kind: 'outbox', directory: path.resolve(baseDir, env.MAIL_OUTBOX_DIR) },
  };
}
