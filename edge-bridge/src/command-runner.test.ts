import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseCloudToBridge, type BridgeCommand } from '@deposito/protocol/bridge/v1';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { buildCommand } from '../test/test-cloud';
import { BridgeBuffer } from './buffer/bridge-buffer';
import { systemClock } from './clock';
import { CommandRunner } from './command-runner';
import { ControllerUnreachableError } from './controller/controller-errors';
import type { ControllerClient } from './controller/controller-client';

// A cancel that arrives while an attempt is at the controller cannot call that attempt back; if it
// fails, the command must not be tried again (a door or PIN the cloud has given up on).

describe('CommandRunner, a cancel during an attempt', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it('lets the attempt finish and, when it fails, answers cancelled instead of retrying', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'runner-'));
    dirs.push(dir);
    const buffer = BridgeBuffer.open(path.join(dir, 'buffer.db'));
    let calls = 0;
    let release: () => void = () => undefined;
    const controller = {
      async book(_locker: number, _params: unknown, options?: { onSend?: () => void }) {
        calls += 1;
        options?.onSend?.();
        // The request is at the controller until the test lets it fail.
        await new Promise<void>((resolve) => (release = resolve));
        throw new ControllerUnreachableError('book', 'controller answered 503');
      },
    } as unknown as ControllerClient;
    const runner = new CommandRunner({
      buffer,
      controller,
      clock: systemClock,
      logger: pino({ level: 'silent' }),
      random: () => 0,
      retry: { baseMs: 10, capMs: 10 },
      reconcileWindowMs: 1_000,
      onResult: () => undefined,
    });
    const parsed = parseCloudToBridge(
      buildCommand({
        op: 'book',
        lockerId: 1,
        params: { pin: '482910', from: '2030-05-01T08:00:00.000Z', to: '2030-05-01T20:00:00.000Z' },
      }),
    );
    if (!parsed.ok || parsed.message.type !== 'command') throw new Error('not a command');
    const command: BridgeCommand = parsed.message;
    runner.receive(command);
    const pass = runner.drain();
    await expect.poll(() => calls).toBe(1);
    expect(buffer.getCommand(command.id)?.status).toBe('RUNNING');

    expect(runner.cancel(command.id)).toBe('already-sent');
    release();
    await pass;
    const record = buffer.getCommand(command.id)!;
    expect(record.status).toBe('EXPIRED');
    expect(record.result).toMatchObject({
      status: 'EXPIRED',
      error: { code: 'command/cancelled', message: expect.stringMatching(/while an attempt was under way/) },
    });
    // No retry follows, however long we wait.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await runner.drain();
    expect(calls).toBe(1);
    await runner.stop();
    buffer.close();
  });
});
