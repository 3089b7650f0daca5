import type { ProcessLogEntry } from '@deposito/protocol';

/** Lines kept for the "PM2 Logs" screen; older ones are dropped first. */
export const DEFAULT_PROCESS_LOG_LINES = 1000;
const MAX_LINE_CHARS = 16_000;

/**
 * The server's own recent log lines, in memory. It is a pino destination: add it to the logger's
 * multistream beside stdout and every line pino writes lands here too, bounded in count and size.
 */
export class ProcessLogRing {
  readonly #lines: string[] = [];
  #partial = '';

  constructor(
    readonly processName = 'deposito-cloud',
    private readonly capacity = DEFAULT_PROCESS_LOG_LINES,
  ) {}

  /** pino calls this with one or more newline-terminated JSON lines. */
  write(chunk: string | Uint8Array): boolean {
    const text = this.#partial + (typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    const parts = text.split('\n');
    this.#partial = (parts.pop() ?? '').slice(0, MAX_LINE_CHARS);
    for (const line of parts) {
      if (line.trim() === '') continue;
      this.#lines.push(line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS - 1)}…` : line);
      if (this.#lines.length > this.capacity) this.#lines.splice(0, this.#lines.length - this.capacity);
    }
    return true;
  }

  /** Newest first, at most `limit`. */
  entries(limit = this.capacity): ProcessLogEntry[] {
    return this.#lines
      .slice(-limit)
      .reverse()
      .map((log) => ({ name: this.processName, log }));
  }
}

/** This process's own lines: main.ts adds the ring to the logger's destinations, "PM2 Logs" reads it. */
export const processLogRing = new ProcessLogRing();
