import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { wholeNumberFromEnv } from './support/env-number';
import { REPO_ROOT as ROOT } from './support/repo-root';

// `npm start` and `npm run cluster` with a wrong number in their environment: one line saying
// which and why, exit 1, and nothing built, started or written first.

describe('the start scripts, given a wrong number in the environment', () => {
  let dataDir = '';
  afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

  function start(script: string, env: Record<string, string>) {
    dataDir = mkdtempSync(join(tmpdir(), 'start-env-'));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, DEPOSITO_DATA_DIR: dataDir, ...env },
      encoding: 'utf8',
      timeout: 30_000,
    });
    return { status: run.status, output: `${run.stdout}${run.stderr}`.trim(), wrote: readdirSync(dataDir) };
  }

  it('npm start stops at once, before building the web app', () => {
    const run = start('scripts/start.ts', { PORT: 'abc' });
    expect(run).toEqual({
      status: 1,
      output: '[deposito] PORT: a whole number from 1 to 65535, got "abc"',
      wrote: [],
    });
  });

  it('npm run cluster stops at once, before looking for PostgreSQL and HAProxy', () => {
    const run = start('scripts/cluster.ts', { CLUSTER_SIZE: '0' });
    expect(run).toEqual({
      status: 1,
      output: '[cluster] CLUSTER_SIZE: a whole number from 1 to 16, got "0"',
      wrote: [],
    });
  });
});

describe('a whole number from the environment', () => {
  const PORTS = { min: 1, max: 65_530 };

  /** What the scripts would do with `raw`: its number, or the line they would end with. */
  function read(raw: string | undefined): number | undefined | string {
    let said = '';
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((text) => {
      said += String(text);
      return true;
    });
    const exit = vi.spyOn(process, 'exit').mockImplementation((code) => {
      throw new Error(`exit ${code}: ${said.trim()}`);
    });
    try {
      return wholeNumberFromEnv('deposito', 'DEMO_SITE_PORT', PORTS, undefined, { DEMO_SITE_PORT: raw });
    } catch (error) {
      return (error as Error).message;
    } finally {
      write.mockRestore();
      exit.mockRestore();
    }
  }

  it('is read when written in decimal digits within its range; unset or blank, it is the fallback', () => {
    expect([read('11000'), read(' 21000 '), read('1'), read('65530')]).toEqual([11000, 21000, 1, 65530]);
    expect([read(undefined), read(''), read('  ')]).toEqual([undefined, undefined, undefined]);
  });

  it.each(['0', '65531', '1e3', '0x50', '8790.5', '-1', 'eleven thousand'])(
    'ends the program on %j',
    (raw) => {
      expect(read(raw)).toBe(
        `exit 1: [deposito] DEMO_SITE_PORT: a whole number from 1 to 65530, got ${JSON.stringify(raw)}`,
      );
    },
  );
});
