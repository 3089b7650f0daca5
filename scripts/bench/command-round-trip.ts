// An operator's "open" end to end: HTTP POST /api/lockers/open with an admin token → cloud → bridge
// hub → WebSocket → edge-bridge daemon → controller simulator → result back the same way, against a
// direct HTTP call to the simulator. The cloud runs in its own process; bridge and simulator here.
import { rmSync } from 'node:fs';
import { request } from 'undici';
import { systemClock } from '@deposito/cloud/clock';
import { issueBridgeToken } from '@deposito/cloud/bridge-hub/bridge-token';
import { ControllerClient } from '@deposito/edge-bridge/controller/controller-client';
import { ControllerSimulator } from '@deposito/edge-bridge/controller/controller-simulator';
import { BridgeDaemon } from '@deposito/edge-bridge/daemon';
import { buildBridgeConfig } from '@deposito/edge-bridge/test/builders';
import {
  againstBaseline,
  elapsedMs,
  percentile,
  round,
  type BenchOptions,
  type BenchResult,
} from './bench-result';
import { startCloudProcess } from './processes';
import { createBenchDatabase } from './stores';
import { adminSession } from '../support/admin-session';

export const name = 'command-round-trip';
const LOCATION = 'vicolo';
const ADMIN = { email: 'bench@deposito.local', password: 'bench-password-1234' };

async function timed(work: () => Promise<void>): Promise<number> {
  const startedAt = process.hrtime.bigint();
  await work();
  return elapsedMs(startedAt);
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const rounds = options.quick ? 10 : 300;
  const database = await createBenchDatabase('sqlite');
  const store = await database.open();
  const bridgeToken = await issueBridgeToken(store, LOCATION, systemClock.now());
  await store.close();
  if (!bridgeToken) throw new Error(`no location ${LOCATION} to issue a bridge token for`);

  const simulator = new ControllerSimulator({ lockers: 12, doorOpenMs: 50 });
  await simulator.start();
  const cloud = await startCloudProcess({ databaseUrl: database.url, jobs: true, admin: ADMIN });
  const config = buildBridgeConfig({
    cloudUrl: cloud.url,
    bridgeToken,
    locationKey: LOCATION,
    controller: simulator.connection(2_000),
    pollIntervalMs: 1_000,
  });
  const daemon = new BridgeDaemon({ config });
  const direct = new ControllerClient(simulator.connection(2_000));
  try {
    await daemon.start();
    const token = await adminSession(cloud.url, ADMIN);
    const waitUntil = Date.now() + 15_000;
    while (!daemon.link.isAccepted && Date.now() < waitUntil) await new Promise((r) => setTimeout(r, 20));
    if (!daemon.link.isAccepted) throw new Error('the bridge did not connect to the cloud');

    const failures: string[] = [];
    const open = (lockerId: number) => async () => {
      // The same HTTP client (undici's request, keep-alive) as the baseline's ControllerClient, so
      // the ratio compares the paths, not two clients.
      const response = await request(`${cloud.url}/api/lockers/open`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ location: LOCATION, lockerId }),
      });
      const body = (await response.body.json()) as { outcome?: string };
      if (response.statusCode !== 200 || body.outcome !== 'executed') {
        failures.push(`${response.statusCode} ${JSON.stringify(body)}`);
      }
    };
    const opensBefore = simulator.stats.byOperation.open ?? 0;
    // Warm both paths, then alternate: round trip, direct call, round trip…
    for (let i = 0; i < 5; i += 1) {
      await open(1 + (i % 12))();
      await direct.open(1 + (i % 12));
    }
    const roundTrips: number[] = [];
    const directCalls: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      roundTrips.push(await timed(open(1 + (i % 12))));
      directCalls.push(await timed(() => direct.open(1 + (i % 12))));
    }
    const opens = (simulator.stats.byOperation.open ?? 0) - opensBefore;
    const p50 = percentile(roundTrips, 50);
    const p99 = percentile(roundTrips, 99);
    const baseline = percentile(directCalls, 50);
    const { ratio, reported } = againstBaseline(p50, 'ms p50', baseline);
    return {
      name,
      ...reported,
      target: 'p50 ≤ 3 × baseline p50, p99 ≤ 50 ms',
      pass: ratio <= 3 && p99 <= 50 && failures.length === 0 && opens === 2 * (rounds + 5),
      notes: `${rounds} sequential opens alternating with direct simulator calls; baseline: direct HTTP call to the simulator (p50)`,
      details: {
        p99Ms: round(p99),
        baselineP99Ms: round(percentile(directCalls, 99)),
        failures: failures.length,
        firstFailure: failures[0] ?? '',
        controllerOpens: opens,
      },
    };
  } finally {
    await daemon.stop();
    await cloud.stop();
    await simulator.stop();
    await database.dispose();
    rmSync(config.dataDir, { recursive: true, force: true });
  }
}
