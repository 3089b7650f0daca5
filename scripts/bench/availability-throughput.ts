// GET /api/bookings/availability for one location and a 15-day range, against a bare Express JSON
// route on the same machine. Both servers run in their own process; the load comes from this one.
import { DateTime } from 'luxon';
import { againstBaseline, round, type BenchOptions, type BenchResult } from './bench-result';
import { runLoad } from './http-load';
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

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const load = options.quick ? { connections: 2, amount: 40 } : { connections: 20, duration: 10 };
  const warmup = options.quick ? { connections: 1, amount: 5 } : { connections: 10, duration: 2 };
  const database = await createBenchDatabase('sqlite');
  const baselineServer = await startServerProcess('servers/bare-express.main.ts');
  const cloud = await startCloudProcess({ databaseUrl: database.url });
  try {
    const path = fifteenDayQuery('vicolo');
    // Interleaved: baseline, cloud, baseline, cloud… so drift on a shared machine hits both alike.
    await runLoad({ url: `${baselineServer.url}/json`, ...warmup });
    await runLoad({ url: `${cloud.url}${path}`, ...warmup });
    const rounds = options.quick ? 1 : 2;
    const baselineRuns = [];
    const cloudRuns = [];
    for (let i = 0; i < rounds; i += 1) {
      baselineRuns.push(await runLoad({ url: `${baselineServer.url}/json`, ...load }));
      cloudRuns.push(await runLoad({ url: `${cloud.url}${path}`, ...load }));
    }
    // For the record, not the target: the same load when no answer can be reused (every call a
    // different instant of the same start day), i.e. what a calendar costs right after a write.
    let call = 0;
    const computed = await runLoad({
      url: cloud.url,
      ...(options.quick ? { connections: 2, amount: 20 } : { connections: 20, duration: 5 }),
      requests: [
        {
          method: 'GET',
          setupRequest: (request: { path?: string }) => ({ ...request, path: uncachedVariant(path, call++) }),
        },
      ],
    });
    const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
    const baseline = mean(baselineRuns.map((r) => r.requestsPerSec));
    const figure = mean(cloudRuns.map((r) => r.requestsPerSec));
    const failures = cloudRuns.reduce((n, r) => n + r.non2xx + r.errors + r.timeouts, 0);
    const { ratio, reported } = againstBaseline(figure, 'req/s', baseline);
    return {
      name,
      ...reported,
      target: `≥ ${TARGET_RATIO} × baseline`,
      pass: ratio >= TARGET_RATIO && failures === 0,
      notes: `vicolo, 15 days; ${load.connections} connections, ${rounds} interleaved rounds; baseline: bare Express JSON route`,
      details: {
        failures,
        cloudP99Ms: Math.max(...cloudRuns.map((r) => r.latencyP99Ms)),
        baselineP99Ms: Math.max(...baselineRuns.map((r) => r.latencyP99Ms)),
        computedEveryCallReqPerS: round(computed.requestsPerSec),
        computedEveryCallRatio: round(computed.requestsPerSec / baseline),
      },
    };
  } finally {
    await cloud.stop();
    await baselineServer.stop();
    await database.dispose();
  }
}
