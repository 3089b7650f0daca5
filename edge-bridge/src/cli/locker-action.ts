// Shared by `open`, `inhibit` and `unbook`: acts on the controller directly, then records what the
// technician did in the buffer so the running daemon reports it to the cloud.
import { randomUUID } from 'node:crypto';
import type { Command } from 'commander';
import { ControllerClient } from '../controller/controller-client';
import { ControllerError } from '../controller/controller-errors';
import { bufferPath } from '../env';
import { CliError, parseLockerNumber, requireConfig, type CliIo } from './cli-io';
import { loadBuffer } from './lazy-modules';

export type LockerAction = 'open' | 'inhibit' | 'unbook';

const DONE: Record<LockerAction, string> = {
  open: 'opened',
  inhibit: 'inhibited',
  unbook: 'released (free)',
};

export async function runLockerAction(
  io: CliIo,
  command: Command,
  action: LockerAction,
  locker: number,
): Promise<void> {
  const { config } = requireConfig(io, command);
  const controller = new ControllerClient(config.controller);
  let failure: ControllerError | null = null;
  try {
    await controller[action](locker);
  } catch (error) {
    if (!(error instanceof ControllerError)) throw error;
    failure = error;
  }
  const { BridgeBuffer } = await loadBuffer();
  const buffer = BridgeBuffer.open(bufferPath(config), { maxOutboxItems: config.maxOutboxItems });
  try {
    const now = Date.now();
    buffer.enqueue(
      {
        type: 'event',
        kind: 'technician-action',
        id: randomUUID(),
        occurredAt: new Date(now).toISOString(),
        lockerId: locker,
        action,
        ok: failure === null,
        ...(failure ? { error: { code: failure.code, message: failure.message.slice(0, 2000) } } : {}),
      },
      now,
    );
  } finally {
    buffer.close();
  }
  if (failure) {
    const hint =
      failure.outcome === 'UNKNOWN'
        ? ' (the controller may still have done it: check with `edge-bridge state`)'
        : '';
    throw new CliError(`${failure.message}${hint}`);
  }
  io.stdout(`Locker ${locker} ${DONE[action]}.\n`);
}

/** `edge-bridge <action> <locker>`: the action on the controller, reported as a technician's. */
export function registerLockerActionCommand(
  program: Command,
  io: CliIo,
  action: LockerAction,
  description: string,
): void {
  program
    .command(action)
    .description(`${description}, directly on the controller; reported to the cloud as a technician action`)
    .argument('<locker>', 'locker number', parseLockerNumber)
    .action((locker: number, _options: unknown, command: Command) =>
      runLockerAction(io, command, action, locker),
    );
}
