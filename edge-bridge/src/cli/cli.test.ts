import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestCloud } from '../../test/test-cloud';
import { ControllerSimulator } from '../controller/controller-simulator';
import { loadBridgeConfig, writeBridgeConfig, type Env } from '../env';
import { runCli } from './program';

const TOKEN = 'cli-token';

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the CLI in-process; `stop` ends long-running commands as SIGINT would. */
function startCli(
  args: string[],
  env: Env = {},
): { done: Promise<Run>; stop: () => void; output: () => string } {
  let stdout = '';
  let stderr = '';
  let stop = () => {};
  const stopped = new Promise<void>((resolve) => (stop = resolve));
  const done = runCli(args, {
    stdout: (text) => void (stdout += text),
    stderr: (text) => void (stderr += text),
    env,
    interactive: false,
    untilStopped: () => stopped,
  }).then((code) => ({ code, stdout, stderr }));
  return { done, stop, output: () => stdout };
}

const cli = (args: string[], env: Env = {}) => startCli(args, env).done;

describe('edge-bridge CLI', () => {
  let dir: string;
  let configPath: string;
  let simulator: ControllerSimulator;
  let cloud: TestCloud;
  let simulatorPort = 0;

  beforeAll(async () => {
    simulator = new ControllerSimulator({ lockers: 6, doorOpenMs: 100 });
    simulatorPort = (await simulator.start()).port;
    cloud = new TestCloud({ token: TOKEN, locationKey: 'campo' });
    await cloud.start();
  });
  afterAll(async () => {
    await cloud.stop();
    await simulator.stop();
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'edge-bridge-cli-'));
    configPath = join(dir, 'edge-bridge.config.json');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const writeConfig = (controllerPort = simulatorPort, cloudUrl = cloud.url) =>
    writeBridgeConfig(configPath, {
      cloudUrl,
      locationKey: 'campo',
      bridgeToken: TOKEN,
      controller: {
        recipient: '127.0.0.1',
        port: controllerPort,
        key: simulator.key,
        mastercode: simulator.mastercode,
        timeoutMs: 2_000,
      },
      http: { host: '127.0.0.1', port: 0 },
      pollIntervalMs: 100,
      logLevel: 'silent',
    });

  describe('init', () => {
    /** Every value `init` needs but the location; the token from the environment, as the guide says. */
    const INIT_OPTIONS = [
      '--cloud-url',
      'https://cloud.example.com',
      '--recipient',
      '10.0.0.7',
      '--key',
      'k',
      '--mastercode',
      'm',
    ];
    const INIT_ENV = { BRIDGE_TOKEN: 'from-env' };

    it('writes a valid config from options and environment, readable only by its owner', async () => {
      const run = await cli(
        ['init', '--config', configPath, ...INIT_OPTIONS, '--location', 'campo'],
        INIT_ENV,
      );
      expect(run).toMatchObject({ code: 0, stderr: '' });
      expect(run.stdout).toContain(configPath);
      const loaded = loadBridgeConfig({ path: configPath, env: {} });
      expect(loaded.ok && loaded.config).toMatchObject({
        cloudUrl: 'https://cloud.example.com',
        bridgeToken: 'from-env',
        controller: { recipient: '10.0.0.7', port: 11000, timeoutMs: 30_000 },
        dataDir: join(dir, 'data'),
        http: { host: '127.0.0.1', port: 8790 },
      });
      expect(statSync(configPath).mode & 0o777).toBe(0o600);
    });

    it('refuses a location key the cloud could not have, saying what one looks like', async () => {
      for (const location of ['Campo Due', 'campo-', 'CAMPO']) {
        const run = await cli(
          ['init', '--config', configPath, ...INIT_OPTIONS, '--location', location],
          INIT_ENV,
        );
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(
          `locationKey: a location key as the admin area shows it (lowercase, e.g. vicolo or campo-2), got ${JSON.stringify(location)}`,
        );
        expect(existsSync(configPath)).toBe(false);
      }
      const run = await cli(
        ['init', '--config', configPath, ...INIT_OPTIONS, '--location', 'campo-2'],
        INIT_ENV,
      );
      expect(run.code).toBe(0);
    });

    it('refuses to overwrite without --force', async () => {
      writeConfig();
      const run = await cli(['init', '--config', configPath, '--cloud-url', 'https://x.example.com']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/already exists.*--force/);
    });

    it('lists every missing value as a usage error', async () => {
      const run = await cli(['init', '--config', configPath, '--location', 'campo']);
      expect(run.code).toBe(2);
      expect(run.stderr).toContain('--cloud-url');
      expect(run.stderr).toContain('--token');
      expect(run.stderr).toContain('--mastercode');
    });

    it('lets environment variables override the file when loading', async () => {
      writeConfig();
      const loaded = loadBridgeConfig({
        path: configPath,
        env: { BRIDGE_CONTROLLER_PORT: '12345', BRIDGE_TOKEN: 'other' },
      });
      expect(loaded.ok && [loaded.config.controller.port, loaded.config.bridgeToken]).toEqual([
        12345,
        'other',
      ]);
      const bad = loadBridgeConfig({ path: configPath, env: { BRIDGE_POLL_INTERVAL_MS: 'soon' } });
      expect(bad.ok).toBe(false);
    });

    it('reads a number from the environment as the cloud reads its own: digits, blanks around allowed', () => {
      writeConfig();
      const spaced = loadBridgeConfig({ path: configPath, env: { BRIDGE_CONTROLLER_PORT: ' 12345 ' } });
      expect(spaced.ok && spaced.config.controller.port).toBe(12345);
      for (const written of ['1e3', '0x50', '12.5', '-80']) {
        const bad = loadBridgeConfig({ path: configPath, env: { BRIDGE_HTTP_PORT: written } });
        expect(!bad.ok && bad.problems).toEqual([
          `BRIDGE_HTTP_PORT: expected a whole number, got "${written}"`,
        ]);
      }
    });

    it('reads the link backoff from the file: each wait optional, none but positive', () => {
      writeConfig();
      const file = JSON.parse(readFileSync(configPath, 'utf8')) as Record<string, unknown>;
      writeFileSync(configPath, JSON.stringify({ ...file, linkBackoff: { conflictMs: 1_000 } }));
      const loaded = loadBridgeConfig({ path: configPath, env: {} });
      expect(loaded.ok && loaded.config.linkBackoff).toEqual({ conflictMs: 1_000 });
      writeFileSync(configPath, JSON.stringify({ ...file, linkBackoff: { conflictMs: 0 } }));
      const bad = loadBridgeConfig({ path: configPath, env: {} });
      expect(!bad.ok && bad.problems).toEqual([expect.stringContaining('linkBackoff.conflictMs')]);
    });
  });

  describe('against the controller', () => {
    beforeEach(() => {
      writeConfig();
    });

    it('prints the lockers as a table', async () => {
      simulator.setOccupancy(2, 'booked');
      const run = await cli(['--config', configPath, 'state']);
      expect(run.code).toBe(0);
      const lines = run.stdout.trim().split('\n');
      expect(lines[0]).toMatch(/^LOCKER\s+SIZE\s+STATE\s+DOOR\s+CODE$/);
      expect(lines.slice(2, 8)).toHaveLength(6);
      expect(lines[3]).toMatch(/^2\s+standard\s+booked\s+closed\s+2$/);
      expect(lines[8]).toMatch(/^6 lockers: 5 free, 1 booked/);
      simulator.setOccupancy(2, 'free');
    });

    it('prints the lockers as JSON with --json', async () => {
      const run = await cli(['--config', configPath, 'state', '--json']);
      expect(run.code).toBe(0);
      const lockers = JSON.parse(run.stdout) as { locker: number; occupancy: string; size: string }[];
      expect(lockers).toHaveLength(6);
      expect(lockers[3]).toMatchObject({
        locker: 4,
        size: 'large',
        occupancy: 'free',
        doorOpen: false,
        code: 1,
      });
    });

    it('opens a locker and records it for the cloud', async () => {
      const run = await cli(['--config', configPath, 'open', '3']);
      expect(run).toMatchObject({ code: 0, stdout: 'Locker 3 opened.\n' });
      // The door swings shut again after 100 ms: its opening is in the controller's history.
      expect(simulator.history()).toContainEqual(expect.objectContaining({ locker: 3, type: 'door_open' }));
      const queue = JSON.parse((await cli(['--config', configPath, 'queue', 'list', '--json'])).stdout) as {
        outbox: { kind: string; message: Record<string, unknown> }[];
      };
      expect(queue.outbox.map((i) => i.message)).toEqual([
        expect.objectContaining({
          type: 'event',
          kind: 'technician-action',
          action: 'open',
          lockerId: 3,
          ok: true,
        }),
      ]);
    });

    it('reports a failed action with exit 1 and still records it', async () => {
      simulator.setFault({ kind: 'fail' }, 1);
      const run = await cli(['--config', configPath, 'inhibit', '5']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/HTTP 500/);
      const queue = JSON.parse((await cli(['--config', configPath, 'queue', 'list', '--json'])).stdout) as {
        outbox: { message: Record<string, unknown> }[];
      };
      expect(queue.outbox[0]?.message).toMatchObject({
        action: 'inhibit',
        ok: false,
        error: { code: 'controller/server_error' },
      });
    });

    it('prints history for a period, as a table or JSON', async () => {
      await cli(['--config', configPath, 'unbook', '6']);
      // Every run asks for the whole stored past: everything this test did is in it.
      const history = (...options: string[]) =>
        cli(['--config', configPath, 'history', '--from', '2000-01-01', '--to', '2100-12-31', ...options]);
      const table = await history('--locker', '6', '--zone', 'Europe/Rome');
      expect(table.code).toBe(0);
      expect(table.stdout).toMatch(/WHEN \(Europe\/Rome\)/);
      expect(table.stdout).toMatch(/6\s+\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d\s+unbook/);
      const json = await history('--json');
      const entries = JSON.parse(json.stdout) as { type: string }[];
      expect(entries.map((e) => e.type)).toContain('unbook');
      const bad = await cli(['--config', configPath, 'history', '--from', 'yesterday', '--to', '2100-12-31']);
      expect(bad.code).toBe(2);
      const missing = await cli(['--config', configPath, 'history', '--from', '2000-01-01']);
      expect(missing.code).toBe(2);
    });

    it('fails clearly when the controller is unreachable', async () => {
      writeConfig(1);
      const run = await cli(['--config', configPath, 'state']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^error: controller 127\.0\.0\.1:1 unreachable/);
    });
  });

  describe('queue', () => {
    beforeEach(() => {
      writeConfig();
    });

    it('purges snapshots by default and protects events unless forced', async () => {
      await cli(['--config', configPath, 'open', '1']);
      const refused = await cli(['--config', configPath, 'queue', 'purge', '--kind', 'event']);
      expect(refused.code).toBe(2);
      expect((await cli(['--config', configPath, 'queue', 'purge'])).stdout).toMatch(/Deleted 0/);
      const forced = await cli(['--config', configPath, 'queue', 'purge', '--kind', 'event', '--force']);
      expect(forced).toMatchObject({ code: 0, stdout: expect.stringMatching(/Deleted 1/) });
      expect((await cli(['--config', configPath, 'queue', 'retry'])).stdout).toMatch(/No command/);
    });
  });

  describe('status, run and doctor', () => {
    beforeEach(() => {
      writeConfig();
    });

    it('reads the buffer when the daemon is not running', async () => {
      await cli(['--config', configPath, 'open', '2']);
      const run = await cli(['--config', configPath, 'status', '--json']);
      expect(run.code).toBe(1);
      expect(JSON.parse(run.stdout)).toMatchObject({
        source: 'buffer',
        daemonRunning: false,
        buffer: { depth: 1, events: 1 },
      });
    });

    it('runs the daemon, which delivers what the technician did; status reads it', async () => {
      await cli(['--config', configPath, 'open', '4']);
      const daemon = startCli(['--config', configPath, 'run']);
      const status = async () => {
        const run = await cli(['--config', configPath, 'status', '--json']);
        return run.code === 0 ? (JSON.parse(run.stdout) as unknown) : run;
      };
      // Linked once the cloud takes its hello (a moment after the socket opens).
      await expect.poll(status, { timeout: 5_000 }).toMatchObject({
        source: 'daemon',
        status: 'ok',
        link: { up: true },
        controller: { lastPollOk: true },
      });
      await expect
        .poll(() => cloud.of('event').some((e) => e.kind === 'technician-action' && e.lockerId === 4))
        .toBe(true);
      const text = await cli(['--config', configPath, 'status']);
      expect(text.stdout).toMatch(/^Status:\s+ok/);
      daemon.stop();
      expect((await daemon.done).code).toBe(0);
    });

    it('says the link is not yet accepted while the cloud holds its hello', async () => {
      const holding = new TestCloud({ token: TOKEN, locationKey: 'campo', acceptHello: false });
      await holding.start();
      try {
        writeConfig(simulatorPort, holding.url);
        const daemon = startCli(['--config', configPath, 'run']);
        await expect.poll(() => holding.of('hello').length, { timeout: 5_000 }).toBe(1);
        await expect
          .poll(async () => (await cli(['--config', configPath, 'status'])).stdout, { timeout: 5_000 })
          .toMatch(/^Link:\s+connected since \S+, not yet accepted by the cloud$/m);
        const run = await cli(['--config', configPath, 'status', '--json']);
        expect(run.code).toBe(1);
        expect(JSON.parse(run.stdout)).toMatchObject({
          status: 'degraded',
          link: { up: false, state: 'open' },
        });
        daemon.stop();
        expect((await daemon.done).code).toBe(0);
      } finally {
        await holding.stop();
      }
    });

    it('doctor checks config, buffer, disk, controller, cloud, clock, time sync and the unit', async () => {
      const run = await cli(['--config', configPath, 'doctor', '--json']);
      const report = JSON.parse(run.stdout) as { ok: boolean; checks: { name: string; verdict: string }[] };
      expect(report.checks.map((c) => [c.name, c.verdict])).toEqual([
        ['config', 'ok'],
        ['buffer', 'ok'],
        ['disk', 'ok'],
        ['controller', 'ok'],
        ['cloud', 'ok'],
        ['clock', 'ok'],
        // These depend on the machine's systemd; site-checks.test.ts covers each answer.
        ['time sync', expect.stringMatching(/^(ok|warn|skip)$/)],
        ['service', expect.stringMatching(/^(warn|skip)$/)],
      ]);
      expect(run.code).toBe(0);
    });

    it('names each missing value and where it can be given, when there is no config', async () => {
      const run = await cli(['--config', join(dir, 'missing.json'), 'status'], {
        BRIDGE_CLOUD_URL: 'https://cloud.example.com',
        BRIDGE_CONTROLLER_KEY: 'key',
      });
      expect(run.code).not.toBe(0);
      const problems = run.stderr.split('\n').filter((line) => line.startsWith('  - '));
      expect(problems).toEqual([
        `  - no config file at ${join(dir, 'missing.json')} (run: edge-bridge init)`,
        '  - locationKey: missing (set it in the config file or with BRIDGE_LOCATION_KEY)',
        '  - bridgeToken: missing (set it in the config file or with BRIDGE_TOKEN)',
        '  - controller.recipient: missing (set it in the config file or with BRIDGE_CONTROLLER_RECIPIENT)',
        '  - controller.mastercode: missing (set it in the config file or with BRIDGE_CONTROLLER_MASTERCODE)',
      ]);
    });

    it('doctor fails with the reason when the config is missing, one problem a line', async () => {
      const missing = join(dir, 'missing.json');
      const run = await cli(['--config', missing, 'doctor'], {
        BRIDGE_CLOUD_URL: 'https://cloud.example.com',
      });
      expect(run.code).toBe(1);
      const lines = run.stdout.split('\n');
      const config = lines.findIndex((line) => line.startsWith('✗ config '));
      expect(lines.slice(config, config + 7)).toEqual([
        `✗ config       ${missing}:`,
        `               - no config file at ${missing} (run: edge-bridge init)`,
        '               - locationKey: missing (set it in the config file or with BRIDGE_LOCATION_KEY)',
        '               - bridgeToken: missing (set it in the config file or with BRIDGE_TOKEN)',
        '               - controller.recipient: missing (set it in the config file or with BRIDGE_CONTROLLER_RECIPIENT)',
        '               - controller.key: missing (set it in the config file or with BRIDGE_CONTROLLER_KEY)',
        '               - controller.mastercode: missing (set it in the config file or with BRIDGE_CONTROLLER_MASTERCODE)',
      ]);
      expect(lines[config + 7]).toMatch(/^. service /);
    });
  });

  describe('command line', () => {
    it.each([[['--bogus']], [['open']], [['open', '0']], [['open', 'x1']], [['queue']], [['nonsense']]])(
      'exits 2 on usage errors: %j',
      async (args) => {
        expect((await cli(args)).code).toBe(2);
      },
    );

    it.each(['0', 'x1', '123456', '1.5'])(
      'says which locker numbers there are when given %j',
      async (locker) => {
        const run = await cli(['open', locker]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`expected a locker number from 1 to 99999, got "${locker}"`);
      },
    );

    it('exits 0 on --help and --version', async () => {
      expect((await cli(['--help'])).code).toBe(0);
      expect((await cli(['--version'])).stdout).toMatch(
        /^edge-bridge \d+\.\d+\.\d+ \(protocol \d+\.\d+\.\d+, bridge wire protocol v1\)\n$/,
      );
    });

    it('runs as a program through bin/edge-bridge.js', async () => {
      writeConfig();
      const bin = resolve(import.meta.dirname, '../../bin/edge-bridge.js');
      const { stdout } = await promisify(execFile)(
        process.execPath,
        [bin, '--config', configPath, 'state', '--json'],
        {
          env: { ...process.env, BRIDGE_CONFIG: '' },
        },
      );
      expect(JSON.parse(stdout)).toHaveLength(6);
      const usage = await promisify(execFile)(process.execPath, [bin, 'open']).catch(
        (error: { code: number; stderr: string }) => error,
      );
      expect(usage).toMatchObject({
        code: 2,
        stderr: expect.stringContaining("missing required argument 'locker'"),
      });
    });
  });
});
