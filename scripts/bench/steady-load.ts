// Five minutes of steady load on one cloud process (issue 18): visitors look at availability, hold
// lockers, and one in four pays on the sandbox page (the others cancel), without pause, from 8
// concurrent clients. Each minute's p99 latency and the process's resident memory are compared with
// the first minute's: a leak or a slowdown that builds up over time shows as growth. No request may
// fail; a hold refused because its locker is taken (409) is an answer, counted apart.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SEED_LOCATIONS } from '@deposito/protocol';
import { DateTime } from 'luxon';
import { redirectUrlOf, sandboxCardForm } from '@deposito/cloud/test/sandbox-card';
import { residentMiB } from '../support/proc-stats';
import { percentile, round, type BenchOptions, type BenchResult } from './bench-result';
import { startServerProcess } from './processes';
import { holdRequestBodies } from './reservations';

export const name = 'steady-load';
const CLIENTS = 8;
const MINUTES = 5;
const TARGET_RSS_GROWTH = 0.1;
const TARGET_P99_DRIFT = 0.2;
const PAYER = {
  currency: 'EUR',
  email: 'bench@example.com',
  nome: 'Bench',
  cognome: 'Visitor',
  telefono: '+393331234567',
  note: 'lang:it',
};

interface Minute {
  latenciesMs: number[];
  errors: number;
  refusedHolds: number;
  paid: number;
  rssMiB: number[];
}

function availabilityPath(index: number): string {
  const location = SEED_LOCATIONS[index % SEED_LOCATIONS.length]!;
  const start = DateTime.now()
    .setZone(location.timezone)
    .plus({ days: 1 + (index % 20) });
  return `/api/bookings/availability?location=${location.key}&startDate=${start.toISODate()}&endDate=${start.plus({ days: 14 }).toISODate()}`;
}

/** The requests of the run, each timed into the minute it was made in. */
class MinuteRecorder {
  readonly minutes: Minute[] = Array.from({ length: MINUTES }, () => ({
    latenciesMs: [],
    errors: 0,
    refusedHolds: 0,
    paid: 0,
    rssMiB: [],
  }));
  readonly firstError: string[] = [];
  private readonly startedAt = Date.now();
  readonly end: number;

  constructor(
    private readonly baseUrl: string,
    private readonly minuteMs: number,
  ) {
    this.end = this.startedAt + MINUTES * minuteMs;
  }

  /** The minute under way. */
  now(): Minute {
    return this.minutes[Math.min(MINUTES - 1, Math.floor((Date.now() - this.startedAt) / this.minuteMs))]!;
  }

  /** One request, timed into the current minute; a failure is counted and reported once. */
  async call(url: string, init: RequestInit = {}, accept: (status: number) => boolean = (s) => s < 400) {
    const minute = this.now();
    const began = performance.now();
    try {
      const response = await fetch(`${this.baseUrl}${url}`, { redirect: 'manual', ...init });
      const text = await response.text();
      minute.latenciesMs.push(performance.now() - began);
      if (!accept(response.status)) {
        minute.errors += 1;
        if (this.firstError.length === 0)
          this.firstError.push(`${init.method ?? 'GET'} ${url}: ${response.status} ${text.slice(0, 200)}`);
      }
      return { status: response.status, text };
    } catch (error) {
      minute.errors += 1;
      if (this.firstError.length === 0) this.firstError.push(`${url}: ${(error as Error).message}`);
      return { status: 0, text: '' };
    }
  }
}

const json = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** The hold bodies, taken in turn by every client, and the visitors' running count. */
interface Visits {
  bodies: string[];
  nextBody: number;
  counter: number;
}

/** One client without pause until the end: availability, a hold, then a cancel or a payment. */
async function visitor(recorder: MinuteRecorder, visits: Visits): Promise<void> {
  const call = recorder.call.bind(recorder);
  while (Date.now() < recorder.end) {
    const index = visits.counter++;
    for (let i = 0; i < 3; i += 1) await call(availabilityPath(index + i));
    const held = await call(
      '/api/lockers/inhibit-multi',
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: visits.bodies[visits.nextBody++ % visits.bodies.length],
      },
      (status) => status === 200 || status === 409,
    );
    if (held.status === 409) {
      recorder.now().refusedHolds += 1;
      continue;
    }
    if (held.status !== 200) continue;
    const { transactionId } = JSON.parse(held.text) as { transactionId: string };
    if (index % 4 !== 0) {
      await call(`/api/bookings/${transactionId}/cancel`, { method: 'POST' });
      continue;
    }
    const created = await call('/api/payments/create-payment', json({ ...PAYER, transactionId }));
    if (created.status !== 200) continue;
    const pageUrl = new URL(redirectUrlOf(created.text));
    const page = await call(pageUrl.pathname + pageUrl.search);
    if (page.status !== 200) continue;
    const paid = await call(
      '/sandbox-pay/pay',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: sandboxCardForm(page.text),
      },
      (status) => status === 303,
    );
    if (paid.status === 303) recorder.now().paid += 1;
  }
}

function result({ minutes, firstError }: MinuteRecorder, minuteMs: number): BenchResult {
  const p99 = minutes.map((minute) => percentile(minute.latenciesMs, 99));
  const rss = minutes.map((minute) => Math.max(...minute.rssMiB));
  const errors = minutes.reduce((sum, minute) => sum + minute.errors, 0);
  const requests = minutes.reduce((sum, minute) => sum + minute.latenciesMs.length, 0);
  const rssGrowth = rss.at(-1)! / rss[0]! - 1;
  const p99Drift = p99.at(-1)! / p99[0]! - 1;
  return {
    name,
    figure: round(rssGrowth * 100),
    unit: '% RSS growth, first to last minute',
    target: `RSS growth ≤ ${TARGET_RSS_GROWTH * 100} %, last minute's p99 within ± ${TARGET_P99_DRIFT * 100} % of the first's, 0 errors`,
    pass: rssGrowth <= TARGET_RSS_GROWTH && Math.abs(p99Drift) <= TARGET_P99_DRIFT && errors === 0,
    notes: `${MINUTES} × ${minuteMs / 1000} s, ${CLIENTS} clients without pause: 3 availability calls and a hold each round, one hold in four paid on the sandbox page, the others cancelled; cloud on SQLite with its jobs running`,
    details: {
      requests,
      errors,
      firstError: firstError[0] ?? 'none',
      p99ByMinuteMs: p99.map((value) => round(value)).join(', '),
      p99DriftPercent: round(p99Drift * 100),
      rssByMinuteMiB: rss.map((value) => round(value)).join(', '),
      paid: minutes.reduce((sum, minute) => sum + minute.paid, 0),
      refusedHolds: minutes.reduce((sum, minute) => sum + minute.refusedHolds, 0),
    },
  };
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const minuteMs = options.quick ? 2_000 : 60_000;
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-steady-'));
  const cloud = await startServerProcess('servers/cloud-server.main.ts', {
    BENCH_DATABASE_URL: `sqlite:${path.join(dir, 'steady.db')}`,
    BENCH_SEED: '1',
    // The expiry sweeps and schedulers run, as in production.
    BENCH_JOBS: '1',
  });
  const pid = cloud.child.pid!;
  const visits: Visits = {
    bodies: holdRequestBodies(options.quick ? 2_000 : 60_000),
    nextBody: 0,
    counter: 0,
  };
  const recorder = new MinuteRecorder(cloud.url, minuteMs);

  const sampler = setInterval(
    () => {
      try {
        recorder.now().rssMiB.push(residentMiB(pid).now);
      } catch {
        // The process is gone: the requests say so.
      }
    },
    Math.max(250, minuteMs / 12),
  );
  try {
    await Promise.all(Array.from({ length: CLIENTS }, () => visitor(recorder, visits)));
  } finally {
    clearInterval(sampler);
    await cloud.stop();
    rmSync(dir, { recursive: true, force: true });
  }
  return result(recorder, minuteMs);
}
