import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT as ROOT } from './support/repo-root';

// The operator's scripts given a wrong option or argument: one line saying which, then the usage,
// exit 2; never Node's stack trace (node:util's parseArgs throws).

function script(name: string, args: string[]) {
  const run = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 30_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr.split('\n') };
}

describe('the backup and restore scripts, given a wrong command line', () => {
  it('backup names the unknown option and shows its usage', () => {
    const run = script('backup', ['--bogus']);
    expect(run.status).toBe(2);
    expect(run.stdout).toBe('');
    expect(run.stderr.slice(0, 3)).toEqual([
      "error: Unknown option '--bogus'",
      '',
      'Usage: scripts/backup [--database-url URL] [--out FILE]',
    ]);
    expect(run.stderr.filter((line) => /^\s+at /.test(line))).toEqual([]);
  });

  it('restore names the stray argument (the file goes after --from) and shows its usage', () => {
    const run = script('restore', ['deposito.backup']);
    expect(run.status).toBe(2);
    expect(run.stderr[0]).toMatch(/^error: Unexpected argument 'deposito.backup'/);
    expect(run.stderr[2]).toBe('Usage: scripts/restore --from FILE [--database-url URL] [--replace]');
    expect(run.stderr.filter((line) => /^\s+at /.test(line))).toEqual([]);
  });
});
