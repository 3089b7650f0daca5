import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { writeSelfSignedCertificate } from '../../test/self-signed-certificate';
import { ProceedsParser } from './proceeds-parser';
import { PromotecClient } from './promotec-client';
import { PromotecError } from './promotec-errors';
import { renderProceedsXml } from './promotec-wire';

// A kiosk address answers whatever its owner (or whoever took it over) wants. A hostile answer just
// under the size limit must neither stall the cloud nor swell it: large answers are parsed in a
// worker thread with a bounded heap and time.

const MONTH = '2026-07';

/** About 4 MB of XML whose parse is as slow and as memory-hungry per byte as we found. */
function hostileXml(): string {
  const attributes = Array.from({ length: 330_000 }, (_, i) => `a${i}="x"`).join(' ');
  return `<proceeds month="${MONTH}"><payment type="initial" ${attributes}/></proceeds>`;
}

/** A month of many ordinary payments, large enough to go to the worker. */
function busyMonthXml(): string {
  const proceeds = Array.from({ length: 2_000 }, (_, i) => ({
    type: 'initial' as const,
    date: '2026-07-14T10:32:05+02:00',
    amountCents: 1250,
    lockerId: 1 + (i % 12),
    billNo: `ROMA-202607-${i}`,
    discountCents: 0,
  }));
  return renderProceedsXml(MONTH, proceeds);
}

const servers: Server[] = [];

async function serve(server: Server): Promise<{ recipient: string; port: number }> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { recipient: '127.0.0.1', port: (server.address() as { port: number }).port };
}

function kioskAnswering(body: string): Server {
  return createHttpServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/xml' });
    response.end(body);
  });
}

/** The longest the event loop went without running a 10 ms timer while `work` ran. */
async function longestStall(work: () => Promise<unknown>): Promise<number> {
  let last = performance.now();
  let longest = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longest = Math.max(longest, now - last);
    last = now;
  }, 10);
  try {
    await work();
  } finally {
    clearInterval(ticker);
  }
  // A stall that ends with the work itself is seen by no tick.
  return Math.max(longest, performance.now() - last);
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

describe('a hostile kiosk answer', () => {
  it('leaves the cloud responsive and its memory bounded, and is refused', async () => {
    const hostile = hostileXml();
    expect(hostile.length).toBeGreaterThan(3.5 * 1024 * 1024);
    const address = await serve(kioskAnswering(hostile));
    const parser = new ProceedsParser();
    const client = new PromotecClient({ parser });
    try {
      const rssBefore = process.memoryUsage().rss;
      let failure: unknown;
      const stall = await longestStall(async () => {
        failure = await client.fetchProceeds(address, MONTH).catch((error: unknown) => error);
      });
      const grownMb = (process.memoryUsage().rss - rssBefore) / 1024 / 1024;
      expect(failure).toBeInstanceOf(PromotecError);
      expect((failure as PromotecError).code).toBe('promotec/malformed_response');
      // Parsed on the main thread this stalled every request for over a second and took ~400 MB.
      expect(stall).toBeLessThan(400);
      expect(grownMb).toBeLessThan(200);
    } finally {
      await parser.close();
    }
  });

  it('still reads a busy but honest month through the worker', async () => {
    const address = await serve(kioskAnswering(busyMonthXml()));
    const parser = new ProceedsParser({ inlineMaxBytes: 1024 });
    try {
      const proceeds = await new PromotecClient({ parser }).fetchProceeds(address, MONTH);
      expect(proceeds).toHaveLength(2_000);
      expect(proceeds[1999]).toMatchObject({ billNo: 'ROMA-202607-1999', amountCents: 1250, lockerId: 8 });
    } finally {
      await parser.close();
    }
  });

  it('refuses an answer that outgrows the worker heap or its time, and the next one is read again', async () => {
    const tight = new ProceedsParser({ inlineMaxBytes: 0, maxHeapMb: 24 });
    const slow = new ProceedsParser({ inlineMaxBytes: 0, timeoutMs: 1 });
    try {
      const outOfMemory = await tight.parse(hostileXml(), MONTH);
      expect(outOfMemory).toEqual({ ok: false, message: expect.stringMatching(/troppo complessa|fallita/) });
      const late = await slow.parse(hostileXml(), MONTH);
      expect(late).toEqual({ ok: false, message: 'lettura oltre 1 ms' });
      const again = await tight.parse(busyMonthXml().slice(0, 2000), MONTH);
      expect(again.ok).toBe(false);
      const honest = await tight.parse(renderProceedsXml(MONTH, []), MONTH);
      expect(honest).toEqual({ ok: true, proceeds: [] });
    } finally {
      await Promise.all([tight.close(), slow.close()]);
    }
  });
});

describe('a kiosk behind HTTPS', () => {
  let dir: string;
  let cert: Buffer;
  let key: Buffer;

  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'kiosk-tls-'));
    const { keyFile, certFile } = writeSelfSignedCertificate(dir, '127.0.0.1', '127.0.0.1');
    cert = readFileSync(certFile);
    key = readFileSync(keyFile);
  });

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('is read over TLS with PROMOTEC_SCHEME=https, and a certificate it does not trust is refused', async () => {
    const body = renderProceedsXml(MONTH, []);
    const address = await serve(
      createHttpsServer({ cert, key }, (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/xml' });
        response.end(body);
      }),
    );
    const trusting = new Agent({ connect: { ca: cert } });
    try {
      const read = await new PromotecClient({ scheme: 'https', dispatcher: trusting }).fetchProceeds(
        address,
        MONTH,
      );
      expect(read).toEqual([]);
      const untrusted = await new PromotecClient({ scheme: 'https' })
        .fetchProceeds(address, MONTH)
        .catch((error: unknown) => error);
      expect(untrusted).toBeInstanceOf(PromotecError);
      // Plain HTTP to a TLS port is not an answer either.
      const plain = await new PromotecClient().fetchProceeds(address, MONTH).catch((error: unknown) => error);
      expect(plain).toBeInstanceOf(PromotecError);
    } finally {
      await trusting.close();
    }
  });
});
