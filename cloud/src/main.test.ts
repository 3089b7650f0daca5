import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from './env';

// What `cloud/src/main.ts` says at start outside demo mode when it would take no money or send no
// e-mail: the operator reads it in the process log (and the admin area's log screen).

const outbox = mkdtempSync(path.join(tmpdir(), 'deposito-main-outbox-'));
afterAll(() => rmSync(outbox, { recursive: true, force: true }));

/** Starts the cloud with `env`, returns the messages it logged up to 'cloud listening', and stops it. */
async function startUpMessages(env: Record<string, string>): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cloud/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH, DATABASE_URL: 'sqlite::memory:', PORT: '0', DEMO: '0', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const messages: string[] = [];
  try {
    for await (const line of createInterface({ input: child.stdout! })) {
      const message = (JSON.parse(line) as { msg?: string }).msg ?? '';
      messages.push(message);
      if (message === 'cloud listening') break;
    }
  } finally {
    const exited = child.exitCode !== null || child.signalCode !== null ? null : once(child, 'exit');
    child.kill('SIGTERM');
    await exited;
  }
  return messages;
}

describe('the cloud at start, outside demo mode', () => {
  it('warns that the sandbox collects no money and that e-mails without SMTP_URL are not sent', async () => {
    const messages = await startUpMessages({ PAYMENT_PROVIDER: 'sandbox', MAIL_OUTBOX_DIR: outbox });
    expect(messages).toContain('cloud listening');
    expect(messages.filter((m) => m.includes('NO MONEY IS COLLECTED'))).toHaveLength(1);
    expect(messages.filter((m) => m.startsWith('SMTP_URL unset outside demo mode'))).toHaveLength(1);
  });

  it('says nothing of e-mail once SMTP_URL names a server', async () => {
    const messages = await startUpMessages({
      PAYMENT_PROVIDER: 'sandbox',
      SMTP_URL: 'smtp://127.0.0.1:2525',
    });
    expect(messages).toContain('cloud listening');
    expect(messages.some((m) => m.includes('SMTP_URL'))).toBe(false);
  });
});
