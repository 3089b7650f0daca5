// The technician's command line: one commander program, one file per command.
import { Command, CommanderError } from 'commander';
import { describeVersion } from '../version';
import { CliError, EXIT, type CliIo, type ExitCodeHolder } from './cli-io';
import { registerDoctorCommand } from './doctor.command';
import { registerHistoryCommand } from './history.command';
import { registerInhibitCommand } from './inhibit.command';
import { registerInitCommand } from './init.command';
import { registerOpenCommand } from './open.command';
import { registerQueueCommand } from './queue.command';
import { registerRunCommand } from './run.command';
import { registerSimulateControllerCommand } from './simulate-controller.command';
import { registerStateCommand } from './state.command';
import { registerStatusCommand } from './status.command';
import { registerUnbookCommand } from './unbook.command';

export function buildProgram(io: CliIo, exit: ExitCodeHolder): Command {
  const program = new Command('edge-bridge')
    .description("Deposito edge bridge: links a site's locker controller to the cloud.")
    .version(describeVersion())
    .option('-c, --config <path>', 'config file (default: $BRIDGE_CONFIG or ./edge-bridge.config.json)')
    .showSuggestionAfterError()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => io.stdout(text),
      writeErr: (text) => io.stderr(text),
    });
  const context = { io, exit };
  registerInitCommand(program, context);
  registerRunCommand(program, context);
  registerStatusCommand(program, context);
  registerStateCommand(program, context);
  registerOpenCommand(program, context);
  registerInhibitCommand(program, context);
  registerUnbookCommand(program, context);
  registerHistoryCommand(program, context);
  registerQueueCommand(program, context);
  registerDoctorCommand(program, context);
  registerSimulateControllerCommand(program, context);
  return program;
}

/** Runs the CLI with `args` (without node and script); resolves with the exit code. */
export async function runCli(args: string[], io: CliIo): Promise<number> {
  const exit: ExitCodeHolder = { code: EXIT.ok };
  const program = buildProgram(io, exit);
  try {
    await program.parseAsync(args, { from: 'user' });
    return exit.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version') return EXIT.ok;
      // commander.help: help shown because a command was missing (e.g. `queue` alone).
      if (error.code === 'commander.help') return EXIT.usage;
      return EXIT.usage; // commander has already printed what was wrong with the command line
    }
    if (error instanceof CliError) {
      io.stderr(`error: ${error.message}\n`);
      return error.exitCode;
    }
    io.stderr(`error: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failure;
  }
}
