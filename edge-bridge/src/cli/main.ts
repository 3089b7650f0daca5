// Entry point of the `edge-bridge` command.
import { processEnv } from '../env';
import { runCli } from './program';

const stopRequested = new Promise<void>((resolve) => {
  process.once('SIGINT', () => resolve());
  process.once('SIGTERM', () => resolve());
});

const code = await runCli(process.argv.slice(2), {
  stdout: (text) => void process.stdout.write(text),
  stderr: (text) => void process.stderr.write(text),
  env: processEnv(),
  interactive: Boolean(process.stderr.isTTY),
  untilStopped: () => stopRequested,
});
process.exitCode = code;
