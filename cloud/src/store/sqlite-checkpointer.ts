// Copies the SQLite store's write-ahead log into its file on a thread of its own. SQLite does it on
// the connection that commits once the log passes 1,000 pages: there it is a copy of the new pages
// and a sync of the file inside the commit of whichever request came next, with the event loop
// stopped meanwhile (under a load of holds, 650 of the 1,130 µs each commit took).
import { statSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const WORKER_URL = new URL('./sqlite-checkpoint.worker.mjs', import.meta.url);

/**
 * States shared with the thread (`Int32Array` of one element, 0 while it runs), handed to it with
 * its data so that both sides name them from here.
 */
const STATES = { STOPPING: 1, STOPPED: 2 } as const;

/** SQLite's own threshold, in pages: what the committing connection checkpoints at without a thread. */
export const SQLITE_AUTOCHECKPOINT_PAGES = 1_000;
/** While the thread runs, the connection checkpoints itself only past this (it fell far behind). */
export const BACKSTOP_AUTOCHECKPOINT_PAGES = 10_000;

export interface SqliteCheckpointerOptions {
  /** How often the size of the log is looked at until the thread is started. */
  watchEveryMs?: number;
  /** The thread starts once the log is this large: a store that writes little never needs one. */
  startAtLogBytes?: number;
  /** How often the thread checkpoints while the log is all in the file. */
  intervalMs?: number;
  /** How soon it checkpoints again while the log still has frames the file lacks. */
  catchUpMs?: number;
  /** Longest `stop()` waits for the thread to close its connection. */
  stopWaitMs?: number;
}

function logBytes(filename: string): number {
  return statSync(`${filename}-wal`, { throwIfNoEntry: false })?.size ?? 0;
}

/**
 * The checkpoint thread of one SQLite file. `setAutocheckpoint` sets the main connection's own
 * threshold: raised to the backstop while the thread runs, SQLite's again when it stops or fails.
 */
export class SqliteCheckpointer {
  private worker: Worker | null = null;
  private readonly state = new Int32Array(new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT));
  private readonly watch: NodeJS.Timeout;
  private readonly intervalMs: number;
  private readonly catchUpMs: number;
  private readonly stopWaitMs: number;

  constructor(
    private readonly filename: string,
    private readonly setAutocheckpoint: (pages: number) => void,
    options: SqliteCheckpointerOptions = {},
  ) {
    this.intervalMs = options.intervalMs ?? 100;
    this.catchUpMs = options.catchUpMs ?? 2;
    this.stopWaitMs = options.stopWaitMs ?? 2_000;
    const startAtLogBytes = options.startAtLogBytes ?? 1024 * 1024;
    this.watch = setInterval(() => {
      if (logBytes(filename) < startAtLogBytes) return;
      clearInterval(this.watch);
      this.start();
    }, options.watchEveryMs ?? 1_000);
    this.watch.unref();
  }

  /** Whether the thread is running (started and neither stopped nor failed). */
  get running(): boolean {
    return this.worker !== null;
  }

  /**
   * Stops the thread and waits until its connection is closed, so that the caller's close is the
   * file's last (SQLite then checkpoints everything and removes the log). Synchronous, as closing a
   * better-sqlite3 connection is.
   */
  stop(): void {
    clearInterval(this.watch);
    const worker = this.worker;
    if (!worker) return;
    this.worker = null;
    Atomics.store(this.state, 0, STATES.STOPPING);
    worker.postMessage('stop');
    Atomics.wait(this.state, 0, STATES.STOPPING, this.stopWaitMs);
    if (Atomics.load(this.state, 0) !== STATES.STOPPED) void worker.terminate();
    this.setAutocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
  }

  private start(): void {
    const worker = new Worker(WORKER_URL, {
      workerData: {
        filename: this.filename,
        intervalMs: this.intervalMs,
        catchUpMs: this.catchUpMs,
        state: this.state,
        states: STATES,
      },
    });
    worker.unref();
    worker.on('error', () => this.failed(worker));
    worker.on('exit', () => this.failed(worker));
    this.worker = worker;
    this.setAutocheckpoint(BACKSTOP_AUTOCHECKPOINT_PAGES);
  }

  /** The thread ended without being asked: the connection checkpoints itself again. */
  private failed(worker: Worker): void {
    if (this.worker !== worker) return;
    this.worker = null;
    this.setAutocheckpoint(SQLITE_AUTOCHECKPOINT_PAGES);
  }
}
