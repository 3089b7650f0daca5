import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkDiskSpace, checkServiceUnit, checkTimeSync, systemProbe, type SiteProbe } from './site-checks';

/** A machine's answers: systemd is outside our system, so its replies are given here. */
function machine(answers: {
  systemd?: boolean;
  free?: number;
  output?: Record<string, string | null>;
}): SiteProbe {
  return {
    freeBytes: () => answers.free ?? 10 * 1024 ** 3,
    systemdRunning: () => answers.systemd ?? true,
    output: (command) => answers.output?.[command] ?? null,
  };
}

describe('doctor site checks', () => {
  it('measures the real free space of the nearest existing folder', () => {
    const dir = mkdtempSync(join(tmpdir(), 'site-checks-'));
    try {
      const check = checkDiskSpace(join(dir, 'not', 'yet', 'created'), systemProbe);
      expect(check).toMatchObject({ name: 'disk', detail: expect.stringMatching(/\d+ MiB free/) });
      expect(check.verdict).not.toBe('fail');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('fails below 64 MiB and warns below 256 MiB', () => {
    expect(checkDiskSpace('/data', machine({ free: 10 * 1024 ** 2 })).verdict).toBe('fail');
    expect(checkDiskSpace('/data', machine({ free: 100 * 1024 ** 2 })).verdict).toBe('warn');
    expect(checkDiskSpace('/data', machine({ free: 1024 ** 3 })).verdict).toBe('ok');
  });

  it('skips systemd checks with the reason where systemd is not running', () => {
    for (const check of [
      checkTimeSync(machine({ systemd: false })),
      checkServiceUnit(machine({ systemd: false })),
    ]) {
      expect(check).toMatchObject({
        verdict: 'skip',
        detail: expect.stringMatching(/systemd is not running/),
      });
    }
  });

  it('reads NTP synchronisation from timedatectl', () => {
    expect(checkTimeSync(machine({ output: { timedatectl: 'yes' } })).verdict).toBe('ok');
    expect(checkTimeSync(machine({ output: { timedatectl: 'no' } }))).toMatchObject({
      verdict: 'warn',
      detail: expect.stringMatching(/set-ntp true/),
    });
  });

  it('says how to enable the unit when it is not enabled', () => {
    expect(checkServiceUnit(machine({ output: { systemctl: 'enabled' } })).verdict).toBe('ok');
    expect(checkServiceUnit(machine({ output: { systemctl: 'disabled' } }))).toMatchObject({
      verdict: 'warn',
      detail: expect.stringMatching(/systemctl enable --now edge-bridge/),
    });
    expect(checkServiceUnit(machine({ output: { systemctl: 'not-found' } })).detail).toMatch(/not installed/);
  });
});
