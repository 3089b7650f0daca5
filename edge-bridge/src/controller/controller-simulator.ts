// A locker controller in a process: the same HTTP/XML wire protocol as the real one, plus a control
// API (`/_sim/...`) through which tests and the demo make it slow, failing or deaf.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  controllerAnswerRoot,
  controllerOperationSchema,
  lockerStateCode,
  parseControllerRequestFields,
  type ControllerOperation,
  type LockerOccupancy,
} from '@deposito/protocol/controller/index';

export type LockerSize = 'standard' | 'large';

export interface SimulatedLocker {
  number: number;
  size: LockerSize;
  occupancy: LockerOccupancy;
  doorOpen: boolean;
  booking?: { pin: string; from: string; to: string };
}

export interface SimulatedHistoryEntry {
  index: number;
  locker: number;
  date: string;
  type: 'door_open' | 'door_close' | 'open' | 'book' | 'unbook' | 'inhibit';
  description: string;
}

/**
 * slow: answer after delayMs (the action itself happens at once, as a busy controller would);
 * fail: answer HTTP 500 without acting (the kiosk is unreachable);
 * drop: close the connection without answering or acting.
 */
export type SimulatorFault = { kind: 'slow'; delayMs: number } | { kind: 'fail' } | { kind: 'drop' };

export interface ControllerSimulatorOptions {
  /** A count (lockers 1..n, every fourth one large) or explicit lockers. */
  lockers?: number | Array<{ number: number; size: LockerSize }>;
  key?: string;
  mastercode?: string;
  /** How long a door stays open after `open`. */
  doorOpenMs?: number;
  now?: () => Date;
}

/** `response` codes the simulator answers with. */
export const SIMULATOR_RESPONSE = {
  ok: 0,
  badCredentials: 1,
  unknownLocker: 2,
  lockerNotFree: 3,
  badRequest: 4,
} as const;

const MAX_REQUEST_BYTES = 64 * 1024;
/** A long-running demo simulator keeps only the latest arrivals. */
const MAX_ARRIVALS_KEPT = 1_000;

export class ControllerSimulator {
  readonly key: string;
  readonly mastercode: string;
  doorOpenMs: number;
  private readonly lockers = new Map<number, SimulatedLocker>();
  private readonly events: SimulatedHistoryEntry[] = [];
  private readonly doorTimers = new Map<number, NodeJS.Timeout>();
  private readonly delayTimers = new Set<NodeJS.Timeout>();
  private readonly clock: () => Date;
  /** How far a test moved this controller's clock ahead of `clock` (it never goes back). */
  private clockAdvancedMs = 0;
  private server: Server | null = null;
  private listening: { host: string; port: number } | null = null;
  private fault: SimulatorFault | null = null;
  private faultRemaining: number | null = null;
  private faultOperation: ControllerOperation | null = null;
  private inFlight = 0;
  /** Counters for tests: requests per operation, the order of the last ones, the most handled at once. */
  readonly stats = {
    requests: 0,
    maxConcurrent: 0,
    byOperation: {} as Partial<Record<ControllerOperation, number>>,
    arrivals: [] as ControllerOperation[],
  };

  constructor(options: ControllerSimulatorOptions = {}) {
    this.key = options.key ?? 'sim-key';
    this.mastercode = options.mastercode ?? 'sim-master';
    this.doorOpenMs = options.doorOpenMs ?? 5_000;
    this.clock = options.now ?? (() => new Date());
    const lockers =
      typeof options.lockers === 'object'
        ? options.lockers
        : Array.from({ length: options.lockers ?? 12 }, (_, i) => ({
            number: i + 1,
            size: ((i + 1) % 4 === 0 ? 'large' : 'standard') as LockerSize,
          }));
    for (const { number, size } of lockers) {
      this.lockers.set(number, { number, size, occupancy: 'free', doorOpen: false });
    }
  }

  async start(options: { port?: number; host?: string } = {}): Promise<{ port: number; url: string }> {
    const server = createServer((req, res) => {
      this.handle(req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500).end();
        else res.destroy();
      });
    });
    this.server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    this.listening = { host: options.host ?? '127.0.0.1', port };
    return { port, url: `http://${options.host ?? '127.0.0.1'}:${port}` };
  }

  /** What a client (or a bridge's `controller` settings) needs to reach this simulator once started. */
  connection(timeoutMs?: number): {
    recipient: string;
    port: number;
    key: string;
    mastercode: string;
    timeoutMs?: number;
  } {
    if (!this.listening) throw new Error('the controller simulator is not started');
    const { host, port } = this.listening;
    return {
      recipient: host,
      port,
      key: this.key,
      mastercode: this.mastercode,
      ...(timeoutMs === undefined ? {} : { timeoutMs }),
    };
  }

  async stop(): Promise<void> {
    for (const timer of [...this.doorTimers.values(), ...this.delayTimers]) clearTimeout(timer);
    this.doorTimers.clear();
    this.delayTimers.clear();
    const server = this.server;
    this.server = null;
    this.listening = null;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Applies `fault` to the next `count` controller requests (all until cleared with null when no
   * count), only to requests for `operation` when one is given.
   */
  setFault(fault: SimulatorFault | null, count?: number, operation?: ControllerOperation): void {
    this.fault = fault;
    this.faultRemaining = fault && count !== undefined ? count : null;
    this.faultOperation = fault ? (operation ?? null) : null;
  }

  /**
   * Moves this controller's clock `ms` ahead, as if that time had passed: bookings whose period it
   * passes end. A test moves the cloud's clock with it instead of waiting for a booking's end.
   */
  advanceClock(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) throw new RangeError(`a clock only moves forward (got ${ms} ms)`);
    this.clockAdvancedMs += ms;
  }

  private now(): Date {
    return new Date(this.clock().getTime() + this.clockAdvancedMs);
  }

  /** Controller requests received and not yet answered (a slow fault holds them). */
  get requestsInFlight(): number {
    return this.inFlight;
  }

  /** Someone opens or closes a door by hand. */
  setDoor(locker: number, open: boolean): void {
    const entry = this.requireLocker(locker);
    if (entry.doorOpen === open) return;
    entry.doorOpen = open;
    this.record(locker, open ? 'door_open' : 'door_close', open ? 'door opened' : 'door closed');
    if (!open) this.clearDoorTimer(locker);
  }

  /** Forces a locker's occupancy, as the kiosk on site would. */
  setOccupancy(locker: number, occupancy: LockerOccupancy): void {
    const entry = this.requireLocker(locker);
    entry.occupancy = occupancy;
    if (occupancy !== 'booked') delete entry.booking;
  }

  locker(number: number): SimulatedLocker | undefined {
    this.dropEndedBookings();
    const entry = this.lockers.get(number);
    return entry && structuredClone(entry);
  }

  allLockers(): SimulatedLocker[] {
    this.dropEndedBookings();
    return [...this.lockers.values()].map((entry) => structuredClone(entry));
  }

  /**
   * A controller keeps one booking per locker and drops it once its period is over: the locker is
   * free again for the next booking's PIN.
   */
  private dropEndedBookings(): void {
    const now = this.now().getTime();
    for (const locker of this.lockers.values()) {
      if (locker.occupancy !== 'booked' || !locker.booking) continue;
      const endsAt = Date.parse(locker.booking.to);
      if (Number.isNaN(endsAt) || endsAt > now) continue;
      this.record(locker.number, 'unbook', `booking ended at ${locker.booking.to}`);
      locker.occupancy = 'free';
      delete locker.booking;
    }
  }

  history(): SimulatedHistoryEntry[] {
    return structuredClone(this.events);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = new URL(req.url ?? '/', 'http://simulator').pathname;
    if (path.startsWith('/_sim/')) return this.handleControl(path, req, res);

    const operation = controllerOperationSchema.safeParse(path.slice(1));
    if (!operation.success)
      return void res.writeHead(404, { 'content-type': 'text/plain' }).end('unknown operation');
    if (req.method !== 'POST') return void res.writeHead(405, { allow: 'POST' }).end();

    this.stats.requests += 1;
    this.stats.byOperation[operation.data] = (this.stats.byOperation[operation.data] ?? 0) + 1;
    this.stats.arrivals.push(operation.data);
    if (this.stats.arrivals.length > MAX_ARRIVALS_KEPT) this.stats.arrivals.shift();
    this.inFlight += 1;
    this.stats.maxConcurrent = Math.max(this.stats.maxConcurrent, this.inFlight);
    res.once('close', () => {
      this.inFlight -= 1;
    });

    const body = await readBody(req);
    const fault = this.takeFault(operation.data);
    if (fault?.kind === 'drop') return void req.socket.destroy();
    if (fault?.kind === 'fail') {
      return void res.writeHead(500, { 'content-type': 'text/plain' }).end('kiosk unreachable');
    }
    const xml = this.execute(operation.data, Object.fromEntries(new URLSearchParams(body)));
    if (fault?.kind === 'slow') {
      const timer = setTimeout(() => {
        this.delayTimers.delete(timer);
        if (!res.destroyed) sendXml(res, xml);
      }, fault.delayMs);
      this.delayTimers.add(timer);
      return;
    }
    sendXml(res, xml);
  }

  private takeFault(operation: ControllerOperation): SimulatorFault | null {
    const fault = this.fault;
    if (this.faultOperation !== null && this.faultOperation !== operation) return null;
    if (fault && this.faultRemaining !== null) {
      this.faultRemaining -= 1;
      if (this.faultRemaining <= 0) this.setFault(null);
    }
    return fault;
  }

  private execute(operation: ControllerOperation, fields: Record<string, string>): string {
    const answer = (response: number, description: string, inner = '') =>
      element(
        controllerAnswerRoot(operation),
        leaf('response', String(response)) + leaf('description', description) + inner,
      );

    const parsed = parseControllerRequestFields(operation, fields);
    if (!parsed.ok) {
      const credentialsMissing = fields.key === undefined || fields.mastercode === undefined;
      return credentialsMissing
        ? answer(SIMULATOR_RESPONSE.badCredentials, 'missing key or mastercode')
        : answer(SIMULATOR_RESPONSE.badRequest, parsed.message);
    }
    if (parsed.credentials.key !== this.key || parsed.credentials.mastercode !== this.mastercode) {
      return answer(SIMULATOR_RESPONSE.badCredentials, 'invalid key or mastercode');
    }
    const request = parsed.request;
    this.dropEndedBookings();
    switch (request.operation) {
      case 'getLockersState': {
        const lockers = [...this.lockers.values()]
          .map((l) =>
            element(
              'locker',
              leaf('number', String(l.number)) +
                leaf('state', String(lockerStateCode(l))) +
                leaf('size', l.size),
            ),
          )
          .join('');
        return answer(SIMULATOR_RESPONSE.ok, 'OK', element('lockers', lockers));
      }
      case 'history': {
        const entries = this.events
          .filter(
            (e) =>
              e.index >= request.index &&
              e.date >= new Date(request.startDate).toISOString() &&
              e.date <= new Date(request.endDate).toISOString() &&
              (request.locker === undefined || e.locker === request.locker),
          )
          .map((e) =>
            element(
              'event',
              leaf('index', String(e.index)) +
                leaf('locker', String(e.locker)) +
                leaf('date', e.date) +
                leaf('type', e.type) +
                leaf('description', e.description),
            ),
          )
          .join('');
        return answer(
          SIMULATOR_RESPONSE.ok,
          'OK',
          leaf('from', request.startDate) + leaf('To', request.endDate) + element('events', entries),
        );
      }
      default: {
        const locker = this.lockers.get(request.locker);
        if (!locker) return answer(SIMULATOR_RESPONSE.unknownLocker, `unknown locker ${request.locker}`);
        if (request.operation === 'open') {
          this.record(locker.number, 'open', 'opened by command');
          this.openDoor(locker);
        } else if (request.operation === 'inhibit') {
          locker.occupancy = 'inhibited';
          delete locker.booking;
          this.record(locker.number, 'inhibit', 'inhibited');
        } else if (request.operation === 'unbook') {
          locker.occupancy = 'free';
          delete locker.booking;
          this.record(locker.number, 'unbook', 'released');
        } else {
          if (locker.occupancy !== 'free') {
            return answer(SIMULATOR_RESPONSE.lockerNotFree, `locker ${locker.number} is ${locker.occupancy}`);
          }
          locker.occupancy = 'booked';
          locker.booking = { pin: request.pin, from: request.from, to: request.to };
          this.record(locker.number, 'book', `booked ${request.from} to ${request.to}`);
        }
        return answer(SIMULATOR_RESPONSE.ok, 'OK');
      }
    }
  }

  private openDoor(locker: SimulatedLocker): void {
    this.setDoor(locker.number, true);
    this.clearDoorTimer(locker.number);
    const timer = setTimeout(() => {
      this.doorTimers.delete(locker.number);
      this.setDoor(locker.number, false);
    }, this.doorOpenMs);
    timer.unref();
    this.doorTimers.set(locker.number, timer);
  }

  private clearDoorTimer(locker: number): void {
    const timer = this.doorTimers.get(locker);
    if (timer) clearTimeout(timer);
    this.doorTimers.delete(locker);
  }

  private record(locker: number, type: SimulatedHistoryEntry['type'], description: string): void {
    this.events.push({
      index: this.events.length + 1,
      locker,
      date: this.now().toISOString(),
      type,
      description,
    });
  }

  private requireLocker(number: number): SimulatedLocker {
    const entry = this.lockers.get(number);
    if (!entry) throw new Error(`simulator has no locker ${number}`);
    return entry;
  }

  // ── control API ─────────────────────────────────────────────────────────────────────────────
  //   GET  /_sim/state                      lockers, history, stats, current fault
  //   POST /_sim/fault  {kind, delayMs?, count?, operation?} | {kind: "none"}
  //   POST /_sim/door   {locker, open}
  //   POST /_sim/locker {locker, occupancy}
  //   POST /_sim/clock  {advanceMs}           moves the controller's clock forward
  private async handleControl(path: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
    const json = (status: number, value: unknown) =>
      void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    if (req.method === 'GET' && path === '/_sim/state') {
      return json(200, {
        lockers: this.allLockers(),
        history: this.history(),
        stats: this.stats,
        fault: this.fault,
      });
    }
    if (req.method !== 'POST') return json(405, { error: { code: 'sim/method', message: 'use POST' } });
    let body: Record<string, unknown>;
    try {
      body = JSON.parse((await readBody(req)) || '{}') as Record<string, unknown>;
    } catch {
      return json(400, { error: { code: 'sim/invalid_json', message: 'body must be JSON' } });
    }
    const bad = (message: string) => json(400, { error: { code: 'sim/invalid_request', message } });
    const count = typeof body.count === 'number' ? body.count : undefined;
    const only = controllerOperationSchema.safeParse(body.operation);
    const operation = only.success ? only.data : undefined;
    switch (path) {
      case '/_sim/fault':
        if (body.kind === 'none') this.setFault(null);
        else if (body.kind === 'fail' || body.kind === 'drop')
          this.setFault({ kind: body.kind }, count, operation);
        else if (body.kind === 'slow' && typeof body.delayMs === 'number') {
          this.setFault({ kind: 'slow', delayMs: body.delayMs }, count, operation);
        } else return bad('kind: none | fail | drop | slow (with delayMs); optional count and operation');
        return json(200, { fault: this.fault, remaining: this.faultRemaining });
      case '/_sim/door':
        if (
          typeof body.locker !== 'number' ||
          !this.lockers.has(body.locker) ||
          typeof body.open !== 'boolean'
        ) {
          return bad('locker (existing number) and open (boolean)');
        }
        this.setDoor(body.locker, body.open);
        return json(200, this.locker(body.locker));
      case '/_sim/locker': {
        const occupancy = ['free', 'booked', 'inhibited', 'unknown'].find((o) => o === body.occupancy);
        if (typeof body.locker !== 'number' || !this.lockers.has(body.locker) || !occupancy) {
          return bad('locker (existing number) and occupancy (free | booked | inhibited | unknown)');
        }
        this.setOccupancy(body.locker, occupancy as LockerOccupancy);
        return json(200, this.locker(body.locker));
      }
      case '/_sim/clock':
        if (typeof body.advanceMs !== 'number' || !Number.isFinite(body.advanceMs) || body.advanceMs < 0) {
          return bad('advanceMs (milliseconds, not negative)');
        }
        this.advanceClock(body.advanceMs);
        return json(200, { now: this.now().toISOString() });
      default:
        return json(404, { error: { code: 'sim/not_found', message: `no control endpoint ${path}` } });
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_REQUEST_BYTES) {
        req.destroy();
        reject(new Error('request too large'));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendXml(res: ServerResponse, body: string): void {
  res.writeHead(200, { 'content-type': 'application/xml; charset=utf-8' });
  res.end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
}

/** An element holding text, escaped. */
function leaf(name: string, value: string): string {
  return `<${name}>${escapeXml(value)}</${name}>`;
}

/** An element holding already built elements. */
function element(name: string, children: string): string {
  return `<${name}>${children}</${name}>`;
}

function escapeXml(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
