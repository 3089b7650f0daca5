// Tools the tests and the local cluster run that come from Debian's packages (Chromium, HAProxy,
// promtool, PostgreSQL): found on the machine, or installed with apt-get when we are root and
// may, or else a clear word of the command to run. Nothing is downloaded from anywhere else.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

export interface DebianTool {
  /** What it is, for messages ("Chromium for the browser tests"). */
  label: string;
  /** The command, looked up on the PATH, then at `paths`. */
  command: string;
  paths?: readonly string[];
  /** The Debian package that provides it. */
  debianPackage: string;
}

/** The tool's path on this machine, or null. */
export function findTool(tool: DebianTool): string | null {
  const onPath = spawnSync('sh', ['-c', `command -v ${tool.command}`], { encoding: 'utf8' });
  if (onPath.status === 0 && onPath.stdout.trim()) return onPath.stdout.trim();
  return tool.paths?.find((candidate) => existsSync(candidate)) ?? null;
}

/** True when this process may install Debian packages itself (root, with apt-get). */
export function mayInstallPackages(): boolean {
  return process.getuid?.() === 0 && existsSync('/usr/bin/apt-get');
}

/** Runs apt-get install, updating the package lists once when the first attempt fails. */
export function aptInstall(packages: readonly string[]): boolean {
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', ...packages], {
      stdio: 'inherit',
      env,
    }).status === 0;
  if (install()) return true;
  spawnSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  return install();
}

/**
 * The tool's path, installing its package first when it is missing and we may; throws with the
 * command to run otherwise. `log` hears what is being installed.
 */
export function ensureTool(tool: DebianTool, log: (line: string) => void): string {
  const found = findTool(tool);
  if (found) return found;
  const command = `sudo apt-get install ${tool.debianPackage}`;
  if (!mayInstallPackages()) throw new Error(`${tool.label} is not installed: run \`${command}\``);
  log(`installing ${tool.label} (apt-get install ${tool.debianPackage})…`);
  aptInstall([tool.debianPackage]);
  const installed = findTool(tool);
  if (!installed) throw new Error(`Installing ${tool.label} failed: run \`${command}\` and try again`);
  return installed;
}
