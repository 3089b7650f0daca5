import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DebianTool } from './support/debian-packages';
import { missingPrerequisites, testPostgresAddress, type PrerequisiteProbes } from './test-prerequisites';

// `npm test` checks what it needs before running (issue 22, a newcomer's npm test): what it finds
// or sets up passes silently, what it cannot is said with the command to run, all at once.

function probes(overrides: Partial<PrerequisiteProbes> & { missingTools?: string[] } = {}) {
  const asked: string[] = [];
  const all: PrerequisiteProbes = {
    ensureTool(tool: DebianTool) {
      asked.push(tool.debianPackage);
      if (overrides.missingTools?.includes(tool.debianPackage))
        throw new Error(`${tool.label} is not installed: run \`sudo apt-get install ${tool.debianPackage}\``);
    },
    postgresAnswers: async () => true,
    startLocalPostgres: () => false,
    ...overrides,
  };
  return { all, asked };
}

describe("npm test's prerequisites", () => {
  it('asks for Chromium, HAProxy and promtool, and nothing is missing when all are there', async () => {
    const { all, asked } = probes();
    expect(await missingPrerequisites(all)).toEqual([]);
    expect(asked).toEqual(['chromium', 'haproxy', 'prometheus']);
  });

  it('says every missing tool with its command, and a PostgreSQL that does not answer', async () => {
    const { all } = probes({ missingTools: ['chromium', 'prometheus'], postgresAnswers: async () => false });
    const missing = await missingPrerequisites(all, { host: '127.0.0.1', port: 5432 });
    expect(missing).toHaveLength(3);
    expect(missing[0]).toContain('sudo apt-get install chromium');
    expect(missing[1]).toContain('sudo apt-get install prometheus');
    expect(missing[2]).toMatch(/PostgreSQL 127\.0\.0\.1:5432.*pg_ctlcluster.*TEST_DATABASE_URL/);
  });

  it('starts a local PostgreSQL cluster that is only down, and never a remote one', async () => {
    let running = false;
    const local = probes({
      postgresAnswers: async () => running,
      startLocalPostgres: () => (running = true),
    });
    expect(await missingPrerequisites(local.all, { host: '127.0.0.1', port: 5432 })).toEqual([]);
    expect(running).toBe(true);

    let startedRemote = false;
    const remote = probes({
      postgresAnswers: async () => false,
      startLocalPostgres: () => (startedRemote = true),
    });
    expect(await missingPrerequisites(remote.all, { host: 'db.example.com', port: 5433 })).toHaveLength(1);
    expect(startedRemote).toBe(false);
  });

  it('reads the server the tests use as vitest.config.ts does', () => {
    expect(testPostgresAddress({})).toEqual({ host: '127.0.0.1', port: 5432 });
    expect(testPostgresAddress({ DATABASE_URL: 'postgres://u@db:6543/x' })).toEqual({
      host: 'db',
      port: 6543,
    });
    expect(testPostgresAddress({ DATABASE_URL: 'sqlite:data/x.db' })).toEqual({
      host: '127.0.0.1',
      port: 5432,
    });
    expect(
      testPostgresAddress({
        TEST_DATABASE_URL: 'postgres://u@other:5000/t',
        DATABASE_URL: 'postgres://u@db/x',
      }),
    ).toEqual({ host: 'other', port: 5000 });
  });

  it('passes on this machine, where .ci/run installed everything', () => {
    const script = fileURLToPath(new URL('./test-prerequisites.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });
});
