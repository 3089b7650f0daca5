// The bridge's durable memory (SQLite, WAL): the commands it received, and an outbox of results,
// events and snapshots waiting for the cloud to confirm delivery. Shared by the daemon and the CLI
// (both may open the file at once; WAL and a busy timeout make that safe).
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type {
  BridgeCommand,
  BufferedMessage,
  ResultMessage,
  UnsequencedMessage,
} from '@deposito/protocol/bridge/v1';

export const COMMAND_STATUSES = [
  'RECEIVED',
  'RUNNING',
  'RETRYING',
  'SUCCEEDED',
  'FAILED',
  'EXPIRED',
  'UNKNOWN',
] as const;
/** RECEIVED: stored, not yet run. RUNNING: sent to the controller. RETRYING: waiting to try again. */
export type CommandStatus = (typeof COMMAND_STATUSES)[number];
export type FinalStatus = ResultMessage['status'];

export type OutboxKind = 'result' | 'event' | 'snapshot';
export type UnsequencedResult = Omit<ResultMessage, 'seq'>;

export interface CommandRecord {
  id: string;
  command: BridgeCommand;
  status: CommandStatus;
  /** Epoch ms, UTC. */
  receivedAt: number;
  attempts: number;
  nextAttemptAt: number | null;
  executedAt: number | null;
  completedAt: number | null;
  result: UnsequencedResult | null;
  /** While set, an UNKNOWN outcome is checked against state polls until this instant. */
  reconcileUntil: number | null;
  lastError: string | null;
}

export interface OutboxItem {
  seq: number;
  kind: OutboxKind;
  createdAt: number;
  message: BufferedMessage;
}

export interface BufferStats {
  outbox: {
    results: number;
    events: number;
    snapshots: number;
    total: number;
    oldestCreatedAt: number | null;
  };
  commands: Record<CommandStatus, number>;
}

export interface BridgeBufferOptions {
  /** Outbox bound; past it the oldest snapshots go first. Results and events are never dropped. */
  maxOutboxItems?: number;
}

interface CommandRow {
  id: string;
  command_json: string;
  status: CommandStatus;
  received_at: number;
  attempts: number;
  next_attempt_at: number | null;
  executed_at: number | null;
  completed_at: number | null;
  result_json: string | null;
  reconcile_until: number | null;
  last_error: string | null;
}

interface OutboxRow {
  seq: number;
  kind: OutboxKind;
  created_at: number;
  message_json: string;
}

/** Forward-only schema steps; user_version counts how many ran. */
const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE IF NOT EXISTS commands (
    id TEXT PRIMARY KEY,
    op TEXT NOT NULL,
    command_json TEXT NOT NULL,
    status TEXT NOT NULL,
    received_at INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at INTEGER,
    executed_at INTEGER,
    completed_at INTEGER,
    result_json TEXT,
    reconcile_until INTEGER,
    last_error TEXT
  );
  CREATE INDEX IF NOT EXISTS commands_status ON commands (status, next_attempt_at);
  -- AUTOINCREMENT: a seq is never reused, even after the newest rows were acknowledged and deleted.
  CREATE TABLE IF NOT EXISTS outbox (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    kind TEXT NOT NULL CHECK (kind IN ('result', 'event', 'snapshot')),
    created_at INTEGER NOT NULL,
    message_json TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS outbox_kind ON outbox (kind, seq);
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  `,
  `
  -- Ids the cloud cancelled before this bridge received them: such a command is never run.
  CREATE TABLE IF NOT EXISTS cancelled_commands (
    id TEXT PRIMARY KEY,
    cancelled_at INTEGER NOT NULL
  );
  `,
];

export class BridgeBuffer {
  readonly maxOutboxItems: number;
  private readonly db: Database.Database;

  /**
   * Each SQL text prepared once: better-sqlite3 compiles anew on every prepare(), which was a quarter
   * of the buffer's time per command (store, run, finish, send, confirm: 0.41 → 0.30 ms here).
   * The texts are fixed but for the IN lists of listCommands and purge, a handful of lengths.
   */
  private readonly statements = new Map<string, Database.Statement>();

  private constructor(db: Database.Database, options: BridgeBufferOptions) {
    this.db = db;
    this.maxOutboxItems = options.maxOutboxItems ?? 10_000;
  }

  /** Opens (creating if needed) the buffer at `path`; ':memory:' for a throwaway one. */
  static open(path: string, options: BridgeBufferOptions = {}): BridgeBuffer {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    const db = new Database(path);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    const buffer = new BridgeBuffer(db, options);
    buffer.migrate();
    return buffer;
  }

  close(): void {
    if (this.db.open) this.db.close();
  }

  private statement(sql: string): Database.Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  /** Runs `work` atomically (nested calls become savepoints). */
  transaction<T>(work: () => T): T {
    return this.db.transaction(work)();
  }

  private migrate(): void {
    const version = this.db.pragma('user_version', { simple: true }) as number;
    for (let step = version; step < MIGRATIONS.length; step += 1) {
      this.db.transaction(() => {
        this.db.exec(MIGRATIONS[step]!);
        this.db.pragma(`user_version = ${step + 1}`);
      })();
    }
  }

  // ── commands ──────────────────────────────────────────────────────────────────────────────

  /** Stores a command unless its id is known; the stored record is returned either way. */
  receiveCommand(command: BridgeCommand, receivedAt: number): { record: CommandRecord; duplicate: boolean } {
    const inserted = this.statement(
      `INSERT INTO commands (id, op, command_json, status, received_at) VALUES (?, ?, ?, 'RECEIVED', ?)
         ON CONFLICT (id) DO NOTHING`,
    ).run(command.id, command.op, JSON.stringify(command), receivedAt);
    return { record: this.getCommand(command.id)!, duplicate: inserted.changes === 0 };
  }

  getCommand(id: string): CommandRecord | null {
    const row = this.statement('SELECT * FROM commands WHERE id = ?').get(id) as CommandRow | undefined;
    return row ? toCommandRecord(row) : null;
  }

  /** Recorded before the controller is called, so a crash mid-call is known to be UNKNOWN afterwards. */
  markRunning(id: string, at: number): void {
    this.statement(
      `UPDATE commands SET status = 'RUNNING', attempts = attempts + 1, executed_at = ?, next_attempt_at = NULL
         WHERE id = ?`,
    ).run(at, id);
  }

  scheduleRetry(id: string, nextAttemptAt: number, error: string): void {
    this.statement(
      `UPDATE commands SET status = 'RETRYING', next_attempt_at = ?, last_error = ? WHERE id = ?`,
    ).run(nextAttemptAt, error, id);
  }

  /** Records the final outcome and queues the result for the cloud, atomically; returns its seq. */
  finishCommand(result: UnsequencedResult, at: number, reconcileUntil: number | null = null): number {
    return this.db.transaction(() => {
      this.statement(
        `UPDATE commands SET status = ?, completed_at = ?, result_json = ?, reconcile_until = ?,
             next_attempt_at = NULL, last_error = COALESCE(?, last_error)
           WHERE id = ?`,
      ).run(
        result.status,
        at,
        JSON.stringify(result),
        reconcileUntil,
        result.error?.message ?? null,
        result.commandId,
      );
      return this.insertOutbox(result, at);
    })();
  }

  /** Commands waiting to run or whose retry time has come, oldest first. */
  commandsDue(now: number): CommandRecord[] {
    const rows = this.statement(
      `SELECT * FROM commands
         WHERE status = 'RECEIVED' OR (status = 'RETRYING' AND next_attempt_at <= ?)
         ORDER BY received_at, rowid`,
    ).all(now) as CommandRow[];
    return rows.map(toCommandRecord);
  }

  /** Commands not finished yet (waiting, retrying or at the controller), in the order received. */
  unfinishedCommands(): CommandRecord[] {
    const rows = this.statement(
      `SELECT * FROM commands WHERE status IN ('RECEIVED', 'RETRYING', 'RUNNING') ORDER BY received_at, rowid`,
    ).all() as CommandRow[];
    return rows.map(toCommandRecord);
  }

  /** When the earliest waiting retry is due, if any. */
  nextRetryAt(): number | null {
    const row = this.statement(
      `SELECT MIN(next_attempt_at) AS next FROM commands WHERE status = 'RETRYING'`,
    ).get() as { next: number | null };
    return row.next;
  }

  /** Commands that were at the controller when the process stopped. */
  interruptedCommands(): CommandRecord[] {
    const rows = this.statement(
      `SELECT * FROM commands WHERE status = 'RUNNING' ORDER BY received_at`,
    ).all() as CommandRow[];
    return rows.map(toCommandRecord);
  }

  /** UNKNOWN outcomes still being checked against state polls. */
  commandsToReconcile(): CommandRecord[] {
    const rows = this.statement(
      `SELECT * FROM commands WHERE status = 'UNKNOWN' AND reconcile_until IS NOT NULL ORDER BY received_at`,
    ).all() as CommandRow[];
    return rows.map(toCommandRecord);
  }

  stopReconciling(id: string): void {
    this.statement('UPDATE commands SET reconcile_until = NULL WHERE id = ?').run(id);
  }

  /** Makes every command waiting for a retry due now (technician's `queue retry`). */
  retryNow(now: number): number {
    return this.statement(`UPDATE commands SET next_attempt_at = ? WHERE status = 'RETRYING'`).run(now)
      .changes;
  }

  /** Forgets finished commands received before `before`: past that, a resent id would have expired anyway. */
  pruneCommands(before: number): number {
    this.statement('DELETE FROM cancelled_commands WHERE cancelled_at < ?').run(before);
    return this.statement(
      `DELETE FROM commands WHERE received_at < ? AND status IN ('SUCCEEDED', 'FAILED', 'EXPIRED', 'UNKNOWN')
           AND reconcile_until IS NULL`,
    ).run(before).changes;
  }

  /** Remembers that the cloud cancelled an id this bridge has not received (yet). */
  recordCancellation(id: string, at: number): void {
    this.statement(
      'INSERT INTO cancelled_commands (id, cancelled_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING',
    ).run(id, at);
  }

  wasCancelled(id: string): boolean {
    return this.statement('SELECT 1 FROM cancelled_commands WHERE id = ?').get(id) !== undefined;
  }

  listCommands(statuses: readonly CommandStatus[] = COMMAND_STATUSES, limit = 100): CommandRecord[] {
    const rows = this.statement(
      `SELECT * FROM commands WHERE status IN (${statuses.map(() => '?').join(',')})
         ORDER BY received_at DESC LIMIT ?`,
    ).all(...statuses, limit) as CommandRow[];
    return rows.map(toCommandRecord);
  }

  // ── outbox ────────────────────────────────────────────────────────────────────────────────

  /** Queues an item for the cloud and returns its seq. */
  enqueue(message: UnsequencedMessage, createdAt: number): number {
    return this.db.transaction(() => this.insertOutbox(message, createdAt))();
  }

  private insertOutbox(message: UnsequencedMessage, createdAt: number): number {
    const kind: OutboxKind = message.type;
    const { lastInsertRowid } = this.statement(
      'INSERT INTO outbox (kind, created_at, message_json) VALUES (?, ?, ?)',
    ).run(kind, createdAt, JSON.stringify(message));
    const { total } = this.statement('SELECT COUNT(*) AS total FROM outbox').get() as { total: number };
    if (total > this.maxOutboxItems) {
      this.statement(
        `DELETE FROM outbox WHERE seq IN (SELECT seq FROM outbox WHERE kind = 'snapshot' ORDER BY seq LIMIT ?)`,
      ).run(total - this.maxOutboxItems);
    }
    return Number(lastInsertRowid);
  }

  /** Items after `afterSeq`, in seq order. */
  pending(afterSeq = 0, limit = 500): OutboxItem[] {
    const rows = this.statement(
      'SELECT seq, kind, created_at, message_json FROM outbox WHERE seq > ? ORDER BY seq LIMIT ?',
    ).all(afterSeq, limit) as OutboxRow[];
    return rows.map((row) => ({
      seq: row.seq,
      kind: row.kind,
      createdAt: row.created_at,
      message: { ...(JSON.parse(row.message_json) as UnsequencedMessage), seq: row.seq } as BufferedMessage,
    }));
  }

  /** The cloud has stored these items: delete them. Returns how many were deleted. */
  acknowledge(seqs: readonly number[]): number {
    if (seqs.length === 0) return 0;
    const remove = this.statement('DELETE FROM outbox WHERE seq = ?');
    return this.db.transaction(() => seqs.reduce((n, seq) => n + remove.run(seq).changes, 0))();
  }

  /** Technician's purge: drops items of the given kinds without delivering them. */
  purge(kinds: readonly OutboxKind[]): number {
    if (kinds.length === 0) return 0;
    return this.statement(`DELETE FROM outbox WHERE kind IN (${kinds.map(() => '?').join(',')})`).run(
      ...kinds,
    ).changes;
  }

  stats(): BufferStats {
    const byKind = this.statement(
      'SELECT kind, COUNT(*) AS n, MIN(created_at) AS oldest FROM outbox GROUP BY kind',
    ).all() as { kind: OutboxKind; n: number; oldest: number }[];
    const count = (kind: OutboxKind) => byKind.find((k) => k.kind === kind)?.n ?? 0;
    const oldest = byKind.map((k) => k.oldest);
    const commands = Object.fromEntries(COMMAND_STATUSES.map((s) => [s, 0])) as Record<CommandStatus, number>;
    for (const row of this.statement('SELECT status, COUNT(*) AS n FROM commands GROUP BY status').all() as {
      status: CommandStatus;
      n: number;
    }[]) {
      commands[row.status] = row.n;
    }
    return {
      outbox: {
        results: count('result'),
        events: count('event'),
        snapshots: count('snapshot'),
        total: byKind.reduce((n, k) => n + k.n, 0),
        oldestCreatedAt: oldest.length ? Math.min(...oldest) : null,
      },
      commands,
    };
  }

  // ── small persistent values (last observed locker states) ───────────────────────────────

  getMeta<T>(key: string): T | null {
    const row = this.statement('SELECT value FROM meta WHERE key = ?').get(key) as
      { value: string } | undefined;
    return row ? (JSON.parse(row.value) as T) : null;
  }

  setMeta(key: string, value: unknown): void {
    this.statement(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
    ).run(key, JSON.stringify(value));
  }
}

function toCommandRecord(row: CommandRow): CommandRecord {
  return {
    id: row.id,
    command: JSON.parse(row.command_json) as BridgeCommand,
    status: row.status,
    receivedAt: row.received_at,
    attempts: row.attempts,
    nextAttemptAt: row.next_attempt_at,
    executedAt: row.executed_at,
    completedAt: row.completed_at,
    result: row.result_json ? (JSON.parse(row.result_json) as UnsequencedResult) : null,
    reconcileUntil: row.reconcile_until,
    lastError: row.last_error,
  };
}
