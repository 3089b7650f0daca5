// The packaged bridge on a site box (issue 21): the esbuild bundle the .deb installs in
// /usr/lib/deposito-edge-bridge, run by plain node (no tsx). `edge-bridge state` on 12 lockers, wall
// time and peak memory (maxRSS) of the whole process; then the daemon `run` idle, polling 12 lockers
// every 5 s with its link up: its resident memory sampled every second once linked (the most it
// took while idle), and its start-up peak for the record. Baseline: `state` from the sources through
// tsx. Memory is in MiB (1,048,576 bytes), as `ps`, `top` and /usr/bin/time count it; the targets'
// "60 MB" are read the same way.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { writeBridgeConfig } from '@deposito/edge-bridge/env';
import { TestCloud } from '@deposito/edge-bridge/test/test-cloud';
import { BUNDLE_FILE, NODE_OPTIONS_FOR_SITE, buildBridge } from '../package-bridge/build-bridge';
import { residentMiB } from '../support/proc-stats';
import { elapsedMs, percentile, round, type BenchOptions, type BenchResult } from './bench-result';
import { REPO_ROOT } from '../support/repo-root';

export const name = 'built-bridge';
const TARGET_WALL_MS = 300;
const TARGET_MIB = 60;
const TOKEN = 'bench-token';
const LOCATION = 'campo';
const LOCKERS = 12;

/** Loaded before the CLI: reports the process's peak resident memory (KiB) on stderr as it exits. */
const REPORT_MAX_RSS =
  'data:text/javascript,process.on("exit",()=>process.stderr.write(`maxrss=${process.resourceUsage().maxRSS}\\n`))';

interface Measured {
  wallMs: number;
  peakMiB: number;
  code: number | null;
  stdout: string;
}

function measure(args: string[], env: Record<string, string>): Promise<Measured> {
  return new Promise((resolve, reject) => {
    const startedAt = process.hrtime.bigint();
    const child = spawn(process.execPath, [...NODE_OPTIONS_FOR_SITE, '--import', REPORT_MAX_RSS, ...args], {
      cwd: REPO_ROOT,
      env: { PATH: process.env.PATH, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) => {
      const wallMs = elapsedMs(startedAt);
      const kib = Number(/maxrss=(\d+)/.exec(stderr)?.[1] ?? Number.NaN);
      resolve({ wallMs, peakMiB: kib / 1024, code, stdout });
    });
  });
}

async function idleDaemon(bundle: string, configPath: string, idleMs: number, cloud: TestCloud) {
  const child = spawn(process.execPath, [...NODE_OPTIONS_FOR_SITE, bundle, 'run'], {
    env: { PATH: process.env.PATH, BRIDGE_CONFIG: configPath, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  try {
    const deadline = Date.now() + 30_000;
    while (!cloud.of('hello').length) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error('the built daemon did not say hello');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    let idleMiB = 0;
    for (const end = Date.now() + idleMs; Date.now() < end;) {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      idleMiB = Math.max(idleMiB, residentMiB(child.pid!).now);
    }
    return { idleMiB, startPeakMiB: residentMiB(child.pid!).peak, linked: cloud.of('hello').length > 0 };
  } finally {
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-built-bridge-'));
  const simulator = new ControllerSimulator({ lockers: LOCKERS });
  await simulator.start();
  const cloud = new TestCloud({ token: TOKEN, locationKey: LOCATION });
  await cloud.start();
  try {
    const built = await buildBridge(path.join(dir, 'lib'));
    const bundle = path.join(built.dir, BUNDLE_FILE);
    const configPath = path.join(dir, 'edge-bridge.json');
    writeBridgeConfig(configPath, {
      cloudUrl: cloud.url,
      locationKey: LOCATION,
      bridgeToken: TOKEN,
      controller: simulator.connection(),
      dataDir: path.join(dir, 'data'),
      http: { host: '127.0.0.1', port: 0 },
      pollIntervalMs: 5_000,
      logLevel: 'warn',
    });
    const env = { BRIDGE_CONFIG: configPath };
    const runs: Measured[] = [];
    for (let i = 0; i < (options.quick ? 1 : 7); i += 1) runs.push(await measure([bundle, 'state'], env));
    const gridShown = runs.every((r) => r.code === 0 && /\b12\b/.test(r.stdout));
    const wallMs = percentile(
      runs.map((r) => r.wallMs),
      50,
    );
    const peakMiB = Math.max(...runs.map((r) => r.peakMiB));
    // The sources through tsx, as before the package: once in a full run (it takes over a second).
    const baseline = options.quick
      ? undefined
      : (await measure([path.join(REPO_ROOT, 'edge-bridge', 'bin', 'edge-bridge.js'), 'state'], env)).wallMs;
    const { idleMiB, startPeakMiB, linked } = await idleDaemon(
      bundle,
      configPath,
      options.quick ? 1_000 : 30_000,
      cloud,
    );
    return {
      name,
      figure: round(wallMs / 1000),
      unit: 's',
      ...(baseline === undefined
        ? {}
        : { baseline: round(baseline / 1000), ratio: round(wallMs / baseline) }),
      target: `state ≤ ${TARGET_WALL_MS / 1000} s and ≤ ${TARGET_MIB} MB peak; daemon idle ≤ ${TARGET_MIB} MB`,
      pass: wallMs <= TARGET_WALL_MS && peakMiB <= TARGET_MIB && idleMiB <= TARGET_MIB && gridShown && linked,
      notes: `packaged bundle on node ${process.versions.node}, ${LOCKERS} lockers; median of ${runs.length} \`state\` runs; daemon idle ${options.quick ? 1 : 30} s, polling every 5 s; baseline: sources through tsx`,
      details: {
        statePeakMiB: round(peakMiB),
        daemonIdleMiB: round(idleMiB),
        daemonStartPeakMiB: round(startPeakMiB),
        gridShown,
        linked,
        bridgeVersion: built.bridgeVersion,
      },
    };
  } finally {
    await cloud.stop();
    await simulator.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
