// `edge-bridge open <locker>`: open a locker door, directly on the controller.
import type { Command } from 'commander';
import type { CommandContext } from './cli-io';
import { registerLockerActionCommand } from './locker-action';

export function registerOpenCommand(program: Command, { io }: CommandContext): void {
  registerLockerActionCommand(program, io, 'open', 'open a locker door');
}
