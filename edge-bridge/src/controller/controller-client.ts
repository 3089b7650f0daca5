// Talks to one locker controller: form-encoded POST, XML answer, one request at a time.
import { request, type Dispatcher } from 'undici';
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
  ControllerRejectedError,
  ControllerServerError,
  ControllerTimeoutError,
  ControllerUnreachableError,
} from './controller-errors';
import { parseControllerXml } from './controller-xml';

export interface ControllerClientOptions {
  recipient: string;
  port: number;
  key: string;
  mastercode: string;
  /** Per request, from the moment it is sent (time spent queued does not count). */
  timeoutMs?: number;
  maxResponseBytes?: number;
  dispatcher?: Dispatcher;
}

export interface HistoryQuery {
  /** ISO 8601 UTC. */
  from: string;
  to: string;
  locker?: number;
  index?: number;
}

type AnswerOf<O extends ControllerOperation> = Extract<ControllerAnswer, { operation: O }>;

/** Requests to one controller run strictly one after another, across every client in the process. */
class SerialQueue {
  private tail: Promise<unknown> = Promise.resolve();
  waiting = 0;

  run<T>(task: () => Promise<T>): Promise<T> {
    this.waiting += 1;
    const next = this.tail.then(
      () => task(),
      () => task(),
    );
    this.tail = next.then(
      () => undefined,
      () => undefined,
    );
    return next.finally(() => {
      this.waiting -= 1;
    });
  }
}

const queues = new Map<string, SerialQueue>();

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export class ControllerClient {
  readonly timeoutMs: number;
  private readonly maxResponseBytes: number;
  private readonly queue: SerialQueue;
  private latencyMs: number | null = null;

  constructor(private readonly options: ControllerClientOptions) {
    this.timeoutMs = options.timeoutMs ?? CONTROLLER_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? CONTROLLER_MAX_RESPONSE_BYTES;
    const id = `${options.recipient}:${options.port}`;
    let queue = queues.get(id);
    if (!queue) {
      queue = new SerialQueue();
      queues.set(id, queue);
    }
    this.queue = queue;
  }

  /** Duration of the last request that got an HTTP answer, in ms. */
  get lastLatencyMs(): number | null {
    return this.latencyMs;
  }

  /** Requests waiting for or holding this controller. */
  get pendingRequests(): number {
    return this.queue.waiting;
  }

  async getLockersState(): Promise<ControllerLocker[]> {
    return (await this.call({ operation: 'getLockersState' })).lockers;
  }

  async history(query: HistoryQuery): Promise<ControllerHistoryEntry[]> {
    const answer = await this.call({
      operation: 'history',
      startDate: query.from,
      endDate: query.to,
      index: query.index ?? 0,
      ...(query.locker === undefined ? {} : { locker: query.locker }),
    });
    return answer.entries;
  }

  async open(locker: number): Promise<void> {
    await this.call({ operation: 'open', locker });
  }

  async inhibit(locker: number): Promise<void> {
    await this.call({ operation: 'inhibit', locker });
  }

  async unbook(locker: number): Promise<void> {
    await this.call({ operation: 'unbook', locker });
  }

  async book(locker: number, booking: { pin: string; from: string; to: string }): Promise<void> {
    await this.call({ operation: 'book', locker, ...booking });
  }

  /** Sends one request and returns its successful answer; throws a ControllerError otherwise. */
  call<R extends ControllerRequest>(req: R): Promise<AnswerOf<R['operation']>> {
    return this.queue.run(async () => {
      const answer = await this.send(req);
      if (answer.response !== CONTROLLER_SUCCESS) {
        throw new ControllerRejectedError(req.operation, answer.response, answer.description);
      }
      return answer as AnswerOf<R['operation']>;
    });
  }

  private async send(req: ControllerRequest): Promise<ControllerAnswer> {
    const { operation } = req;
    const { recipient, port, key, mastercode } = this.options;
    const body = new URLSearchParams(controllerRequestFields({ key, mastercode }, req)).toString();
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.timeoutMs);
    const started = performance.now();
    try {
      const response = await request(controllerUrl(recipient, port, operation), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/xml, text/xml' },
        body,
        signal: abort.signal,
        // A fresh connection per request: a reused socket the controller silently dropped would
        // turn a request it never saw into an "unknown outcome".
        reset: true,
        headersTimeout: this.timeoutMs + 1_000,
        bodyTimeout: this.timeoutMs + 1_000,
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
      });
      const text = await this.readBody(operation, response.body, response.headers['content-length']);
      this.latencyMs = Math.round(performance.now() - started);
      if (response.statusCode >= 500) throw new ControllerServerError(operation, response.statusCode);
      if (response.statusCode !== 200) throw new ControllerHttpError(operation, response.statusCode);
      return parseControllerXml(text, operation, this.maxResponseBytes);
    } catch (error) {
      if (timedOut) throw new ControllerTimeoutError(operation, this.timeoutMs);
      if (error instanceof ControllerError) throw error;
      const code = errorCode(error);
      if (code && UNREACHABLE_CODES.has(code)) {
        throw new ControllerUnreachableError(
          operation,
          `controller ${recipient}:${port} unreachable (${code})`,
          {
            cause: error,
          },
        );
      }
      throw new ControllerConnectionLostError(
        operation,
        `connection to controller ${recipient}:${port} lost during ${operation} (${code ?? describe(error)})`,
        { cause: error },
      );
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBody(
    operation: ControllerOperation,
    body: Dispatcher.ResponseData['body'],
    contentLength: string | string[] | undefined,
  ): Promise<string> {
    const tooLarge = () =>
      new ControllerMalformedResponseError(
        operation,
        `controller answer larger than ${this.maxResponseBytes} bytes`,
      );
    if (typeof contentLength === 'string' && Number(contentLength) > this.maxResponseBytes) {
      body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > this.maxResponseBytes) {
        body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && code !== 'UND_ERR_SOCKET') return code;
    if (typeof code === 'string' && !(current as { cause?: unknown }).cause) return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
