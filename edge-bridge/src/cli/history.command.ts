// `edge-bridge history --from --to [--locker]`: the controller's own event log for a period.
import type { Command } from 'commander';
import type { DateTime } from 'luxon';
import { ControllerClient } from '../controller/controller-client';
import { ControllerError } from '../controller/controller-errors';
import { CliError, parseLockerNumber, requireConfig } from './cli-io';
import { formatJson, formatTable } from './output';
import { loadLuxon } from './lazy-modules';
import type { CommandContext } from './cli-io';

interface HistoryOptions {
  from: string;
  to: string;
  locker?: number;
  zone?: string;
  json?: boolean;
}

export function registerHistoryCommand(program: Command, { io }: CommandContext): void {
  program
    .command('history')
    .description('print the controller history for a period')
    .requiredOption('--from <when>', 'start: ISO date or date-time, e.g. 2025-03-30 or 2025-03-30T08:00')
    .requiredOption('--to <when>', 'end (a bare date means the end of that day)')
    .option('--locker <n>', 'only this locker', parseLockerNumber)
    .option('--zone <iana>', "time zone for bare dates and times and for display (default: the machine's)")
    .option('--json', 'print JSON')
    .action(async (options: HistoryOptions, command: Command) => {
      // Asked here, not as the option's default: the first Intl call loads ICU's locale and zone
      // data, several MB that every other command, the daemon above all, would keep for nothing.
      const zone = options.zone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
      const { DateTime } = await loadLuxon();
      if (!DateTime.local().setZone(zone).isValid) throw new CliError(`unknown time zone "${zone}"`, 2);
      const from = parseInstant(DateTime, options.from, zone, 'start');
      const to = parseInstant(DateTime, options.to, zone, 'end');
      if (from > to) throw new CliError('--from must not be after --to', 2);
      const { config } = requireConfig(io, command);
      const controller = new ControllerClient(config.controller);
      let entries;
      try {
        entries = await controller.history({
          from: from.toUTC().toISO()!,
          to: to.toUTC().toISO()!,
          ...(options.locker === undefined ? {} : { locker: options.locker }),
        });
      } catch (error) {
        if (error instanceof ControllerError) throw new CliError(error.message);
        throw error;
      }
      if (options.json) {
        io.stdout(formatJson(entries));
        return;
      }
      if (entries.length === 0) {
        io.stdout('No events in that period.\n');
        return;
      }
      io.stdout(
        formatTable(
          ['#', 'LOCKER', `WHEN (${zone})`, 'TYPE', 'DESCRIPTION'],
          entries.map((e) => [
            e.index,
            e.locker,
            DateTime.fromISO(e.date, { zone: 'utc' }).setZone(zone).toFormat('dd/MM/yyyy HH:mm:ss'),
            e.type,
            e.description ?? '',
          ]),
        ),
      );
    });
}

function parseInstant(
  DateTime: typeof import('luxon').DateTime,
  value: string,
  zone: string,
  edge: 'start' | 'end',
): DateTime {
  const parsed = DateTime.fromISO(value, { zone, setZone: true });
  if (!parsed.isValid) throw new CliError(`not an ISO date or date-time: "${value}"`, 2);
  const bareDate = /^\d{4}-\d{2}-\d{2}$/.test(value);
  return bareDate && edge === 'end' ? parsed.endOf('day') : parsed;
}
