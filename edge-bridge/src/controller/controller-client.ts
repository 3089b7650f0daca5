// Talks to one locker controller: form-encoded POST, XML answer, one request at a time. Actions on
// lockers go before reads, and a request whose deadline passes while it waits is never sent.
import type { IncomingMessage } from 'node:http';
import {
  CONTROLLER_MAX_RESPONSE_BYTES,
  CONTROLLER_SUCCESS,
  CONTROLLER_TIMEOUT_MS,
  controllerRequestFields,
  controllerUrl,
  type ControllerAnswer,
  type ControllerHistoryEntry,
  type ControllerLocker,
  type ControllerOperation,
  type ControllerRequest,
} from '@deposito/protocol/controller/index';
import {
  ControllerConnectionLostError,
  ControllerError,
  ControllerHttpError,
  ControllerMalformedResponseError,
  ControllerNotSentError,
  ControllerRejectedError,
  ControllerServerError,
  ControllerTimeoutError,
  ControllerUnreachableError,
} from './controller-errors';
import { parseControllerXml } from './controller-xml';
import { systemClock, type Clock, type TimerHandle } from '../clock';
import { httpCall, readText } from '../http-client';

export interface ControllerClientOptions {
  recipient: string;
  port: number;
  key: string;
  mastercode: string;
  /** Per request, from the moment it is sent (time spent queued does not count). */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** Judges call deadlines; the daemon passes its own, so expiry is one clock's verdict. */
  clock?: Clock;
}

/** How one call may be dropped before it reaches the controller. */
export interface CallOptions {
  /**
   * Epoch ms by the client's clock: a request whose turn comes at or after this instant is not sent
   * (ControllerNotSentError 'deadline'), and one still waiting when it passes is dropped at once.
   */
  deadline?: number;
  /** Aborting while the request waits takes it out of the queue (ControllerNotSentError 'cancelled'). */
  signal?: AbortSignal;
  /** Called synchronously just before the request is sent: after this, it may have been acted on. */
  onSend?: () => void;
}

export interface ControllerExchange {
  /** Epoch ms, when the request ended. */
  at: number;
  /** The controller answered (even with a refusal); false on a timeout, lost connection or bad answer. */
  answered: boolean;
  error: string | null;
}

export interface HistoryQuery {
  /** ISO 8601 UTC. */
  from: string;
  to: string;
  locker?: number;
  index?: number;
}

type AnswerOf<O extends ControllerOperation> = Extract<ControllerAnswer, { operation: O }>;

/** Locker actions (operators' doors, bookings) go before reads (state polls, history). */
const ACTION_OPERATIONS: ReadonlySet<ControllerOperation> = new Set(['open', 'book', 'unbook', 'inhibit']);

interface QueuedRequest {
  urgent: boolean;
  /** Called when its turn comes; must call `release` once the controller is free again. */
  start(): void;
}

/**
 * Requests to one controller run strictly one after another, across every client in the process:
 * the one waiting longest among the actions, else among the reads. A running request is never
 * interrupted, so an action waits at most for the request in progress.
 */
class ControllerQueue {
  private readonly actions: QueuedRequest[] = [];
  private readonly reads: QueuedRequest[] = [];
  private busy = false;

  get size(): number {
    return this.actions.length + this.reads.length + (this.busy ? 1 : 0);
  }

  add(request: QueuedRequest): void {
    (request.urgent ? this.actions : this.reads).push(request);
    this.next();
  }

  /** Takes a waiting request out; false if it already started (or was never queued). */
  remove(request: QueuedRequest): boolean {
    const list = request.urgent ? this.actions : this.reads;
    const index = list.indexOf(request);
    if (index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  release(): void {
    this.busy = false;
    this.next();
  }

  private next(): void {
    if (this.busy) return;
    const request = this.actions.shift() ?? this.reads.shift();
    if (!request) return;
    this.busy = true;
    request.start();
  }
}

const queues = new Map<string, ControllerQueue>();

/** setTimeout fires at once for a longer delay. */
const MAX_TIMER_MS = 2 ** 31 - 1;

const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EHOSTUNREACH', 'ENETUNREACH', 'EAI_AGAIN']);

export class ControllerClient {
  readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly queue: ControllerQueue;
  private readonly clock: Clock;
  private latencyMs: number | null = null;
  private exchange: ControllerExchange | null = null;

  constructor(private readonly options: ControllerClientOptions) {
    this.timeoutMs = options.timeoutMs ?? CONTROLLER_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? CONTROLLER_MAX_RESPONSE_BYTES;
    this.clock = options.clock ?? systemClock;
    const id = `${options.recipient}:${options.port}`;
    let queue = queues.get(id);
    if (!queue) {
      queue = new ControllerQueue();
      queues.set(id, queue);
    }
    this.queue = queue;
  }

  /** Duration of the last request that got an HTTP answer, in ms. */
  get lastLatencyMs(): number | null {
    return this.latencyMs;
  }

  /** How this client's last sent request ended, or null before the first one ended. */
  get lastExchange(): ControllerExchange | null {
    return this.exchange;
  }

  /** Requests waiting for or holding this controller. */
  get pendingRequests(): number {
    return this.queue.size;
  }

  async getLockersState(options?: CallOptions): Promise<ControllerLocker[]> {
    return (await this.call({ operation: 'getLockersState' }, options)).lockers;
  }

  async history(query: HistoryQuery, options?: CallOptions): Promise<ControllerHistoryEntry[]> {
    const answer = await this.call(
      {
        operation: 'history',
        startDate: query.from,
        endDate: query.to,
        index: query.index ?? 0,
        ...(query.locker === undefined ? {} : { locker: query.locker }),
      },
      options,
    );
    return answer.entries;
  }

  async open(locker: number, options?: CallOptions): Promise<void> {
    await this.call({ operation: 'open', locker }, options);
  }

  async inhibit(locker: number, options?: CallOptions): Promise<void> {
    await this.call({ operation: 'inhibit', locker }, options);
  }

  async unbook(locker: number, options?: CallOptions): Promise<void> {
    await this.call({ operation: 'unbook', locker }, options);
  }

  async book(
    locker: number,
    booking: { pin: string; from: string; to: string },
    options?: CallOptions,
  ): Promise<void> {
    await this.call({ operation: 'book', locker, ...booking }, options);
  }

  /**
   * Queues one request and returns its successful answer; throws a ControllerError otherwise.
   * The deadline and the abort signal are checked when the request's turn comes, synchronously
   * before it is sent: a request that was dropped was certainly not sent.
   */
  call<R extends ControllerRequest>(req: R, options: CallOptions = {}): Promise<AnswerOf<R['operation']>> {
    const { deadline, signal, onSend } = options;
    const { operation } = req;
    return new Promise<AnswerOf<R['operation']>>((resolve, reject) => {
      let deadlineTimer: TimerHandle | null = null;
      const stopWatching = () => {
        if (deadlineTimer !== null) this.clock.clearTimeout(deadlineTimer);
        deadlineTimer = null;
        signal?.removeEventListener('abort', onAbort);
      };
      const dropWaiting = (reason: 'deadline' | 'cancelled') => {
        if (!this.queue.remove(queued)) return;
        stopWatching();
        reject(new ControllerNotSentError(operation, reason));
      };
      const onAbort = () => dropWaiting('cancelled');
      const queued: QueuedRequest = {
        urgent: ACTION_OPERATIONS.has(operation),
        start: () => {
          stopWatching();
          // The last instant to decide: nothing below this line waits before the request leaves.
          const refusal = signal?.aborted
            ? 'cancelled'
            : deadline !== undefined && this.clock.now() >= deadline
              ? 'deadline'
              : null;
          if (refusal) {
            reject(new ControllerNotSentError(operation, refusal));
            this.queue.release();
            return;
          }
          try {
            onSend?.();
          } catch (error) {
            reject(error instanceof Error ? error : new Error(String(error)));
            this.queue.release();
            return;
          }
          this.send(req)
            .then((answer) => {
              if (answer.response !== CONTROLLER_SUCCESS) {
                throw new ControllerRejectedError(operation, answer.response, answer.description);
              }
              return answer as AnswerOf<R['operation']>;
            })
            .then(resolve, reject)
            .finally(() => this.queue.release());
        },
      };
      if (signal?.aborted) return reject(new ControllerNotSentError(operation, 'cancelled'));
      if (deadline !== undefined) {
        const left = deadline - this.clock.now();
        if (left <= 0) return reject(new ControllerNotSentError(operation, 'deadline'));
        // Past a timer's range (about 24 days) the check when its turn comes is enough.
        if (left <= MAX_TIMER_MS) deadlineTimer = this.clock.setTimeout(() => dropWaiting('deadline'), left);
      }
      signal?.addEventListener('abort', onAbort, { once: true });
      this.queue.add(queued);
    });
  }

  private async send(req: ControllerRequest): Promise<ControllerAnswer> {
    const { operation } = req;
    const { recipient, port, key, mastercode } = this.options;
    const body = new URLSearchParams(controllerRequestFields({ key, mastercode }, req)).toString();
    const abort = new AbortController();
    let timedOut = false;
    // Until the connection is made the controller cannot have seen the request: a timeout then is
    // "unreachable" (not sent, safe to retry), after it an unknown outcome.
    let connected = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.timeoutMs);
    const started = performance.now();
    try {
      // A fresh connection per request: a reused socket the controller silently dropped would
      // turn a request it never saw into an "unknown outcome".
      const response = await httpCall(controllerUrl(recipient, port, operation), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/xml, text/xml' },
        body,
        signal: abort.signal,
        onConnect: () => {
          connected = true;
        },
      });
      const text = await this.readBody(operation, response.body, response.headers['content-length']);
      this.latencyMs = Math.round(performance.now() - started);
      if (response.statusCode >= 500) throw new ControllerServerError(operation, response.statusCode);
      if (response.statusCode !== 200) throw new ControllerHttpError(operation, response.statusCode);
      const answer = parseControllerXml(text, operation, this.maxResponseBytes);
      this.exchange = { at: this.clock.now(), answered: true, error: null };
      return answer;
    } catch (error) {
      const failure = this.classify(operation, error, timedOut, connected);
      this.exchange = { at: this.clock.now(), answered: false, error: failure.message };
      throw failure;
    } finally {
      clearTimeout(timer);
    }
  }

  private classify(
    operation: ControllerOperation,
    error: unknown,
    timedOut: boolean,
    connected: boolean,
  ): ControllerError {
    const { recipient, port } = this.options;
    if (timedOut && !connected) {
      return new ControllerUnreachableError(
        operation,
        `controller ${recipient}:${port} unreachable (no connection within ${this.timeoutMs} ms)`,
        { cause: error },
      );
    }
    if (timedOut) return new ControllerTimeoutError(operation, this.timeoutMs);
    if (error instanceof ControllerError) return error;
    const code = errorCode(error);
    if (code && UNREACHABLE_CODES.has(code)) {
      return new ControllerUnreachableError(
        operation,
        `controller ${recipient}:${port} unreachable (${code})`,
        {
          cause: error,
        },
      );
    }
    return new ControllerConnectionLostError(
      operation,
      `connection to controller ${recipient}:${port} lost during ${operation} (${code ?? describe(error)})`,
      { cause: error },
    );
  }

  private async readBody(
    operation: ControllerOperation,
    body: IncomingMessage,
    contentLength: string | undefined,
  ): Promise<string> {
    const tooLarge = () =>
      new ControllerMalformedResponseError(
        operation,
        `controller answer larger than ${this.maxResponseBytes} bytes`,
      );
    if (contentLength !== undefined && Number(contentLength) > this.maxResponseBytes) {
      body.destroy();
      throw tooLarge();
    }
    return readText(body, this.maxResponseBytes, tooLarge);
  }
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
