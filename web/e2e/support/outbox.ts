import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect } from '@playwright/test';

// The cloud the tests start writes the visitors' and operators' e-mails as .eml files in a folder of
// the run (no SMTP_URL; playwright.config.ts names it in E2E_OUTBOX_DIR and the workers inherit it).
function outboxDir(): string {
  const dir = process.env.E2E_OUTBOX_DIR;
  if (!dir) throw new Error('E2E_OUTBOX_DIR is not set (playwright.config.ts sets it)');
  return dir;
}

/** The raw text of an e-mail with quoted-printable soft line breaks and `=3D` undone (enough for links). */
function readable(eml: string): string {
  return eml.replace(/\r\n/g, '\n').replace(/=\n/g, '').replace(/=3D/gi, '=');
}

/** The e-mails sent to `to` so far, readable, oldest first by file name. */
export async function mailsTo(to: string): Promise<string[]> {
  const dir = outboxDir();
  const files = (await readdir(dir).catch(() => [] as string[])).filter((f) => f.endsWith('.eml')).sort();
  const texts = await Promise.all(
    files.map(async (file) => readable(await readFile(path.join(dir, file), 'utf8'))),
  );
  return texts.filter((text) => new RegExp(`^To: .*${to.replace(/[.+]/g, '\\$&')}`, 'mi').test(text));
}

/** The private booking link in the e-mail to `to`, waiting for the outbox to write it. */
export async function myBookingLinkMailedTo(to: string): Promise<string> {
  let link: string | undefined;
  await expect
    .poll(
      async () => {
        for (const mail of await mailsTo(to)) {
          link = /https?:\/\/[^\s"<>]+\/my-booking\/[A-Za-z0-9_-]+/.exec(mail)?.[0] ?? link;
        }
        return link;
      },
      { timeout: 20_000, message: `an e-mail to ${to} with a booking link` },
    )
    .toBeTruthy();
  return link!;
}
