// Five minutes of steady load on one cloud process (issue 18): visitors look at availability, hold
// lockers, and one in four pays on the sandbox page (the others cancel), without pause, from 8
// concurrent clients. Each minute's p99 latency and the process's resident memory are compared with
// the first minute's: a leak or a slowdown that builds up over time shows as growth. No request may
// fail; a hold refused because its locker is taken (409) is an answer, counted apart. A sample of
// the bookings paid is read back at the end: each must be scheduled or confirmed, so the payments
// measured are ones the cloud was notified of and settled.
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

/** What a request is, for the p99 of each kind in the first and last minute. */
type RequestKind = 'availability' | 'hold' | 'cancel' | 'payment' | 'payment page' | 'card';

interface Minute {
  latenciesMs: number[];
  byKind: Map<RequestKind, number[]>;
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
    byKind: new Map(),
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
  async call(
    kind: RequestKind,
    url: string,
    init: RequestInit = {},
    accept: (status: number) => boolean = (s) => s < 400,
  ) {
    const minute = this.now();
    const began = performance.now();
    try {
      const response = await fetch(`${this.baseUrl}${url}`, { redirect: 'manual', ...init });
      const text = await response.text();
      const elapsed = performance.now() - began;
      minute.latenciesMs.push(elapsed);
      if (!minute.byKind.has(kind)) minute.byKind.set(kind, []);
      minute.byKind.get(kind)!.push(elapsed);
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
  /** The bookings whose card payment the gateway answered (303), in order. */
  paid: string[];
}

/** One client without pause until the end: availability, a hold, then a cancel or a payment. */
async function visitor(recorder: MinuteRecorder, visits: Visits): Promise<void> {
  const call = recorder.call.bind(recorder);
  while (Date.now() < recorder.end) {
    const index = visits.counter++;
    for (let i = 0; i < 3; i += 1) await call('availability', availabilityPath(index + i));
    const held = await call(
      'hold',
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
      await call('cancel', `/api/bookings/${transactionId}/cancel`, { method: 'POST' });
      continue;
    }
    const created = await call('payment', '/api/payments/create-payment', json({ ...PAYER, transactionId }));
    if (created.status !== 200) continue;
    const pageUrl = new URL(redirectUrlOf(created.text));
    const page = await call('payment page', pageUrl.pathname + pageUrl.search);
    if (page.status !== 200) continue;
    const paid = await call(
      'card',
      '/sandbox-pay/pay',
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: sandboxCardForm(page.text),
      },
      (status) => status === 303,
    );
    if (paid.status === 303) {
      recorder.now().paid += 1;
      visits.paid.push(transactionId);
    }
  }
}

/** How many of the paid bookings to read back: spread over the run, first and last included. */
const PAID_SAMPLE = 40;

/** Reads back a sample of the paid bookings: how many the cloud has settled (scheduled or confirmed). */
async function settledOfSample(
  baseUrl: string,
  paid: readonly string[],
): Promise<{ read: number; settled: number }> {
  const step = Math.max(1, (paid.length - 1) / (PAID_SAMPLE - 1));
  const sample = new Set<string>();
  for (let i = 0; i < paid.length && sample.size < PAID_SAMPLE; i += step) sample.add(paid[Math.round(i)]!);
  let settled = 0;
  for (const transactionId of sample) {
    const response = await fetch(`${baseUrl}/api/bookings/${transactionId}`);
    const { status } = (await response.json()) as { status?: string };
    if (status === 'scheduled' || status === 'confirmed') settled += 1;
  }
  return { read: sample.size, settled };
}

/** Each kind's p99 in the first and the last minute, e.g. `hold 16.1→16.8`. */
function p99ByKind(first: Minute, last: Minute): string {
  const kinds = [...new Set([...first.byKind.keys(), ...last.byKind.keys()])];
  const p99Of = (minute: Minute, kind: RequestKind) => round(percentile(minute.byKind.get(kind) ?? [0], 99));
  return kinds.map((kind) => `${kind} ${p99Of(first, kind)}→${p99Of(last, kind)}`).join(', ');
}

function result(
  { minutes, firstError }: MinuteRecorder,
  minuteMs: number,
  paidSample: { read: number; settled: number },
): BenchResult {
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
    pass:
      rssGrowth <= TARGET_RSS_GROWTH &&
      Math.abs(p99Drift) <= TARGET_P99_DRIFT &&
      errors === 0 &&
      paidSample.read > 0 &&
      paidSample.settled === paidSample.read,
    notes: `${MINUTES} × ${minuteMs / 1000} s, ${CLIENTS} clients without pause: 3 availability calls and a hold each round, one hold in four paid on the sandbox page, the others cancelled; cloud on SQLite with its jobs running`,
    details: {
      requests,
      errors,
      firstError: firstError[0] ?? 'none',
      p99ByMinuteMs: p99.map((value) => round(value)).join(', '),
      p99DriftPercent: round(p99Drift * 100),
      p99ByKindFirstToLastMs: p99ByKind(minutes[0]!, minutes.at(-1)!),
      rssByMinuteMiB: rss.map((value) => round(value)).join(', '),
      paid: minutes.reduce((sum, minute) => sum + minute.paid, 0),
      paidReadBack: `${paidSample.settled} of ${paidSample.read} scheduled or confirmed`,
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
    paid: [],
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
    return result(recorder, minuteMs, await settledOfSample(cloud.url, visits.paid));
  } finally {
    clearInterval(sampler);
    await cloud.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
