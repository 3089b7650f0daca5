// `edge-bridge inhibit <locker>`: inhibit a locker (out of service), directly on the controller.
import type { Command } from 'commander';
import { parseLockerNumber } from './cli-io';
import { runLockerAction } from './locker-action';
import type { CommandContext } from './cli-io';

export function registerInhibitCommand(program: Command, { io }: CommandContext): void {
  program
    .command('inhibit')
    .description(
      'inhibit a locker (out of service), directly on the controller; reported to the cloud as a technician action',
    )
    .argument('<locker>', 'locker number', parseLockerNumber)
    .action((locker: number, _options: unknown, command: Command) =>
      runLockerAction(io, command, 'inhibit', locker),
    );
}
