import { execFile, execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  adminToken,
  callJson,
  seedSite,
  SITE_LOCATION,
  SITE_TOKEN,
  startHubCloud,
  type HubCloud,
} from '@deposito/cloud/test/bridge-site';
import { type TestDatabase, openTestStore, closeTestStore } from '@deposito/cloud/test/test-store';
import type { Store } from '@deposito/cloud/store/store';
import { buildBridgePackage, PACKAGE_NAME } from './package-bridge/debian-package';

// Issue 21: the bridge as a technician gets it. The .deb is built, installed into this machine with
// dpkg (CI runs as root on Debian), and the INSTALLED /usr/bin/edge-bridge (the esbuild bundle on the
// system's node, not the sources) runs against a controller simulator and a cloud: init, doctor,
// run delivers a door open, status shows the link up; `dpkg -r` then leaves config and buffer.

const EDGE_BRIDGE = '/usr/bin/edge-bridge';
const CONFIG = '/etc/deposito/edge-bridge.json';
const DATA_DIR = '/var/lib/deposito-bridge';
const BUFFER = path.join(DATA_DIR, 'edge-bridge.db');
const LOCKERS = 12;

const isRoot = process.getuid?.() === 0;
const hasDpkg = spawnSync('dpkg', ['--version']).status === 0;
const installed = () =>
  spawnSync('dpkg-query', ['-W', '-f=${Status}', PACKAGE_NAME], { encoding: 'utf8' }).stdout.includes(
    'install ok installed',
  );

/**
 * The installed command, as root (it runs every command but `init` as the `deposito` user). Never
 * spawnSync: the cloud runs in this process and must answer meanwhile.
 */
function edgeBridge(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      EDGE_BRIDGE,
      args,
      { encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env }, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function startInstalled(args: string[]): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(EDGE_BRIDGE, args, {
    env: { PATH: process.env.PATH, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return { child, output: () => output };
}

async function stopChild(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Whether dpkg can satisfy `Depends: nodejs (>= N)` here. CI's Node comes from NodeSource's
 * `nodejs` package, which does; a node installed outside dpkg would not, and then the install is
 * forced past that one dependency (the node on the PATH is what the wrapper runs either way).
 */
function nodejsPackageSatisfies(nodeMajor: number): boolean {
  const version = spawnSync('dpkg-query', ['-W', '-f=${Version}', 'nodejs'], { encoding: 'utf8' }).stdout;
  if (!version) return false;
  const atLeast = spawnSync('dpkg', ['--compare-versions', version, 'ge', String(nodeMajor)]).status === 0;
  const below = spawnSync('dpkg', ['--compare-versions', version, 'lt', String(nodeMajor + 1)]).status === 0;
  return atLeast && below;
}

describe.skipIf(!isRoot || !hasDpkg)('the installed edge bridge (.deb, dpkg -i, root only)', () => {
  let workDir: string;
  let database: TestDatabase;
  let store: Store;
  let site: HubCloud;
  let simulator: { child: ChildProcess; output: () => string; url: string } | undefined;
  let daemon: { child: ChildProcess; output: () => string } | undefined;
  let postinstOutput = '';

  beforeAll(async () => {
    // Never overwrite a real site's bridge: only a machine without one (or with this test's) runs this.
    if (!installed() && existsSync(CONFIG)) throw new Error(`${CONFIG} exists: not a CI machine`);
    if (installed()) execFileSync('dpkg', ['--purge', PACKAGE_NAME], { stdio: 'pipe' });
    workDir = mkdtempSync(path.join(tmpdir(), 'installed-bridge-'));
    const deb = await buildBridgePackage({ outDir: workDir });
    const force = nodejsPackageSatisfies(deb.nodeMajor) ? [] : ['--force-depends'];
    postinstOutput = execFileSync('dpkg', ['-i', ...force, deb.file], { encoding: 'utf8', stdio: 'pipe' });

    ({ database, store } = await openTestStore('sqlite'));
    await seedSite(store, LOCKERS);
    site = await startHubCloud({ store, target: database.target });

    const sim = startInstalled(['simulate-controller', '--port', '0', '--lockers', String(LOCKERS)]);
    simulator = { ...sim, url: '' }; // stopped by afterAll even if it never starts listening
    simulator.url = await vi.waitFor(
      () => {
        const found = /at (http:\/\/\S+) \(key/.exec(sim.output())?.[1];
        if (!found) throw new Error(`simulator not started yet\n${sim.output()}`);
        return found;
      },
      { timeout: 30_000, interval: 50 },
    );
  }, 240_000);

  afterAll(async () => {
    await stopChild(daemon?.child);
    await stopChild(simulator?.child);
    await site?.stop();
    await closeTestStore(store, database);
    // The machine as it was: purge deletes config and buffer too.
    if (installed() || existsSync(CONFIG)) spawnSync('dpkg', ['--purge', PACKAGE_NAME]);
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  }, 60_000);

  it('installs edge-bridge on the PATH, the unit (not started) and says what to run next', async () => {
    expect(existsSync('/usr/lib/systemd/system/edge-bridge.service')).toBe(true);
    expect(postinstOutput).toMatch(/edge-bridge init .*--data-dir \/var\/lib\/deposito-bridge/s);
    expect(postinstOutput).toMatch(/edge-bridge doctor/);
    expect(postinstOutput).toMatch(/systemctl enable --now edge-bridge/);
    expect(spawnSync('id', ['deposito']).status).toBe(0);
    // Plain JavaScript and the one native module: no tsx, no TypeScript at run time.
    expect(readdirSync('/usr/lib/deposito-edge-bridge/node_modules').sort()).toEqual([
      'better-sqlite3',
      'bindings',
      'file-uri-to-path',
    ]);
    const version = await edgeBridge(['--version']);
    expect(version.stdout).toMatch(
      /^edge-bridge \d+\.\d+\.\d+ \(protocol \d+\.\d+\.\d+, bridge wire protocol v1\)$/m,
    );
  });

  it('init writes the config for the service user; doctor passes every check it can on this machine', async () => {
    const init = await edgeBridge(
      [
        'init',
        '--cloud-url',
        site.url,
        '--location',
        SITE_LOCATION,
        '--recipient',
        '127.0.0.1',
        '--port',
        new URL(simulator!.url).port,
        '--key',
        'sim-key',
        '--mastercode',
        'sim-master',
        '--data-dir',
        DATA_DIR,
        '--http-port',
        '0',
        '--poll-interval',
        '200',
      ],
      { BRIDGE_TOKEN: SITE_TOKEN },
    );
    expect(init, init.stderr).toMatchObject({ code: 0, stdout: expect.stringContaining(CONFIG) });
    const config = statSync(CONFIG);
    expect(config.mode & 0o777).toBe(0o640);
    expect(execFileSync('stat', ['-c', '%G', CONFIG], { encoding: 'utf8' }).trim()).toBe('deposito');

    const doctor = await edgeBridge(['doctor', '--json']);
    const report = JSON.parse(doctor.stdout) as {
      ok: boolean;
      checks: { name: string; verdict: string; detail: string }[];
    };
    const systemd = existsSync('/run/systemd/system');
    for (const check of report.checks) {
      // Without systemd (a CI container) its checks cannot pass: they say why and do not count. With
      // it, the unit is rightly not enabled yet (the guide enables it after doctor).
      if (!systemd && (check.name === 'time sync' || check.name === 'service'))
        expect(check, JSON.stringify(check)).toMatchObject({
          verdict: 'skip',
          detail: expect.stringMatching(/systemd is not running/),
        });
      else if (systemd && check.name === 'service') expect(check.verdict).toMatch(/^(ok|warn)$/);
      else expect(check, JSON.stringify(check)).toMatchObject({ verdict: 'ok' });
    }
    expect(report.checks.map((c) => c.name)).toEqual(
      expect.arrayContaining([
        'config',
        'buffer',
        'disk',
        'controller',
        'cloud',
        'clock',
        'time sync',
        'service',
      ]),
    );
    expect(report.ok).toBe(true);
    expect(doctor.code).toBe(0);
    const text = await edgeBridge(['doctor']);
    expect(text.stdout).toMatch(/^✓ controller /m);
    expect(text.stdout).not.toMatch(/^✗/m);
    // The buffer doctor opened belongs to the service's user, who writes it later.
    expect(execFileSync('stat', ['-c', '%U', BUFFER], { encoding: 'utf8' }).trim()).toBe('deposito');
  });

  it('run links to the cloud and opens a door the operator asks for; status shows the link up', async () => {
    daemon = startInstalled(['run']);
    const hub = site.hub;
    await expect.poll(() => hub.isOnline(SITE_LOCATION), { timeout: 30_000 }).toBe(true);

    const token = await adminToken(store);
    const opened = await callJson(site.url, 'POST', '/api/lockers/open', {
      token,
      body: { location: SITE_LOCATION, lockerId: 5 },
    });
    expect(opened.status, JSON.stringify(opened.body) + daemon.output()).toBe(200);
    const door = async () => {
      const state = (await (await fetch(`${simulator!.url}/_sim/state`)).json()) as {
        lockers: { number: number; doorOpen: boolean }[];
      };
      return state.lockers.find((l) => l.number === 5)?.doorOpen;
    };
    await expect.poll(door, { timeout: 15_000 }).toBe(true);

    await expect.poll(async () => (await edgeBridge(['status', '--json'])).code, { timeout: 15_000 }).toBe(0);
    const status = JSON.parse((await edgeBridge(['status', '--json'])).stdout) as Record<string, unknown>;
    expect(status).toMatchObject({ source: 'daemon', status: 'ok', link: { up: true } });
    expect((await edgeBridge(['status'])).stdout).toMatch(/^Link:\s+up since/m);
  });

  it('dpkg -r removes the program but keeps the config and the buffer', async () => {
    await stopChild(daemon?.child);
    await stopChild(simulator?.child);
    execFileSync('dpkg', ['-r', PACKAGE_NAME], { stdio: 'pipe' });
    expect(existsSync(EDGE_BRIDGE)).toBe(false);
    expect(existsSync(BUFFER)).toBe(true);
    expect(existsSync(CONFIG)).toBe(true);
  });
});
