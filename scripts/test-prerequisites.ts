// `npm test`'s first step (pretest): what the tests need besides the npm packages, checked on this
// machine and set up where we may, so a newcomer's first `npm test` either runs or says in one
// place what to do: Debian's Chromium (browser tests), HAProxy (the cluster test), promtool (the
// alert rules) and a PostgreSQL server on TEST_DATABASE_URL (started when its cluster is only down).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HAPROXY } from './haproxy';
import { ensureTool, type DebianTool } from './support/debian-packages';

export const TEST_TOOLS: readonly DebianTool[] = [
  { label: 'Chromium for the browser tests', command: '/usr/bin/chromium', debianPackage: 'chromium' },
  HAPROXY,
  { label: 'promtool for the alert rules', command: 'promtool', debianPackage: 'prometheus' },
];

/** Where the tests find PostgreSQL (vitest.config.ts reads the same variables). */
export function testPostgresAddress(env: NodeJS.ProcessEnv = process.env): { host: string; port: number } {
  const url =
    env.TEST_DATABASE_URL ??
    (env.DATABASE_URL?.startsWith('postgres') ? env.DATABASE_URL : 'postgres://postgres@127.0.0.1:5432/test');
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 5432) };
}

export interface PrerequisiteProbes {
  /** Finds the tool, installing it when we may; throws with the command to run otherwise. */
  ensureTool(tool: DebianTool): void;
  postgresAnswers(): Promise<boolean>;
  /** Starts the machine's local PostgreSQL cluster when it has one that is down; false otherwise. */
  startLocalPostgres(): boolean;
}

/** Each missing prerequisite, as a sentence saying what to run; empty when the tests can run. */
export async function missingPrerequisites(
  probes: PrerequisiteProbes,
  address = testPostgresAddress(),
): Promise<string[]> {
  const missing: string[] = [];
  for (const tool of TEST_TOOLS) {
    try {
      probes.ensureTool(tool);
    } catch (error) {
      missing.push((error as Error).message);
    }
  }
  const local = address.host === '127.0.0.1' || address.host === 'localhost';
  if (!(await probes.postgresAnswers())) {
    const started = local && probes.startLocalPostgres();
    if (!started || !(await probes.postgresAnswers())) {
      missing.push(
        `Nothing answers on PostgreSQL ${address.host}:${address.port}: start it ` +
          '(`sudo pg_ctlcluster 15 main start`, or `sudo apt-get install postgresql`), ' +
          'or set TEST_DATABASE_URL to a server the tests may create databases on',
      );
    }
  }
  return missing;
}

function answers(address: { host: string; port: number }, timeoutMs = 1_000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(address.port, address.host);
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/** This machine, as the probes see it. */
export function machineProbes(address = testPostgresAddress(), log = console.log): PrerequisiteProbes {
  let started = false;
  return {
    ensureTool: (tool) => void ensureTool(tool, log),
    async postgresAnswers() {
      // A cluster just started takes a moment to listen: up to 10 s then, one try otherwise.
      for (let attempt = 0; attempt < (started ? 20 : 1); attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
        if (await answers(address)) return true;
      }
      return false;
    },
    startLocalPostgres() {
      const versions = existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql').sort() : [];
      if (versions.length === 0 || process.getuid?.() !== 0) return false;
      const version = versions.at(-1)!;
      log(`starting PostgreSQL ${version} (pg_ctlcluster ${version} main start)…`);
      const start = spawnSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], {
        stdio: 'inherit',
      });
      started = start.status === 0;
      return started;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = await missingPrerequisites(machineProbes());
  if (missing.length > 0) {
    console.error(`npm test cannot run here yet:\n${missing.map((line) => `  ✗ ${line}`).join('\n')}`);
    process.exit(1);
  }
}
