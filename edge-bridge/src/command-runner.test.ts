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

// Issue 19, item 3: a bridge frozen with an open in its socket wakes up after the cloud dropped the
// connection and cancelled the open, with no way left to tell it. An open runs only once the cloud
// answers on the link (its answer comes after any cancel it sent first).

describe('CommandRunner, an open and the link it came on', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  function runnerWith(confirmLink: () => Promise<boolean>) {
    const dir = mkdtempSync(path.join(tmpdir(), 'runner-'));
    dirs.push(dir);
    const buffer = BridgeBuffer.open(path.join(dir, 'buffer.db'));
    const opened: number[] = [];
    const controller = {
      async open(locker: number, options?: { onSend?: () => void }) {
        options?.onSend?.();
        opened.push(locker);
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
      confirmLink,
    });
    const parsed = parseCloudToBridge(buildCommand({ op: 'open', lockerId: 3 }));
    if (!parsed.ok || parsed.message.type !== 'command') throw new Error('not a command');
    return { buffer, runner, opened, command: parsed.message };
  }

  it('does not send an open when the cloud no longer answers on the link', async () => {
    const { buffer, runner, opened, command } = runnerWith(async () => false);
    runner.receive(command);
    await runner.drain();
    expect(opened).toEqual([]);
    expect(buffer.getCommand(command.id)?.result).toMatchObject({
      status: 'EXPIRED',
      error: { code: 'command/cancelled', message: expect.stringMatching(/link to the cloud was lost/) },
    });
    await runner.stop();
    buffer.close();
  });

  it('does not send an open cancelled before the cloud answered on the link', async () => {
    let answer: (alive: boolean) => void = () => undefined;
    const { buffer, runner, opened, command } = runnerWith(
      () => new Promise<boolean>((resolve) => (answer = resolve)),
    );
    runner.receive(command);
    const pass = runner.drain();
    // The cancel was in the socket before the pong.
    expect(runner.cancel(command.id)).toBe('cancelled');
    answer(true);
    await pass;
    expect(opened).toEqual([]);
    expect(buffer.getCommand(command.id)?.result).toMatchObject({
      status: 'EXPIRED',
      error: { code: 'command/cancelled' },
    });
    await runner.stop();
    buffer.close();
  });

  it('sends an open once the cloud has answered on the link', async () => {
    const { buffer, runner, opened, command } = runnerWith(async () => true);
    runner.receive(command);
    await runner.drain();
    expect(opened).toEqual([3]);
    expect(buffer.getCommand(command.id)?.status).toBe('SUCCEEDED');
    await runner.stop();
    buffer.close();
  });
});
