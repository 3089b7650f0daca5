// Child processes the benchmarks drive: each prints one JSON line `{"url": …}` once it listens.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from '../support/repo-root';

export const BENCH_DIR = path.dirname(fileURLToPath(import.meta.url));

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

/** Starts `node --import tsx <entry>` and waits for the URL it prints; stderr is kept for errors. */
export async function startServerProcess(
  entry: string,
  env: Record<string, string> = {},
): Promise<ServerProcess> {
  // BENCH_PROFILE_DIR=/tmp/prof writes a CPU profile of each server process there on exit.
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const child = spawn(process.execPath, [...profile, '--import', 'tsx', path.join(BENCH_DIR, entry)], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${entry} did not start within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      try {
        const parsed = JSON.parse(line) as { url?: string };
        if (parsed.url) {
          clearTimeout(timer);
          resolve(parsed.url);
        }
      } catch {
        // Not the URL line.
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${entry} exited (${code}) before listening: ${stderr}`));
    });
  });
  return {
    url,
    child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        const force = setTimeout(() => child.kill('SIGKILL'), 5_000);
        child.once('exit', () => {
          clearTimeout(force);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  };
}

/** Starts a cloud process on the given database. */
export function startCloudProcess(options: {
  databaseUrl: string;
  schema?: string;
  jobs?: boolean;
  poolSize?: number;
  admin?: { email: string; password: string };
  /** A fixed port (a restart on the same address); an ephemeral one by default. */
  port?: number;
}): Promise<ServerProcess> {
  return startServerProcess('servers/cloud-server.main.ts', {
    ...(options.port ? { BENCH_PORT: String(options.port) } : {}),
    BENCH_DATABASE_URL: options.databaseUrl,
    BENCH_SCHEMA: options.schema ?? '',
    BENCH_JOBS: options.jobs ? '1' : '0',
    ...(options.poolSize ? { BENCH_POOL_SIZE: String(options.poolSize) } : {}),
    ...(options.admin
      ? { BENCH_ADMIN_EMAIL: options.admin.email, BENCH_ADMIN_PASSWORD: options.admin.password }
      : {}),
  });
}
