// What every command gets: where to write, the environment, and how to fail with an exit code.
import { InvalidArgumentError, type Command } from 'commander';
import { MAX_LOCKER_NUMBER } from '@deposito/protocol/schemas/limits';
import { loadBridgeConfig, type BridgeConfig, type Env } from '../env';

export const EXIT = { ok: 0, failure: 1, usage: 2 } as const;

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: Env;
  /** Whether stderr is a terminal (progress indicators are drawn only then). */
  interactive: boolean;
  /** Resolves when the process is asked to stop (SIGINT/SIGTERM); long-running commands wait on it. */
  untilStopped: () => Promise<void>;
}

/** An expected failure: printed as `error: message`, exits with `exitCode`. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.failure,
  ) {
    super(message);
  }
}

export interface GlobalOptions {
  config?: string;
}

export function globalOptions(command: Command): GlobalOptions {
  return command.optsWithGlobals<GlobalOptions>();
}

/** Loads the config or fails listing every problem. */
export function requireConfig(io: CliIo, command: Command): { config: BridgeConfig; path: string } {
  const loaded = loadBridgeConfig({ path: globalOptions(command).config, env: io.env });
  if (!loaded.ok) {
    throw new CliError(
      `invalid bridge configuration (${loaded.path}):\n  - ${loaded.problems.join('\n  - ')}`,
    );
  }
  return { config: loaded.config, path: loaded.path };
}

export function parseLockerNumber(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_LOCKER_NUMBER) {
    throw new InvalidArgumentError(`expected a locker number from 1 to ${MAX_LOCKER_NUMBER}, got "${value}"`);
  }
  return Number(value);
}

export function parsePositiveInt(value: string): number {
  if (!/^\d{1,9}$/.test(value) || Number(value) < 1)
    throw new InvalidArgumentError(`expected a positive whole number, got "${value}"`);
  return Number(value);
}

export function parsePort(value: string): number {
  if (!/^\d{1,5}$/.test(value) || Number(value) > 65_535)
    throw new InvalidArgumentError(`expected a port (0-65535), got "${value}"`);
  return Number(value);
}

/** Set by an action that wants a non-zero exit code without throwing. */
export interface ExitCodeHolder {
  code: number;
}

/** What every command is registered with (program.ts builds it once). */
export interface CommandContext {
  io: CliIo;
  exit: ExitCodeHolder;
}
