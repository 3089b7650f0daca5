import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BridgeCommand } from '@deposito/protocol/bridge/v1';
import { BridgeBuffer, type UnsequencedResult } from './bridge-buffer';

const at = '2030-01-01T00:00:00.000Z';
let counter = 0;
const event = (lockerId = 1) => ({
  type: 'event' as const,
  kind: 'door' as const,
  id: `00000000-0000-4000-8000-${String(++counter).padStart(12, '0')}`,
  occurredAt: at,
  lockerId,
  door: 'opened' as const,
});
const snapshot = () => ({ type: 'snapshot' as const, takenAt: at, lockers: [] });
const command = (id: string): BridgeCommand => ({
  type: 'command',
  id,
  op: 'inhibit',
  lockerId: 2,
  issuedAt: at,
  expiresAt: '2030-01-01T00:05:00.000Z',
});
const result = (commandId: string): UnsequencedResult => ({
  type: 'result',
  commandId,
  op: 'inhibit',
  ok: true,
  status: 'SUCCEEDED',
  attempts: 1,
  completedAt: at,
});

describe('BridgeBuffer', () => {
  let dir: string;
  let path: string;
  let buffer: BridgeBuffer;

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'bridge-buffer-'));
    path = join(dir, 'nested', 'bridge.db');
    buffer = BridgeBuffer.open(path, { maxOutboxItems: 5 });
  });
  afterEach(() => {
    buffer.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('uses WAL so the CLI can read while the daemon writes', () => {
    const second = BridgeBuffer.open(path);
    buffer.enqueue(event(), 1);
    expect(second.stats().outbox.events).toBe(1);
    second.close();
  });

  it('hands items out in seq order, with the seq inside each message', () => {
    const seqs = [buffer.enqueue(event(1), 1), buffer.enqueue(snapshot(), 2), buffer.enqueue(event(2), 3)];
    expect(seqs).toEqual([...seqs].sort((a, b) => a - b));
    const items = buffer.pending();
    expect(items.map((i) => i.seq)).toEqual(seqs);
    expect(items.map((i) => i.message.seq)).toEqual(seqs);
    expect(items.map((i) => i.kind)).toEqual(['event', 'snapshot', 'event']);
    expect(buffer.pending(seqs[0]).map((i) => i.seq)).toEqual(seqs.slice(1));
  });

  it('deletes only acknowledged items, and never reuses a seq', () => {
    const first = buffer.enqueue(event(), 1);
    const second = buffer.enqueue(event(), 2);
    expect(buffer.acknowledge([second, 9999])).toBe(1);
    expect(buffer.pending().map((i) => i.seq)).toEqual([first]);
    const third = buffer.enqueue(event(), 3);
    expect(third).toBeGreaterThan(second);
    buffer.acknowledge([first, third]);
    expect(buffer.pending()).toEqual([]);
  });

  it('keeps everything across a restart', () => {
    const seq = buffer.enqueue(event(), 1);
    buffer.receiveCommand(command('c-1'), 5);
    buffer.close();
    buffer = BridgeBuffer.open(path);
    expect(buffer.pending().map((i) => i.seq)).toEqual([seq]);
    expect(buffer.getCommand('c-1')?.status).toBe('RECEIVED');
    expect(buffer.enqueue(event(), 2)).toBeGreaterThan(seq);
  });

  it('drops the oldest snapshots first when full, never results or events', () => {
    const s1 = buffer.enqueue(snapshot(), 1);
    const e1 = buffer.enqueue(event(), 2);
    const s2 = buffer.enqueue(snapshot(), 3);
    const e2 = buffer.enqueue(event(), 4);
    const s3 = buffer.enqueue(snapshot(), 5);
    const e3 = buffer.enqueue(event(), 6); // 6 > 5: s1 goes
    expect(buffer.pending().map((i) => i.seq)).toEqual([e1, s2, e2, s3, e3]);
    buffer.receiveCommand(command('c-1'), 7);
    const r1 = buffer.finishCommand(result('c-1'), 8); // s2 goes
    const e4 = buffer.enqueue(event(), 9); // s3 goes
    const e5 = buffer.enqueue(event(), 10); // nothing left to drop: over the bound rather than losing an event
    expect(buffer.pending().map((i) => i.seq)).toEqual([e1, e2, e3, r1, e4, e5]);
    expect(s1).toBeLessThan(s2);
    expect(buffer.stats().outbox).toMatchObject({
      results: 1,
      events: 5,
      snapshots: 0,
      total: 6,
      oldestCreatedAt: 2,
    });
  });

  it('stores a command once and recognises a resent id', () => {
    const first = buffer.receiveCommand(command('c-7'), 10);
    expect(first.duplicate).toBe(false);
    const again = buffer.receiveCommand({ ...command('c-7'), lockerId: 9 }, 20);
    expect(again.duplicate).toBe(true);
    expect(again.record).toMatchObject({ receivedAt: 10, command: { lockerId: 2 } });
  });

  it('tracks a command from receipt to result', () => {
    buffer.receiveCommand(command('c-1'), 10);
    expect(buffer.commandsDue(10).map((c) => c.id)).toEqual(['c-1']);
    buffer.markRunning('c-1', 11);
    expect(buffer.commandsDue(11)).toEqual([]);
    expect(buffer.interruptedCommands().map((c) => c.id)).toEqual(['c-1']);
    buffer.scheduleRetry('c-1', 100, 'controller unreachable');
    expect(buffer.commandsDue(99)).toEqual([]);
    expect(buffer.retryNow(50)).toBe(1);
    expect(buffer.commandsDue(50).map((c) => c.id)).toEqual(['c-1']);
    buffer.markRunning('c-1', 51);
    const seq = buffer.finishCommand({ ...result('c-1'), attempts: 2 }, 52);
    expect(buffer.getCommand('c-1')).toMatchObject({
      status: 'SUCCEEDED',
      attempts: 2,
      executedAt: 51,
      completedAt: 52,
      result: { status: 'SUCCEEDED' },
      lastError: 'controller unreachable',
    });
    expect(buffer.pending()[0]).toMatchObject({ seq, message: { type: 'result', commandId: 'c-1', seq } });
    expect(buffer.stats().commands.SUCCEEDED).toBe(1);
  });

  it('keeps UNKNOWN outcomes under reconciliation, and prunes only settled old commands', () => {
    buffer.receiveCommand(command('c-1'), 10);
    buffer.receiveCommand(command('c-2'), 10);
    buffer.finishCommand({ ...result('c-1'), ok: false, status: 'UNKNOWN' }, 11, 1_000);
    buffer.finishCommand(result('c-2'), 11);
    expect(buffer.commandsToReconcile().map((c) => c.id)).toEqual(['c-1']);
    expect(buffer.pruneCommands(100)).toBe(1);
    buffer.stopReconciling('c-1');
    expect(buffer.commandsToReconcile()).toEqual([]);
    expect(buffer.pruneCommands(100)).toBe(1);
  });

  it('remembers ids the cloud cancelled before they arrived, and forgets them with old commands', () => {
    expect(buffer.wasCancelled('c-9')).toBe(false);
    buffer.recordCancellation('c-9', 50);
    buffer.recordCancellation('c-9', 60);
    expect(buffer.wasCancelled('c-9')).toBe(true);
    buffer.pruneCommands(40);
    expect(buffer.wasCancelled('c-9')).toBe(true);
    buffer.pruneCommands(100);
    expect(buffer.wasCancelled('c-9')).toBe(false);
  });

  it('upgrades a buffer written by the previous version in place, keeping what it holds', () => {
    const oldPath = join(dir, 'v1.db');
    const old = new Database(oldPath);
    old.exec(`
      CREATE TABLE commands (id TEXT PRIMARY KEY, op TEXT NOT NULL, command_json TEXT NOT NULL,
        status TEXT NOT NULL, received_at INTEGER NOT NULL, attempts INTEGER NOT NULL DEFAULT 0,
        next_attempt_at INTEGER, executed_at INTEGER, completed_at INTEGER, result_json TEXT,
        reconcile_until INTEGER, last_error TEXT);
      CREATE TABLE outbox (seq INTEGER PRIMARY KEY AUTOINCREMENT, kind TEXT NOT NULL,
        created_at INTEGER NOT NULL, message_json TEXT NOT NULL);
      CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
      PRAGMA user_version = 1;
    `);
    old
      .prepare(
        `INSERT INTO commands (id, op, command_json, status, received_at) VALUES (?, ?, ?, 'RECEIVED', 5)`,
      )
      .run('c-old', 'inhibit', JSON.stringify(command('c-old')));
    old.close();
    const upgraded = BridgeBuffer.open(oldPath);
    try {
      expect(upgraded.commandsDue(10).map((c) => c.id)).toEqual(['c-old']);
      upgraded.recordCancellation('c-new', 10);
      expect(upgraded.wasCancelled('c-new')).toBe(true);
    } finally {
      upgraded.close();
    }
    const check = new Database(oldPath);
    expect(check.pragma('user_version', { simple: true })).toBe(2);
    check.close();
  });

  it('purges only the kinds asked for', () => {
    buffer.enqueue(snapshot(), 1);
    buffer.enqueue(event(), 2);
    expect(buffer.purge(['snapshot'])).toBe(1);
    expect(buffer.pending().map((i) => i.kind)).toEqual(['event']);
  });
});
