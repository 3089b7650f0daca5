// `edge-bridge simulate-controller`: a locker controller for demos and tests, until stopped.
import type { Command } from 'commander';
import { parsePort, parsePositiveInt } from './cli-io';
import { loadSimulator } from './lazy-modules';
import type { CommandContext } from './cli-io';

interface SimulateOptions {
  port: number;
  host: string;
  lockers: number;
  key: string;
  mastercode: string;
  doorOpenMs: number;
}

export function registerSimulateControllerCommand(program: Command, { io }: CommandContext): void {
  program
    .command('simulate-controller')
    .description('run a simulated locker controller (same wire protocol; control API under /_sim/)')
    .option('--port <port>', 'port to listen on', parsePort, 11000)
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--lockers <n>', 'number of lockers (every fourth one large)', parsePositiveInt, 12)
    .option('--key <key>', 'controller key to accept', 'sim-key')
    .option('--mastercode <code>', 'mastercode to accept', 'sim-master')
    .option('--door-open-ms <ms>', 'how long a door stays open after `open`', parsePositiveInt, 5_000)
    .action(async (options: SimulateOptions) => {
      const { ControllerSimulator } = await loadSimulator();
      const simulator = new ControllerSimulator({
        lockers: options.lockers,
        key: options.key,
        mastercode: options.mastercode,
        doorOpenMs: options.doorOpenMs,
      });
      const { url } = await simulator.start({ port: options.port, host: options.host });
      io.stdout(
        `Simulated controller with ${options.lockers} lockers at ${url} (key ${options.key}, mastercode ${options.mastercode})\n` +
          `Control: GET ${url}/_sim/state, POST ${url}/_sim/fault {"kind":"slow","delayMs":40000} | {"kind":"fail"} | {"kind":"drop"} | {"kind":"none"}\n` +
          'Stop with Ctrl+C.\n',
      );
      await io.untilStopped();
      await simulator.stop();
    });
}
