// `edge-bridge run`: the daemon, in the foreground (systemd or a container keeps it running).
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { formatProgress } from './output';
import { requireConfig } from './cli-io';
import { loadDaemon } from './lazy-modules';
import type { CommandContext } from './cli-io';

/** Written next to the buffer while the daemon runs, so `status` finds its port. */
export const DAEMON_STATE_FILE = 'daemon.json';

export interface DaemonStateFile {
  pid: number;
  httpHost: string;
  httpPort: number;
  startedAt: string;
}

export function registerRunCommand(program: Command, { io, exit }: CommandContext): void {
  program
    .command('run')
    .description('run the bridge daemon until stopped (SIGINT/SIGTERM)')
    .action(async (_options: unknown, command: Command) => {
      const { config } = requireConfig(io, command);
      let refused: string | null = null;
      const { BridgeDaemon } = await loadDaemon();
      const daemon = new BridgeDaemon({
        config,
        onReplayProgress: (sent, total) => {
          if (!io.interactive) return;
          io.stderr(formatProgress('Delivering buffered items', sent, total) + (sent >= total ? '\n' : ''));
        },
        onLinkRefused: (reason) => {
          refused = reason;
          io.stderr(
            `error: ${reason}\nThe bridge keeps polling and buffering locally, but will not reconnect until restarted.\n`,
          );
        },
      });
      const { httpPort } = await daemon.start();
      const stateFile = join(config.dataDir, DAEMON_STATE_FILE);
      const state: DaemonStateFile = {
        pid: process.pid,
        httpHost: config.http.host,
        httpPort,
        startedAt: new Date().toISOString(),
      };
      writeFileSync(stateFile, JSON.stringify(state) + '\n');
      await io.untilStopped();
      await daemon.stop();
      rmSync(stateFile, { force: true });
      if (refused) exit.code = 1;
    });
}
