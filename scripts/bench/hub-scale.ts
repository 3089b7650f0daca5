// The bridge hub at scale: one cloud process with 1,000 bridges connected (light simulated bridges,
// protocol v1, in this process) against the same process with one. An operator's door open must not
// get slower as sites are added (p99 ≤ 2 × the one-bridge p99), and each connected bridge must cost
// the cloud little memory (≤ 150 KB of resident memory per bridge).
import { execFileSync } from 'node:child_process';
import { request } from 'undici';
import { elapsedMs, percentile, round, type BenchOptions, type BenchResult } from './bench-result';
import { LightBridge, seedScaleSites } from './light-bridge';
import { startCloudProcess } from './processes';
import { createBenchDatabase } from './stores';
import { adminSession } from '../support/admin-session';

export const name = 'hub-scale';
const ADMIN = { email: 'bench@deposito.local', password: 'bench-password-1234' };
const MAX_P99_RATIO = 2;
const MAX_BYTES_PER_BRIDGE = 150 * 1024;

/** Resident memory of a process, from the kernel (what the machine pays for). */
function rssBytes(pid: number): number {
  return Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)], { encoding: 'utf8' }).trim()) * 1024;
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const bridgeCount = options.quick ? 20 : 1_000;
  const rounds = options.quick ? 20 : 300;
  const database = await createBenchDatabase('sqlite');
  const store = await database.open();
  const sites = await seedScaleSites(store, bridgeCount);
  await store.close();

  const cloud = await startCloudProcess({ databaseUrl: database.url, jobs: true, admin: ADMIN });
  const bridges = sites.map((site) => new LightBridge(cloud.url, site.key, site.token));
  try {
    const token = await adminSession(cloud.url, ADMIN);

    const failures: string[] = [];
    const open = async (bridge: LightBridge, lockerId: number): Promise<number> => {
      const startedAt = process.hrtime.bigint();
      const response = await request(`${cloud.url}/api/lockers/open`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ location: bridge.locationKey, lockerId }),
      });
      const body = (await response.body.json()) as { outcome?: string };
      const ms = elapsedMs(startedAt);
      if (response.statusCode !== 200 || body.outcome !== 'executed') {
        failures.push(`${bridge.locationKey}: ${response.statusCode} ${JSON.stringify(body)}`);
      }
      return ms;
    };
    /** Waits until an open to `bridge` goes through: its session is live on the hub. */
    const live = async (bridge: LightBridge) => {
      const until = Date.now() + 30_000;
      for (;;) {
        const response = await request(`${cloud.url}/api/lockers/open`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ location: bridge.locationKey, lockerId: 1 }),
        });
        const text = await response.body.text();
        if (response.statusCode === 200) return;
        if (Date.now() > until) throw new Error(`${bridge.locationKey} never became live: ${text}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    const measure = async (targets: readonly LightBridge[]) => {
      const samples: number[] = [];
      for (let i = 0; i < 10; i += 1) await open(targets[i % targets.length]!, 1 + (i % 12));
      for (let i = 0; i < rounds; i += 1)
        samples.push(await open(targets[(i * 7919) % targets.length]!, 1 + (i % 12)));
      return samples;
    };

    // One bridge.
    await bridges[0]!.connect();
    await live(bridges[0]!);
    const single = await measure([bridges[0]!]);
    const rssOne = rssBytes(cloud.child.pid!);

    // All of them, connected in batches as a reconnecting fleet would.
    const rest = bridges.slice(1);
    for (let i = 0; i < rest.length; i += 50)
      await Promise.all(rest.slice(i, i + 50).map((b) => b.connect()));
    await live(bridges.at(-1)!);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const rssAll = rssBytes(cloud.child.pid!);
    const many = await measure(bridges);
    const openBridges = bridges.filter((bridge) => bridge.isOpen).length;

    const p99One = percentile(single, 99);
    const p99All = percentile(many, 99);
    const ratio = p99All / p99One;
    const bytesPerBridge = (rssAll - rssOne) / (bridgeCount - 1);
    return {
      name,
      figure: round(p99All),
      unit: `ms p99, ${bridgeCount} bridges`,
      baseline: round(p99One),
      ratio: round(ratio),
      target: `p99 ≤ ${MAX_P99_RATIO} × the 1-bridge p99; ≤ 150 KB per connected bridge`,
      pass:
        ratio <= MAX_P99_RATIO &&
        bytesPerBridge <= MAX_BYTES_PER_BRIDGE &&
        failures.length === 0 &&
        openBridges === bridgeCount,
      notes: `${rounds} sequential opens to one bridge, then spread over ${bridgeCount} connected light bridges (protocol v1 clients in the bench process); memory: the cloud's RSS growth per bridge`,
      details: {
        p50OneMs: round(percentile(single, 50)),
        p50AllMs: round(percentile(many, 50)),
        kbPerBridge: round(bytesPerBridge / 1024),
        rssOneMb: round(rssOne / 1024 / 1024),
        rssAllMb: round(rssAll / 1024 / 1024),
        openBridges,
        failures: failures.length,
        firstFailure: failures[0] ?? '',
      },
    };
  } finally {
    for (const bridge of bridges) bridge.close();
    await cloud.stop();
    await database.dispose();
  }
}
