// HAProxy for `npm run cluster`: the balancer of deploy/haproxy.cfg, without TLS, in front of the
// local cloud processes. Installed from Debian's package when missing and we may (root with apt).
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createWriteStream, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureTool, type DebianTool } from './support/debian-packages';

/** The local cluster's HAProxy configuration: deploy/haproxy.cfg's rules on plain HTTP. */
export function clusterHaproxyConfig(options: { port: number; backends: number[] }): string {
  const servers = options.backends.map((port, i) => `    server cloud${i + 1} 127.0.0.1:${port} check`);
  return [
    '# Written by scripts/cluster.ts; see deploy/haproxy.cfg for the production one (TLS, comments).',
    'global',
    '    log stdout format raw local0 warning',
    '    maxconn 4000',
    'defaults',
    '    mode http',
    '    log global',
    '    timeout connect 5s',
    '    timeout client 60s',
    '    timeout server 60s',
    '    timeout tunnel 1h',
    '    timeout http-request 10s',
    `frontend public`,
    `    bind 127.0.0.1:${options.port}`,
    '    http-request set-header X-Forwarded-Proto http',
    '    http-request del-header X-Forwarded-For',
    '    option forwardfor',
    '    http-response add-header Via "1.1 haproxy"',
    '    default_backend cloud',
    'backend cloud',
    '    balance roundrobin',
    '    option httpchk GET /readyz',
    '    http-check expect status 200',
    '    default-server inter 1s fall 2 rise 1',
    '    retry-on conn-failure',
    '    retries 2',
    '    option redispatch',
    ...servers,
    '',
  ].join('\n');
}

/** Debian's HAProxy, the balancer of `npm run cluster` and its tests. */
export const HAPROXY: DebianTool = {
  label: 'HAProxy',
  command: 'haproxy',
  paths: ['/usr/sbin/haproxy', '/usr/bin/haproxy', '/usr/local/sbin/haproxy'],
  debianPackage: 'haproxy',
};

/** HAProxy's path; installs Debian's package when it is missing and we are root with apt-get. */
export function ensureHaproxy(log: (line: string) => void): string {
  return ensureTool(HAPROXY, log);
}

/** Starts HAProxy in the foreground with the cluster's configuration; resolves once it answers. */
export async function startHaproxy(options: {
  port: number;
  backends: number[];
  dataDir: string;
  log: (line: string) => void;
}): Promise<{ child: ChildProcess; stop(): Promise<void> }> {
  const binary = ensureHaproxy(options.log);
  const config = join(options.dataDir, 'haproxy.cfg');
  writeFileSync(config, clusterHaproxyConfig(options));
  const check = spawnSync(binary, ['-c', '-q', '-f', config], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`HAProxy refused ${config}: ${check.stderr || check.stdout}`);
  const child = spawn(binary, ['-db', '-f', config], { stdio: ['ignore', 'pipe', 'pipe'] });
  const logFile = createWriteStream(join(options.dataDir, 'logs', 'haproxy.log'), { flags: 'a' });
  child.stdout?.pipe(logFile);
  child.stderr?.pipe(logFile);
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null)
      throw new Error(`HAProxy exited (${child.exitCode}); see ${options.dataDir}/logs/haproxy.log`);
    try {
      if ((await fetch(`http://127.0.0.1:${options.port}/readyz`)).ok) return { child, stop };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  await stop();
  throw new Error(`HAProxy did not answer on port ${options.port} within 15 s`);
}
