import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

// Reads back the .eml files the outbox mailer writes: for tests, and for anyone running the system
// locally who wants to see the mail a customer would have received. A small MIME reader that
// understands what nodemailer writes (multipart, quoted-printable, base64, encoded-word headers).

export interface OutboxMessage {
  file: string;
  headers: Record<string, string>;
  from: string;
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The files attached (a confirmation's receipt), decoded. */
  attachments: Array<{ filename: string; contentType: string; content: Buffer }>;
}

interface MimePart {
  headers: Record<string, string>;
  body: string;
}

/** Quoted-printable and Q-encoding: `=XX` is a byte; anything else stands for itself. */
function decodeQuotedBytes(text: string): Buffer {
  return Buffer.concat(
    text
      .split(/(=[0-9A-Fa-f]{2})/)
      .map((piece) =>
        /^=[0-9A-Fa-f]{2}$/.test(piece)
          ? Buffer.from([parseInt(piece.slice(1), 16)])
          : Buffer.from(piece, 'utf8'),
      ),
  );
}

/** RFC 2047 headers such as `=?UTF-8?Q?Prenotazione_confermata?=`; adjacent words join without the space. */
function decodeEncodedWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(
      /=\?([^?]+)\?([QqBb])\?([^?]*)\?=/g,
      (_match, charset: string, encoding: string, text: string) => {
        const bytes =
          encoding.toUpperCase() === 'B'
            ? Buffer.from(text, 'base64')
            : decodeQuotedBytes(text.replace(/_/g, ' '));
        return bytes.toString(charset.toLowerCase() === 'utf-8' ? 'utf8' : 'latin1');
      },
    );
}

function parsePart(source: string): MimePart {
  const split = source.indexOf('\n\n');
  const head = split === -1 ? source : source.slice(0, split);
  const body = split === -1 ? '' : source.slice(split + 2);
  const headers: Record<string, string> = {};
  for (const line of head.replace(/\n[ \t]+/g, ' ').split('\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers[line.slice(0, colon).trim().toLowerCase()] = decodeEncodedWords(line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function decodeBody(part: MimePart): string {
  const encoding = (part.headers['content-transfer-encoding'] ?? '7bit').toLowerCase();
  if (encoding === 'base64') return Buffer.from(part.body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable')
    return decodeQuotedBytes(part.body.replace(/=\n/g, '')).toString('utf8');
  return part.body;
}

/** Every leaf part of a message, depth first. */
function leaves(part: MimePart): MimePart[] {
  const type = part.headers['content-type'] ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) return [part];
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections
    .filter((section) => !section.startsWith('--'))
    .flatMap((section) => leaves(parsePart(section.replace(/^\n/, ''))));
}

export function parseEml(source: string, file = ''): OutboxMessage {
  const message = parsePart(source.replace(/\r\n/g, '\n'));
  const parts = leaves(message);
  const ofType = (type: string) =>
    parts.find((part) => (part.headers['content-type'] ?? 'text/plain').toLowerCase().startsWith(type));
  const text = ofType('text/plain');
  const html = ofType('text/html');
  const attachments = parts
    .filter((part) => /^attachment\b/i.test(part.headers['content-disposition'] ?? ''))
    .map((part) => ({
      filename: /filename="?([^";]+)"?/i.exec(part.headers['content-disposition'] ?? '')?.[1] ?? '',
      contentType: (part.headers['content-type'] ?? '').split(';')[0]!.trim(),
      content: Buffer.from(part.body.replace(/\s+/g, ''), 'base64'),
    }));
  return {
    file,
    headers: message.headers,
    from: message.headers.from ?? '',
    to: message.headers.to ?? '',
    subject: message.headers.subject ?? '',
    text: text ? decodeBody(text).trimEnd() : '',
    html: html ? decodeBody(html).trimEnd() : '',
    attachments,
  };
}

/** The messages in the outbox, oldest first (file names start with the time they were written). */
export async function readOutbox(directory: string): Promise<OutboxMessage[]> {
  let names: string[];
  try {
    names = await readdir(directory);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files = names.filter((name) => name.endsWith('.eml')).sort();
  return Promise.all(
    files.map(async (name) =>
      parseEml(await readFile(path.join(directory, name), 'utf8'), path.join(directory, name)),
    ),
  );
}
