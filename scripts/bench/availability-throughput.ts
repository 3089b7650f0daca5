// GET /api/bookings/availability with every call computed (distinct locations, range lengths and
// start days, so the cloud's short reuse of identical answers never serves one), against a bare
// Express JSON route on the same machine. Both servers run in their own process; the load comes from
// this one.
import { SEED_LOCATIONS } from '@deposito/protocol';
import { AVAILABILITY_REUSE_MS } from '@deposito/cloud/services/availability.service';
import { DateTime } from 'luxon';
import { againstBaseline, round, type BenchOptions, type BenchResult } from './bench-result';
import { runLoad, type LoadFigures } from './http-load';
import { startCloudProcess, startServerProcess } from './processes';
import { createBenchDatabase } from './stores';

export const name = 'availability-throughput';
const TARGET_RATIO = 0.5;

/** A 15-day range starting tomorrow in Rome (the query the daytime page sends). */
export function fifteenDayQuery(location: string, startOffsetDays = 1): string {
  const start = DateTime.now().setZone('Europe/Rome').plus({ days: startOffsetDays });
  const end = start.plus({ days: 14 });
  return `/api/bookings/availability?location=${location}&startDate=${start.toISODate()}&endDate=${end.toISODate()}`;
}

/**
 * The same query with its start date sent as an instant of that local day (10:00:00–10:59:59 UTC is
 * late morning in Rome), a different one for each `n` below 3,600.
 */
export function uncachedVariant(path: string, n: number): string {
  const seconds = n % 3600;
  const mm = String(Math.floor(seconds / 60)).padStart(2, '0');
  const ss = String(seconds % 60).padStart(2, '0');
  return path.replace(/startDate=(\d{4}-\d{2}-\d{2})(?=&|$)/, `startDate=$1T10:${mm}:${ss}Z`);
}

/** Range lengths of the distinct calls: 8 to 22 days, 15 on average, as the baseline's body. */
const RANGE_DAYS = Array.from({ length: 15 }, (_, i) => 8 + i);
/** Start days of the distinct calls: tomorrow to about six months ahead (the booking horizon). */
const START_OFFSETS = Array.from({ length: 180 }, (_, i) => 1 + i);

/**
 * Every combination of seed location, range length and start day, once, the location changing
 * fastest, then the length, then the start. Built before the load so the load generator spends
 * nothing per call; the same query comes back only after all the others (16,200 calls).
 */
export function distinctAvailabilityPaths(): string[] {
  const paths: string[] = [];
  for (const offset of START_OFFSETS) {
    for (const days of RANGE_DAYS) {
      for (const location of SEED_LOCATIONS) {
        const start = DateTime.now().setZone(location.timezone).plus({ days: offset });
        const end = start.plus({ days: days - 1 });
        paths.push(
          `/api/bookings/availability?location=${location.key}&startDate=${start.toISODate()}&endDate=${end.toISODate()}`,
        );
      }
    }
  }
  return paths;
}

/** A load whose every request is the next of `paths`, round and round. */
function cyclingLoad(
  url: string,
  paths: readonly string[],
  load: { connections: number; amount?: number; duration?: number },
): Promise<LoadFigures> {
  let call = 0;
  return runLoad({
    url,
    ...load,
    requests: [
      {
        method: 'GET',
        setupRequest: (request) => ({ ...request, path: paths[call++ % paths.length] }),
      },
    ],
  });
}

const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const load = options.quick ? { connections: 2, amount: 40 } : { connections: 20, duration: 10 };
  const warmup = options.quick ? { connections: 1, amount: 5 } : { connections: 10, duration: 2 };
  const database = await createBenchDatabase('sqlite');
  const baselineServer = await startServerProcess('servers/bare-express.main.ts');
  const cloud = await startCloudProcess({ databaseUrl: database.url });
  try {
    const paths = distinctAvailabilityPaths();
    // The warm-up takes its calls from the far end of the cycle, so none of them is still reusable.
    const warmupPaths = paths.slice(-paths.length / 2);
    await runLoad({ url: `${baselineServer.url}/json`, ...warmup });
    await cyclingLoad(cloud.url, warmupPaths, warmup);
    // Interleaved: baseline, cloud, baseline, cloud… so drift on a shared machine hits both alike.
    const rounds = options.quick ? 1 : 2;
    const baselineRuns = [];
    const cloudRuns = [];
    for (let i = 0; i < rounds; i += 1) {
      baselineRuns.push(await runLoad({ url: `${baselineServer.url}/json`, ...load }));
      cloudRuns.push(await cyclingLoad(cloud.url, paths, load));
    }
    // For the record, not the target: identical calls, as from visitors looking at the same
    // location's calendar, which the cloud answers from its reused answer between writes.
    const identical = await runLoad({
      url: `${cloud.url}${fifteenDayQuery('vicolo')}`,
      ...(options.quick ? { connections: 2, amount: 20 } : { connections: 20, duration: 5 }),
    });
    const baseline = mean(baselineRuns.map((r) => r.requestsPerSec));
    const figure = mean(cloudRuns.map((r) => r.requestsPerSec));
    const failures = [...cloudRuns, identical].reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
    // A query comes back only after every other one; no answer can be reused if the cloud never
    // answered that many within the reuse period.
    const fastestPerSecond = Math.max(...cloudRuns.map((r) => r.requestsPerSecMax));
    const everyCallComputed = fastestPerSecond * (AVAILABILITY_REUSE_MS / 1000) < paths.length;
    const { ratio, reported } = againstBaseline(figure, 'req/s', baseline);
    return {
      name,
      ...reported,
      target: `≥ ${TARGET_RATIO} × baseline, every call computed`,
      pass: ratio >= TARGET_RATIO && failures === 0 && everyCallComputed,
      notes: `every call computed: ${SEED_LOCATIONS.length} locations × ${RANGE_DAYS.length} range lengths (${RANGE_DAYS[0]}–${RANGE_DAYS.at(-1)} days) × ${START_OFFSETS.length} start days, none repeated within ${paths.length} calls; ${load.connections} connections, ${rounds} interleaved rounds; baseline: bare Express JSON route`,
      details: {
        failures,
        everyCallComputed,
        distinctQueries: paths.length,
        cloudFastestSecondReqPerS: fastestPerSecond,
        cloudP99Ms: Math.max(...cloudRuns.map((r) => r.latencyP99Ms)),
        baselineP99Ms: Math.max(...baselineRuns.map((r) => r.latencyP99Ms)),
        identicalCallsReqPerS: round(identical.requestsPerSec),
        identicalCallsRatio: round(identical.requestsPerSec / baseline),
      },
    };
  } finally {
    await cloud.stop();
    await baselineServer.stop();
    await database.dispose();
  }
}
