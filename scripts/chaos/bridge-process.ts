// The edge-bridge daemon as a site runs it (`edge-bridge run`, its own process), for fault injection:
// frozen with SIGSTOP (its sockets stay open, nothing answers), resumed with SIGCONT, killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { edgeBridgeNodeArgs } from '@deposito/cloud/test/edge-bridge-cli';
import { DAEMON_STATE_FILE } from '@deposito/edge-bridge/cli/run.command';
import type { BridgeConfig } from '@deposito/edge-bridge/env';

/**
 * Writes `config` next to its data folder and starts `edge-bridge run` on it; resolves once the
 * daemon has started (it writes its state file then). `output()` is everything it printed so far.
 */
export async function startBridgeProcess(
  config: BridgeConfig,
): Promise<{ child: ChildProcess; output: () => string }> {
  const configFile = path.join(config.dataDir, 'edge-bridge.config.json');
  writeFileSync(configFile, JSON.stringify(config, null, 2) + '\n', { mode: 0o600 });
  const child = spawn(process.execPath, edgeBridgeNodeArgs(['--config', configFile, 'run']), {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const hear = (chunk: Buffer) => (output += chunk.toString());
  child.stdout?.on('data', hear);
  child.stderr?.on('data', hear);
  const stateFile = path.join(config.dataDir, DAEMON_STATE_FILE);
  const deadline = Date.now() + 60_000;
  while (!existsSync(stateFile)) {
    if (child.exitCode !== null) throw new Error(`the bridge exited (${child.exitCode}):\n${output}`);
    if (Date.now() > deadline) throw new Error(`the bridge did not start:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output };
}

/** The process stops where it is: no timer, no read, no answer; the kernel keeps its sockets open. */
export function freeze(child: ChildProcess): void {
  child.kill('SIGSTOP');
}

/** The frozen process carries on, with whatever arrived on its sockets meanwhile. */
export function resume(child: ChildProcess): void {
  child.kill('SIGCONT');
}
