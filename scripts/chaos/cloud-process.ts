// The cloud as an operator runs it (`cloud/src/main.ts` in its own process), for fault injection:
// started on a fixed port so bridges and visitors find it again, killed with SIGKILL.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { issueBridgeToken } from '@deposito/cloud/bridge-hub/bridge-token';
import { parseDatabaseUrl, type DatabaseTarget } from '@deposito/cloud/env';
import { openStore } from '@deposito/cloud/store/store';
import { buildLocation } from '@deposito/cloud/test/builders';
import { createPostgresDatabase, type StoreDialect } from '@deposito/cloud/test/test-store';
import { REPO_ROOT } from '../support/repo-root';

const CLOUD_MAIN = path.join(REPO_ROOT, 'cloud/src/main.ts');

export { freePort } from '../support/ports';

/**
 * Starts the cloud with `env` (PORT and PUBLIC_URL included); resolves once /readyz answers 200.
 * `onOutput` hears everything it prints, from its first line.
 */
export async function startCloud(
  env: Record<string, string>,
  onOutput?: (chunk: string) => void,
): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CLOUD_MAIN], {
    // Every scenario's visitors come from 127.0.0.1: the per-client abuse limits would stop the
    // burst itself, which is not what these scenarios are about.
    env: { ...process.env, LOG_LEVEL: 'warn', RATE_LIMITS: 'off', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const hear = (chunk: Buffer) => {
    output += chunk.toString();
    onOutput?.(chunk.toString());
  };
  child.stdout?.on('data', hear);
  child.stderr?.on('data', hear);
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the cloud exited (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${env.PUBLIC_URL}/readyz`)).ok) return child;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`the cloud did not get ready:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A crash: SIGKILL, no shutdown code runs. */
export function kill9(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}

/** A scenario's own database: what the cloud process is given, what the test opens, how it goes. */
export interface ScenarioDatabase {
  /** DATABASE_URL for the cloud process. */
  url: string;
  target: DatabaseTarget;
  /** A folder of the scenario's own, for files beside the database (an outbox, a bridge's buffer). */
  dir: string;
  dispose(): Promise<void>;
}

/**
 * A fresh, empty database of `dialect` for one scenario: a SQLite file in a new temporary folder,
 * or a PostgreSQL database of its own (dropped by `dispose`), never one another run shares.
 */
export async function scenarioDatabase(dialect: StoreDialect): Promise<ScenarioDatabase> {
  const dir = mkdtempSync(path.join(tmpdir(), `deposito-chaos-${dialect}-`));
  const removeDir = async () => rmSync(dir, { recursive: true, force: true });
  if (dialect === 'sqlite') {
    const url = `sqlite:${path.join(dir, 'deposito.db')}`;
    return { url, target: parseDatabaseUrl(url)!, dir, dispose: removeDir };
  }
  const database = await createPostgresDatabase();
  return {
    url: database.connectionString,
    target: database.target,
    dir,
    dispose: async () => {
      await database.dispose();
      await removeDir();
    },
  };
}

/** The store at `databaseUrl` with one site holding `lockers` standard lockers; its bridge token. */
export async function prepareSiteStore(
  databaseUrl: string,
  site: { key: string; name: string; lockers: number },
): Promise<string> {
  const store = await openStore(parseDatabaseUrl(databaseUrl)!);
  await store.locations.save(buildLocation({ key: site.key, name: site.name }), new Date());
  await store.locations.addLockers(
    site.key,
    Array.from({ length: site.lockers }, (_, n) => ({ number: n + 1, size: 'standard' as const })),
  );
  const token = (await issueBridgeToken(store, site.key, new Date()))!;
  await store.close();
  return token;
}

/** The cloud on the store at `databaseUrl`, on `port`, with `admin` as its first administrator. */
export async function startSiteCloud(
  databaseUrl: string,
  port: number,
  admin: { email: string; password: string },
): Promise<{ url: string; child: ChildProcess }> {
  const url = `http://127.0.0.1:${port}`;
  const child = await startCloud({
    PORT: String(port),
    PUBLIC_URL: url,
    DATABASE_URL: databaseUrl,
    PAYMENT_PROVIDER: 'sandbox',
    ADMIN_EMAIL: admin.email,
    ADMIN_PASSWORD: admin.password,
  });
  return { url, child };
}

/** An operator's Apri through the admin API, as the Gestione Locker page sends it; its answer and how long it took. */
export async function operatorOpen(
  url: string,
  session: string,
  location: string,
  lockerId: number,
): Promise<{ status: number; body: { outcome?: string; error?: { code: string } }; ms: number }> {
  const startedAt = Date.now();
  const answer = await fetch(`${url}/api/lockers/open`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${session}` },
    body: JSON.stringify({ location, lockerId }),
  });
  const body = (await answer.json()) as { outcome?: string; error?: { code: string } };
  return { status: answer.status, body, ms: Date.now() - startedAt };
}
