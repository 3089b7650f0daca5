import type { Command } from 'commander';
import type { CommandContext } from './cli-io';
import { registerLockerActionCommand } from './locker-action';

export function registerInhibitCommand(program: Command, { io }: CommandContext): void {
  registerLockerActionCommand(program, io, 'inhibit', 'inhibit a locker (out of service)');
}
