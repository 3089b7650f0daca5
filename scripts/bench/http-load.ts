// HTTP load with autocannon, loopback only, bounded in time or count.
import autocannon, { type AutocannonOptions, type AutocannonResult } from 'autocannon';

export interface LoadFigures {
  requestsPerSec: number;
  /** The busiest second's requests. */
  requestsPerSecMax: number;
  /** Requests answered (any status) and of those 2xx. */
  completed: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  durationS: number;
  statusCounts: Record<string, number>;
}

export async function runLoad(options: AutocannonOptions): Promise<LoadFigures> {
  for (const url of Array.isArray(options.url) ? options.url : [options.url]) {
    if (!new URL(url).hostname.startsWith('127.0.0.1')) throw new Error(`Loopback only: ${url}`);
  }
  const result: AutocannonResult = await autocannon({ timeout: 10, ...options });
  const statusCounts = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, stats]) => [code, stats.count]),
  );
  const completed = Object.values(statusCounts).reduce((sum, n) => sum + n, 0);
  return {
    requestsPerSec: completed / result.duration,
    requestsPerSecMax: result.requests.max,
    completed,
    ok: result['2xx'],
    non2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    latencyP50Ms: result.latency.p50,
    latencyP99Ms: result.latency.p99,
    durationS: result.duration,
    statusCounts,
  };
}
