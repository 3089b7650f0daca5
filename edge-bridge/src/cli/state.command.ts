// `edge-bridge state`: every locker as the controller reports it right now.
import type { Command } from 'commander';
import { ControllerClient } from '../controller/controller-client';
import { ControllerError } from '../controller/controller-errors';
import { CliError, requireConfig } from './cli-io';
import { formatJson, formatTable } from './output';
import type { CommandContext } from './cli-io';

const LABEL = { free: 'free', booked: 'booked', inhibited: 'inhibited', unknown: 'UNKNOWN' } as const;

export function registerStateCommand(program: Command, { io }: CommandContext): void {
  program
    .command('state')
    .description('read every locker from the controller and print them as a table')
    .option('--json', 'print JSON')
    .action(async (options: { json?: boolean }, command: Command) => {
      const { config } = requireConfig(io, command);
      const controller = new ControllerClient(config.controller);
      let lockers;
      try {
        lockers = await controller.getLockersState();
      } catch (error) {
        if (error instanceof ControllerError) throw new CliError(error.message);
        throw error;
      }
      if (options.json) {
        io.stdout(
          formatJson(
            lockers.map((l) => ({
              locker: l.number,
              size: l.size ?? null,
              occupancy: l.state.occupancy,
              doorOpen: l.state.doorOpen,
              code: l.code,
            })),
          ),
        );
        return;
      }
      io.stdout(
        formatTable(
          ['LOCKER', 'SIZE', 'STATE', 'DOOR', 'CODE'],
          lockers.map((l) => [
            l.number,
            l.size ?? '-',
            LABEL[l.state.occupancy],
            l.state.doorOpen ? 'OPEN' : 'closed',
            l.code,
          ]),
        ),
      );
      const count = (o: keyof typeof LABEL) => lockers.filter((l) => l.state.occupancy === o).length;
      io.stdout(
        `${lockers.length} lockers: ${count('free')} free, ${count('booked')} booked, ${count('inhibited')} inhibited, ` +
          `${count('unknown')} unknown, ${lockers.filter((l) => l.state.doorOpen).length} open doors (${controller.lastLatencyMs} ms)\n`,
      );
    });
}
