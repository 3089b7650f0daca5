import { execFile, spawnSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { METRIC_NAMES } from '@deposito/cloud/observability/metrics';
import { writeSelfSignedCertificate } from '@deposito/cloud/test/self-signed-certificate';
import { clusterHaproxyConfig } from './haproxy';
import { REPO_ROOT as root } from './support/repo-root';

// The production configuration in deploy/ is checked by the tools that will run it: HAProxy for
// the balancer, promtool for the alert rules (and their unit tests), and the dashboard against
// the metrics the cloud really exports. .ci/run installs haproxy and prometheus (Debian packages).

const dir = mkdtempSync(join(tmpdir(), 'deposito-deploy-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function tool(command: string, args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(command, args, { encoding: 'utf8', env: { ...process.env, ...env }, cwd: root });
  if (result.error)
    throw new Error(`${command} is not installed (.ci/run installs it): ${result.error.message}`);
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe('deploy/', () => {
  it('haproxy.cfg is valid for HAProxy, with a certificate where DEPOSITO_TLS_CERT says', () => {
    const { keyFile: key, certFile: cert } = writeSelfSignedCertificate(dir, 'localhost');
    const pem = join(dir, 'deposito.pem');
    writeFileSync(pem, readFileSync(cert, 'utf8') + readFileSync(key, 'utf8'));
    const checked = tool('haproxy', ['-c', '-f', 'deploy/haproxy.cfg'], { DEPOSITO_TLS_CERT: pem });
    expect(checked.output).toContain('Configuration file is valid');
    expect(checked.status).toBe(0);
  });

  it("npm run cluster's generated HAProxy configuration is valid", () => {
    const file = join(dir, 'cluster.cfg');
    writeFileSync(file, clusterHaproxyConfig({ port: 18080, backends: [18081, 18082] }));
    const checked = tool('haproxy', ['-c', '-f', file]);
    expect(checked.output).toContain('Configuration file is valid');
  });

  it('the alert rules pass promtool check rules and their own unit tests', () => {
    const checked = tool('promtool', ['check', 'rules', 'deploy/prometheus/deposito-alerts.yml']);
    expect(checked.output).toContain('SUCCESS: 6 rules found');
    expect(checked.status).toBe(0);
    const tested = tool('promtool', ['test', 'rules', 'deploy/prometheus/deposito-alerts.test.yml']);
    expect(tested.output).toContain('SUCCESS');
    expect(tested.status).toBe(0);
  });

  it('the alerts and the Grafana dashboard use only metrics the cloud exports', () => {
    const exported = new Set(Object.values(METRIC_NAMES));
    const used = (text: string) =>
      [...text.matchAll(/deposito_[a-z_]+/g)].map(([name]) => name.replace(/_(bucket|count|sum)$/, ''));
    const dashboard = JSON.parse(
      readFileSync(join(root, 'deploy/grafana/deposito-dashboard.json'), 'utf8'),
    ) as {
      panels: Array<{ targets: Array<{ expr: string }> }>;
    };
    const expressions = dashboard.panels
      .flatMap((panel) => panel.targets.map((target) => target.expr))
      .join('\n');
    const rules = readFileSync(join(root, 'deploy/prometheus/deposito-alerts.yml'), 'utf8');
    const names = [...used(expressions), ...used(rules)];
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) expect(exported, name).toContain(name);
  });
});

describe('deploy/rolling-restart.sh', () => {
  /**
   * A stand-in cloud process: `POST /restart` (what the test's RESTART_CMD calls, returning once
   * done like `systemctl restart`) records a restart; /readyz answers 503 for `notReadyMs` after it.
   */
  async function fakeProcess(notReadyMs: number) {
    let restartedAt: number | null = null;
    const server = createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/restart') {
        restartedAt = Date.now();
        return res.writeHead(204).end();
      }
      const ready = req.url === '/readyz' && (restartedAt === null || Date.now() - restartedAt >= notReadyMs);
      res.writeHead(ready ? 200 : 503).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return {
      address: `127.0.0.1:${(server.address() as AddressInfo).port}`,
      restarted: () => restartedAt !== null,
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }
  type FakeProcess = Awaited<ReturnType<typeof fakeProcess>>;

  function rollout(processes: FakeProcess[], env: Record<string, string>) {
    return new Promise<{ status: number; output: string }>((resolve) => {
      execFile(
        'sh',
        ['deploy/rolling-restart.sh', ...processes.map((p) => p.address)],
        {
          cwd: root,
          env: {
            ...process.env,
            RESTART_CMD: 'curl -s -X POST http://{host}:{port}/restart',
            SETTLE: '0',
            ...env,
          },
        },
        (error, stdout, stderr) =>
          resolve({
            status: error ? (typeof error.code === 'number' ? error.code : 1) : 0,
            output: `${stdout}${stderr}`,
          }),
      );
    });
  }

  it('restarts each process in turn, the next only once the last answers /readyz again', async () => {
    const processes = [await fakeProcess(1_500), await fakeProcess(1_500)];
    try {
      const run = await rollout(processes, {});
      expect(run.status, run.output).toBe(0);
      expect(processes.map((p) => p.restarted())).toEqual([true, true]);
      const lines = run.output.split('\n');
      const firstReady = lines.findIndex((line) => line.startsWith(`${processes[0]!.address} ready after`));
      const secondRestart = lines.findIndex((line) => line.startsWith(`restarting ${processes[1]!.address}`));
      expect(firstReady).toBeGreaterThan(-1);
      expect(secondRestart).toBeGreaterThan(firstReady);
      expect(lines[firstReady]).not.toMatch(/ready after 0 s/);
      expect(run.output).toContain('every process restarted');
    } finally {
      for (const p of processes) await p.close();
    }
  });

  it('stops the rollout when a restarted process does not come back, leaving the others alone', async () => {
    const processes = [await fakeProcess(60_000), await fakeProcess(0)];
    try {
      const run = await rollout(processes, { READY_TIMEOUT: '2' });
      expect(run.status).toBe(1);
      expect(run.output).toContain('rollout stopped');
      expect(processes.map((p) => p.restarted())).toEqual([true, false]);
    } finally {
      for (const p of processes) await p.close();
    }
  });
});
