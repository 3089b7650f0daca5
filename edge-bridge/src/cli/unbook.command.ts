// `edge-bridge unbook <locker>`: release a locker (booked or inhibited → free), directly on the controller.
import type { Command } from 'commander';
import type { CommandContext } from './cli-io';
import { registerLockerActionCommand } from './locker-action';

export function registerUnbookCommand(program: Command, { io }: CommandContext): void {
  registerLockerActionCommand(program, io, 'unbook', 'release a locker (booked or inhibited → free)');
}
