// A stand-in for one location's Promotec kiosk system, speaking the wire format of ./promotec-wire
// over real HTTP. Its takings are plausible and deterministic (seeded by location and month), so
// tests can predict them and the demo shows the same figures on every run; it fails on demand.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DateTime } from 'luxon';
import { takingsMonthSchema, type TotemProceed } from '@deposito/protocol';
import { seededRandom } from '@deposito/protocol/seeded-random';
import { PROMOTEC_PROCEEDS_PATH, renderProceedsXml } from './promotec-wire';

/**
 * - `http-500`: answers HTTP 500.
 * - `hang`: accepts the request and never answers.
 * - `malformed-xml`: 200 with a broken document.
 * - `invalid-record`: 200 with a well-formed document whose payment has no valid amount.
 * - `oversize`: 200 streaming `oversizeBytes` of payments, without a content length.
 * - `drop-connection`: closes the socket without answering.
 */
export type PromotecFailure =
  'http-500' | 'hang' | 'malformed-xml' | 'invalid-record' | 'oversize' | 'drop-connection';

export interface PromotecSimulatorOptions {
  locationKey: string;
  zone: string;
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Payments after this instant are not reported yet; defaults to the real clock. */
  now?: () => Date;
  oversizeBytes?: number;
}

// Prices a kiosk charges, in cents: a few hours to a couple of days, standard or large.
const PRICES_CENTS = [500, 700, 900, 1200, 1500, 2000, 2500, 3000];
const LOCKERS = 24;

function seedOf(text: string): number {
  let hash = 0x811c9dc5; // FNV-1a
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * The payments the simulated kiosk of `locationKey` took in `month`, between 07:00 and 21:00 in
 * `zone`, oldest first; the same arguments always give the same payments. Payments after `until`
 * (when given) are left out, as a real kiosk has not taken them yet.
 */
export function simulatedProceeds(
  locationKey: string,
  zone: string,
  month: string,
  until?: Date,
): TotemProceed[] {
  const random = seededRandom(seedOf(`${locationKey}|${takingsMonthSchema.parse(month)}`));
  const first = DateTime.fromFormat(month, 'yyyy-MM', { zone });
  const billPrefix = `${locationKey
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '')
    .slice(0, 6)}-${first.toFormat('yyyyMM')}`;
  const proceeds: TotemProceed[] = [];
  for (let day = first; day.month === first.month; day = day.plus({ days: 1 })) {
    const weekend = day.weekday >= 6;
    const payments = Math.floor(random() * (weekend ? 9 : 6));
    const minutes = Array.from({ length: payments }, () => 7 * 60 + Math.floor(random() * 14 * 60)).sort(
      (a, b) => a - b,
    );
    for (const minute of minutes) {
      const at = day.set({
        hour: Math.floor(minute / 60),
        minute: minute % 60,
        second: Math.floor(random() * 60),
      });
      const supplement = random() < 0.15;
      const price = supplement
        ? PRICES_CENTS[Math.floor(random() * 3)]
        : PRICES_CENTS[Math.floor(random() * PRICES_CENTS.length)];
      const discountCents = !supplement && random() < 0.1 ? Math.round(price / 10 / 50) * 50 : 0;
      proceeds.push({
        type: supplement ? 'supplement' : 'initial',
        date: at.toISO({ suppressMilliseconds: true })!,
        amountCents: price - discountCents,
        lockerId: 1 + Math.floor(random() * LOCKERS),
        billNo: `${billPrefix}-${(proceeds.length + 1).toString().padStart(4, '0')}`,
        discountCents,
      });
    }
  }
  return until
    ? proceeds.filter((proceed) => DateTime.fromISO(proceed.date) <= DateTime.fromJSDate(until))
    : proceeds;
}

export class PromotecSimulator {
  /** Months asked for, in order, failed requests included. */
  readonly requestedMonths: string[] = [];
  private failure: PromotecFailure | null = null;

  private constructor(
    private readonly server: Server,
    private readonly options: PromotecSimulatorOptions,
  ) {}

  static async start(options: PromotecSimulatorOptions): Promise<PromotecSimulator> {
    const server = createServer();
    const simulator = new PromotecSimulator(server, options);
    server.on('request', (req: IncomingMessage, res: ServerResponse) => simulator.handle(req, res));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    return simulator;
  }

  get host(): string {
    return this.options.host ?? '127.0.0.1';
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  /** The address to configure as the location's recipient and port. */
  get address(): { recipient: string; port: number } {
    return { recipient: this.host, port: this.port };
  }

  /** Every following request fails this way, until `failWith(null)`. */
  failWith(failure: PromotecFailure | null): void {
    this.failure = failure;
  }

  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    this.server.closeAllConnections();
    await closed;
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://simulator');
    if (req.method !== 'GET' || url.pathname !== PROMOTEC_PROCEEDS_PATH) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      return;
    }
    const month = url.searchParams.get('month') ?? '';
    this.requestedMonths.push(month);
    if (!takingsMonthSchema.safeParse(month).success) {
      res.writeHead(400, { 'content-type': 'text/plain' }).end('month must be yyyy-MM');
      return;
    }
    const xml = { 'content-type': 'application/xml; charset=utf-8' };
    switch (this.failure) {
      case 'http-500':
        res.writeHead(500, { 'content-type': 'text/plain' }).end('kiosk database unavailable');
        return;
      case 'hang':
        return;
      case 'drop-connection':
        req.socket.destroy();
        return;
      case 'malformed-xml':
        res
          .writeHead(200, xml)
          .end(`<proceeds month="${month}"><payment type="initial"><amount>12.50</payment>`);
        return;
      case 'invalid-record':
        res
          .writeHead(200, xml)
          .end(
            `<proceeds month="${month}"><payment type="initial"><date>${month}-01T10:00:00+02:00</date>` +
              `<amount>dodici</amount><locker>4</locker><billNo>X-1</billNo></payment></proceeds>`,
          );
        return;
      case 'oversize':
        this.streamOversize(res, month, this.options.oversizeBytes ?? 8 * 1024 * 1024);
        return;
      case null: {
        const { locationKey, zone, now = () => new Date() } = this.options;
        res
          .writeHead(200, xml)
          .end(renderProceedsXml(month, simulatedProceeds(locationKey, zone, month, now())));
        return;
      }
    }
  }

  private streamOversize(res: ServerResponse, month: string, bytes: number): void {
    res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
    const payment = renderProceedsXml(month, simulatedProceeds('oversize', 'UTC', month))
      .split('\n')
      .slice(2, 9)
      .join('\n');
    const chunk = Buffer.from(`${payment}\n`.repeat(Math.max(1, Math.floor(65_536 / (payment.length + 1)))));
    let sent = 0;
    res.write(`<?xml version="1.0" encoding="UTF-8"?>\n<proceeds month="${month}">\n`);
    const writeMore = (): void => {
      while (sent < bytes) {
        sent += chunk.length;
        if (!res.write(chunk)) {
          res.once('drain', writeMore);
          return;
        }
      }
      res.end('</proceeds>\n');
    };
    res.on('close', () => {
      sent = bytes;
    });
    writeMore();
  }
}
