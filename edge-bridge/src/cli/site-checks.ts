// `doctor`'s checks of the site box itself: free disk for the buffer, the clock's time sync, and the
// systemd unit. A check that cannot apply on this machine (no systemd: a container, a chroot) is
// skipped with the reason, and does not count as a failure.
import { execFileSync } from 'node:child_process';
import { existsSync, statfsSync } from 'node:fs';
import { dirname } from 'node:path';

export type Verdict = 'ok' | 'warn' | 'fail' | 'skip';
export interface Check {
  name: string;
  verdict: Verdict;
  detail: string;
}

/** The unit the package installs. */
export const SERVICE_UNIT = 'edge-bridge.service';
/** Below this the buffer may not hold a long outage (10 000 items with their WAL need a few tens of MB). */
const DISK_FAIL_BYTES = 64 * 1024 * 1024;
const DISK_WARN_BYTES = 256 * 1024 * 1024;

/** What the checks ask of the machine; tests give their own answers. */
export interface SiteProbe {
  /** Free bytes for an unprivileged user on the file system holding `path` (or its nearest parent). */
  freeBytes(path: string): number;
  /** Whether systemd is the running init (sd_booted: /run/systemd/system exists). */
  systemdRunning(): boolean;
  /** Runs a command; its trimmed stdout, or null when it fails to start. Exit codes do not throw. */
  output(command: string, args: string[]): string | null;
}

export const systemProbe: SiteProbe = {
  freeBytes(path) {
    let dir = path;
    while (!existsSync(dir) && dirname(dir) !== dir) dir = dirname(dir);
    const stats = statfsSync(dir);
    return stats.bavail * stats.bsize;
  },
  systemdRunning: () => existsSync('/run/systemd/system'),
  output(command, args) {
    try {
      return execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    } catch (error) {
      const stdout = (error as { stdout?: unknown }).stdout;
      return typeof stdout === 'string' ? stdout.trim() : null;
    }
  },
};

const NO_SYSTEMD = 'systemd is not running on this machine (a container or chroot?)';

function mib(bytes: number): string {
  return `${Math.floor(bytes / (1024 * 1024))} MiB`;
}

export function checkDiskSpace(dataDir: string, probe: SiteProbe): Check {
  try {
    const free = probe.freeBytes(dataDir);
    if (free < DISK_FAIL_BYTES)
      return {
        name: 'disk',
        verdict: 'fail',
        detail: `${mib(free)} free for ${dataDir}; the buffer needs at least ${mib(DISK_FAIL_BYTES)} (free some space)`,
      };
    return {
      name: 'disk',
      verdict: free < DISK_WARN_BYTES ? 'warn' : 'ok',
      detail: `${mib(free)} free for ${dataDir}${free < DISK_WARN_BYTES ? ` (under ${mib(DISK_WARN_BYTES)}: free some space)` : ''}`,
    };
  } catch (error) {
    return {
      name: 'disk',
      verdict: 'fail',
      detail: `${dataDir}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}

/** NTP synchronisation as systemd-timesyncd (or chrony, through timedated) reports it. */
export function checkTimeSync(probe: SiteProbe): Check {
  if (!probe.systemdRunning())
    return {
      name: 'time sync',
      verdict: 'skip',
      detail: `${NO_SYSTEMD}; NTP state not checked (the clock line compares with the cloud)`,
    };
  const synced = probe.output('timedatectl', ['show', '--property=NTPSynchronized', '--value']);
  if (synced === 'yes') return { name: 'time sync', verdict: 'ok', detail: 'NTP synchronized' };
  return {
    name: 'time sync',
    verdict: 'warn',
    detail: `NTP not synchronized (timedatectl: ${synced || 'no answer'}); run: sudo timedatectl set-ntp true`,
  };
}

export function checkServiceUnit(probe: SiteProbe): Check {
  if (!probe.systemdRunning())
    return {
      name: 'service',
      verdict: 'skip',
      detail: `${NO_SYSTEMD}; ${SERVICE_UNIT} cannot be enabled here`,
    };
  const state = probe.output('systemctl', ['is-enabled', SERVICE_UNIT]);
  if (state === 'enabled')
    return { name: 'service', verdict: 'ok', detail: `${SERVICE_UNIT} enabled (starts at boot)` };
  // Not fatal: the guide runs `doctor` before `systemctl enable --now`.
  const detail =
    !state || state === 'not-found'
      ? `${SERVICE_UNIT} is not installed here (the package installs it)`
      : `${SERVICE_UNIT} is ${state}; once the other checks pass: sudo systemctl enable --now edge-bridge`;
  return { name: 'service', verdict: 'warn', detail };
}
