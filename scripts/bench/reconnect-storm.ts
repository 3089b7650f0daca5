// A reconnect storm: 1,000 bridges with the production reconnect policy (the real BridgeLink: full
// jitter, 30 s cap, reset on a hello accepted) lose their cloud process to a crash; a new one starts
// on the same address. All must be back (their hello accepted) within 30 s of it being ready, no request may get a 5xx
// meanwhile, and the cloud's CPU may not stay pinned for more than 5 s at a time.
import { pino } from 'pino';
import { BRIDGE_FEATURES } from '@deposito/protocol/bridge/v1';
import { BridgeLink, DEFAULT_LINK_BACKOFF } from '@deposito/edge-bridge/link/bridge-link';
import { buildEmptyHello } from '@deposito/cloud/test/builders';
import { freePort } from '../support/ports';
import { cpuSeconds } from '../support/proc-stats';
import { round, type BenchOptions, type BenchResult } from './bench-result';
import { seedScaleSites } from './light-bridge';
import { startCloudProcess, type ServerProcess } from './processes';
import { createBenchDatabase } from './stores';

export const name = 'reconnect-storm';
const TARGET_BACK_MS = 30_000;
const MAX_PINNED_MS = 5_000;

/** Samples a process's CPU every 250 ms; the longest run of samples at ≥ 95 % of one core. */
function watchCpu(pid: number): { stop(): number } {
  let last = cpuSeconds(pid);
  let pinnedSince: number | null = null;
  let longest = 0;
  const timer = setInterval(() => {
    let now: number;
    try {
      now = cpuSeconds(pid);
    } catch {
      return; // the process is gone
    }
    const busy = (now - last) / 0.25;
    last = now;
    if (busy >= 0.95) pinnedSince ??= Date.now();
    else pinnedSince = null;
    if (pinnedSince !== null) longest = Math.max(longest, Date.now() - pinnedSince + 250);
  }, 250);
  return {
    stop() {
      clearInterval(timer);
      return longest;
    },
  };
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const bridgeCount = options.quick ? 20 : 1_000;
  const database = await createBenchDatabase('sqlite');
  const store = await database.open();
  const sites = await seedScaleSites(store, bridgeCount);
  await store.close();
  const port = await freePort();
  let cloud: ServerProcess = await startCloudProcess({ databaseUrl: database.url, jobs: true, port });
  const logger = pino({ level: 'silent' });
  const links = sites.map(({ key, token }) => {
    const link: BridgeLink = new BridgeLink({
      cloudUrl: cloud.url,
      token,
      locationKey: key,
      logger,
      // Quick mode only proves the benchmark works: a backoff a hundred times shorter.
      backoff: options.quick ? { baseMs: 10, capMs: 300 } : DEFAULT_LINK_BACKOFF,
      onOpen: () => link.send(buildEmptyHello(key, 'bench', BRIDGE_FEATURES)),
    });
    return link;
  });
  let probing = true;
  const statuses = new Map<number, number>();
  try {
    for (const link of links) link.start();
    const upUntil = Date.now() + 60_000;
    while (!links.every((link) => link.isAccepted) && Date.now() < upUntil)
      await new Promise((r) => setTimeout(r, 50));

    // The crash, and a new process on the same address as soon as it can listen.
    cloud.child.kill('SIGKILL');
    await new Promise((resolve) => cloud.child.once('exit', resolve));
    cloud = await startCloudProcess({ databaseUrl: database.url, jobs: true, port });
    const readyAt = Date.now();
    const cpu = watchCpu(cloud.child.pid!);
    // A visitor's calls meanwhile: none may fail on the server's side.
    const probe = (async () => {
      while (probing) {
        const response = await fetch(`${cloud.url}/api/locations/vicolo`).catch(() => null);
        const status = response?.status ?? 0;
        await response?.arrayBuffer();
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    while (!links.every((link) => link.isAccepted) && Date.now() - readyAt < 2 * TARGET_BACK_MS) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const backMs = Date.now() - readyAt;
    const back = links.filter((link) => link.isAccepted).length;
    // Let the hub settle the last sessions before the CPU watch ends.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    probing = false;
    await probe;
    const pinnedMs = cpu.stop();
    const serverErrors = [...statuses].filter(([status]) => status >= 500 || status === 0);
    return {
      name,
      figure: round(backMs / 1000),
      unit: `s until ${bridgeCount} bridges are back`,
      target: `≤ ${TARGET_BACK_MS / 1000} s, no 5xx, CPU pinned ≤ ${MAX_PINNED_MS / 1000} s`,
      pass:
        back === bridgeCount &&
        backMs <= TARGET_BACK_MS &&
        serverErrors.length === 0 &&
        pinnedMs <= MAX_PINNED_MS,
      notes: `${bridgeCount} real BridgeLinks (production backoff) in the bench process; the cloud killed with SIGKILL and started again on the same port; a visitor's call every 100 ms meanwhile`,
      details: {
        back,
        longestPinnedCpuMs: pinnedMs,
        probes: [...statuses.values()].reduce((sum, n) => sum + n, 0),
        serverErrors: serverErrors.reduce((sum, [, n]) => sum + n, 0),
      },
    };
  } finally {
    probing = false;
    await Promise.all(links.map((link) => link.stop()));
    await cloud.stop();
    await database.dispose();
  }
}
