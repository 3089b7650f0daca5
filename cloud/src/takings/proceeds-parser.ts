// Reads kiosk answers without stopping the cloud. A Promotec answer may be up to
// PROMOTEC_MAX_RESPONSE_BYTES of XML chosen by whoever answers on the kiosk's address; parsing a
// hostile one on the main thread blocked every request for seconds and grew the heap by hundreds of
// megabytes. Answers above a small size are parsed in a worker thread with a bounded heap and a
// time limit; a worker that runs out of either is thrown away and the answer refused.
import { Worker } from 'node:worker_threads';
import { parseProceedsXml, type ProceedsParseResult } from './promotec-wire';

export interface ParseJob {
  id: number;
  text: string;
  month: string;
}

export interface ParseAnswer {
  id: number;
  result: ProceedsParseResult;
}

export interface ProceedsParserOptions {
  /** Answers up to this size are parsed on the caller's thread (a few milliseconds at most). */
  inlineMaxBytes?: number;
  /** Longest a worker may take over one answer. */
  timeoutMs?: number;
  /** The worker's heap limit, in megabytes. */
  maxHeapMb?: number;
  /** An idle worker is stopped after this long; the next large answer starts a new one. */
  idleMs?: number;
}

interface Pending {
  resolve: (result: ProceedsParseResult) => void;
  timer: NodeJS.Timeout;
}

const WORKER_URL = new URL('./proceeds-parser.worker-boot.mjs', import.meta.url);

export class ProceedsParser {
  private readonly inlineMaxBytes: number;
  private readonly timeoutMs: number;
  private readonly maxHeapMb: number;
  private readonly idleMs: number;
  private worker: Worker | null = null;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private idleTimer: NodeJS.Timeout | null = null;

  constructor(options: ProceedsParserOptions = {}) {
    this.inlineMaxBytes = options.inlineMaxBytes ?? 64 * 1024;
    this.timeoutMs = options.timeoutMs ?? 5_000;
    this.maxHeapMb = options.maxHeapMb ?? 96;
    this.idleMs = options.idleMs ?? 30_000;
  }

  /** Reads a Promotec answer for `month`; never throws. */
  parse(text: string, month: string): Promise<ProceedsParseResult> {
    if (text.length <= this.inlineMaxBytes) return Promise.resolve(parseProceedsXml(text, month));
    const worker = this.ensureWorker();
    const id = this.nextId++;
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.abandonWorker(`lettura oltre ${this.timeoutMs} ms`);
      }, this.timeoutMs);
      this.pending.set(id, { resolve, timer });
      worker.postMessage({ id, text, month } satisfies ParseJob);
    });
  }

  /** Stops the worker, if any; answers still being read are refused. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.abandonWorker('lettura interrotta');
    await worker?.terminate();
  }

  private ensureWorker(): Worker {
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER_URL, {
      resourceLimits: { maxOldGenerationSizeMb: this.maxHeapMb, maxYoungGenerationSizeMb: 16 },
    });
    worker.unref();
    worker.on('message', (answer: ParseAnswer) => this.settle(answer.id, answer.result));
    worker.on('error', (error) => {
      if (this.worker !== worker) return;
      const outOfMemory = (error as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      this.abandonWorker(
        outOfMemory ? 'risposta troppo complessa da leggere' : `lettura fallita: ${error.message}`,
      );
    });
    worker.on('exit', () => {
      if (this.worker === worker) this.abandonWorker('lettura interrotta');
    });
    this.worker = worker;
    return worker;
  }

  private settle(id: number, result: ProceedsParseResult): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(id);
    pending.resolve(result);
    if (this.pending.size === 0 && this.worker) {
      this.idleTimer = setTimeout(() => void this.close(), this.idleMs);
      this.idleTimer.unref();
    }
  }

  /** Refuses every answer in progress with `message` and throws the worker away. */
  private abandonWorker(message: string): void {
    const worker = this.worker;
    this.worker = null;
    if (this.idleTimer) {
      clearTimeout(this.idleTimer);
      this.idleTimer = null;
    }
    for (const [id, pending] of this.pending) {
      clearTimeout(pending.timer);
      this.pending.delete(id);
      pending.resolve({ ok: false, message });
    }
    if (worker) void worker.terminate();
  }
}

let shared: ProceedsParser | null = null;

/** The process's parser: one worker thread at most, shared by every kiosk client. */
export function sharedProceedsParser(): ProceedsParser {
  shared ??= new ProceedsParser();
  return shared;
}
