// `edge-bridge queue list|retry|purge`: the buffer seen and handled by a technician.
import type { Command } from 'commander';
import type { BridgeBuffer, OutboxKind } from '../buffer/bridge-buffer';
import { bufferPath, type BridgeConfig } from '../env';
import { CliError, EXIT, parsePositiveInt, requireConfig } from './cli-io';
import { formatJson, formatTable } from './output';
import { loadBuffer } from './lazy-modules';
import type { CommandContext } from './cli-io';

const KINDS: readonly OutboxKind[] = ['result', 'event', 'snapshot'];

async function withBuffer<T>(config: BridgeConfig, work: (buffer: BridgeBuffer) => T): Promise<T> {
  const { BridgeBuffer } = await loadBuffer();
  const buffer = BridgeBuffer.open(bufferPath(config), { maxOutboxItems: config.maxOutboxItems });
  try {
    return work(buffer);
  } finally {
    buffer.close();
  }
}

export function registerQueueCommand(program: Command, { io }: CommandContext): void {
  const queue = program.command('queue').description('inspect and handle the offline buffer');

  queue
    .command('list')
    .description('items waiting for the cloud, and commands not finished')
    .option('--limit <n>', 'at most this many of each', parsePositiveInt, 50)
    .option('--json', 'print JSON')
    .action(async (options: { limit: number; json?: boolean }, command: Command) => {
      const { config } = requireConfig(io, command);
      await withBuffer(config, (buffer) => {
        const items = buffer.pending(0, options.limit);
        const commands = buffer.listCommands(['RECEIVED', 'RUNNING', 'RETRYING', 'UNKNOWN'], options.limit);
        const stats = buffer.stats();
        if (options.json) {
          io.stdout(
            formatJson({
              outbox: items.map((i) => ({
                seq: i.seq,
                kind: i.kind,
                createdAt: new Date(i.createdAt).toISOString(),
                message: i.message,
              })),
              commands: commands.map((c) => ({
                id: c.id,
                op: c.command.op,
                status: c.status,
                attempts: c.attempts,
                receivedAt: new Date(c.receivedAt).toISOString(),
                nextAttemptAt: c.nextAttemptAt === null ? null : new Date(c.nextAttemptAt).toISOString(),
                lastError: c.lastError,
              })),
              totals: stats,
            }),
          );
          return;
        }
        io.stdout(`Waiting for the cloud: ${stats.outbox.total} item(s)\n`);
        if (items.length) {
          io.stdout(
            formatTable(
              ['SEQ', 'KIND', 'CREATED', 'WHAT'],
              items.map((i) => [i.seq, i.kind, new Date(i.createdAt).toISOString(), summarize(i.message)]),
            ),
          );
        }
        io.stdout(`\nCommands not finished: ${commands.length}\n`);
        if (commands.length) {
          io.stdout(
            formatTable(
              ['ID', 'OP', 'STATUS', 'ATTEMPTS', 'LAST ERROR'],
              commands.map((c) => [c.id, c.command.op, c.status, c.attempts, c.lastError ?? '']),
            ),
          );
        }
      });
    });

  queue
    .command('retry')
    .description(
      'make commands waiting to retry (controller unreachable) due now; the daemon runs them next cycle',
    )
    .action(async (_options: unknown, command: Command) => {
      const { config } = requireConfig(io, command);
      const n = await withBuffer(config, (buffer) => buffer.retryNow(Date.now()));
      io.stdout(
        n === 0
          ? 'No command is waiting for a retry.\n'
          : `${n} command(s) will be retried at the next cycle.\n`,
      );
    });

  queue
    .command('purge')
    .description('delete buffered items without delivering them (default: snapshots only)')
    .option('--kind <kinds...>', `what to delete: ${KINDS.join(', ')}`, ['snapshot'])
    .option('--force', 'required to delete results or events: the cloud will never receive them')
    .action(async (options: { kind: string[]; force?: boolean }, command: Command) => {
      const unknown = options.kind.filter((k) => !KINDS.includes(k as OutboxKind));
      if (unknown.length)
        throw new CliError(`unknown kind ${unknown.join(', ')}; use ${KINDS.join(', ')}`, EXIT.usage);
      const kinds = options.kind as OutboxKind[];
      if (kinds.some((k) => k !== 'snapshot') && !options.force) {
        throw new CliError(
          'results and events are what the cloud needs to know; add --force to delete them anyway',
          EXIT.usage,
        );
      }
      const { config } = requireConfig(io, command);
      const n = await withBuffer(config, (buffer) => buffer.purge(kinds));
      io.stdout(`Deleted ${n} buffered item(s) (${kinds.join(', ')}).\n`);
    });
}

function summarize(message: ReturnType<BridgeBuffer['pending']>[number]['message']): string {
  switch (message.type) {
    case 'result':
      return `${message.op} ${message.commandId}: ${message.status}${message.reconciled ? ' (reconciled)' : ''}`;
    case 'snapshot':
      return `${message.lockers.length} lockers at ${message.takenAt}`;
    case 'event':
      if (message.kind === 'door') return `locker ${message.lockerId} door ${message.door}`;
      if (message.kind === 'state-change')
        return `locker ${message.lockerId} ${message.from} → ${message.to}`;
      return `locker ${message.lockerId} technician ${message.action}${message.ok ? '' : ' (failed)'}`;
  }
}
