// Monthly takings for 30 locations and 1,000,000 bookings (issue 18) with protocol's computeMonthlyTakings, and
// the PDF of that month built by the admin page's buildTakingsReportPdf, both in Node.
import {
  computeMonthlyTakings,
  type BookingStatus,
  type TakingsBooking,
  type TakingsLocation,
} from '@deposito/protocol';
import { buildTakingsReportPdf, pdfBytes } from '@deposito/web/admin/takings/index';
import { elapsedMs, round, type BenchOptions, type BenchResult } from './bench-result';

export const name = 'takings';
const MONTH = '2026-07';
const COMPUTE_TARGET_MS = 1_000;
const PDF_TARGET_MS = 2_000;
const LOCATIONS = 30;
const BOOKINGS = 1_000_000;

const STATUSES: BookingStatus[] = [
  'confirmed',
  'confirmed',
  'confirmed',
  'scheduled',
  'cancelled',
  'expired',
];

export function generatedMonth(bookingCount: number) {
  const locations: TakingsLocation[] = Array.from({ length: LOCATIONS }, (_, i) => ({
    key: `location-${i}`,
    name: `Location ${i}`,
    zone: i % 10 === 9 ? 'Europe/London' : 'Europe/Rome',
  }));
  // Inside the month in both zones (Rome is UTC+2, London UTC+1 in July).
  const monthStart = Date.UTC(2026, 6, 1, 0, 0);
  const monthSpan = 31 * 24 * 3600_000 - 3 * 3600_000;
  const bookings: TakingsBooking[] = Array.from({ length: bookingCount }, (_, i) => ({
    // Every tenth transaction booked two lockers: two rows, counted once.
    transactionId: `TX${String(i - (i % 10 === 1 ? 1 : 0)).padStart(8, '0')}`,
    locationKey: locations[i % locations.length]!.key,
    status: STATUSES[i % STATUSES.length]!,
    createdAt: new Date(monthStart + ((i * 7919) % monthSpan)).toISOString(),
    priceDiscountedCents: i % 97 === 0 ? null : 500 + (i % 40) * 50,
  }));
  const totem = Object.fromEntries(
    locations.map((location, l) => [
      location.key,
      Array.from({ length: 200 }, (_, d) => ({
        date: new Date(Date.UTC(2026, 6, 1 + (d % 31), 9 + (d % 10))).toISOString(),
        amountCents: 200 + ((d * 13 + l) % 30) * 10,
      })),
    ]),
  );
  return { month: MONTH, locations, bookings, totem };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const input = generatedMonth(options.quick ? 2_000 : BOOKINGS);
  const runs = options.quick ? 1 : 5;
  const computeMs: number[] = [];
  const pdfMs: number[] = [];
  // CPU time too: on a shared machine the wall-clock figure includes time the process was not running.
  const computeCpuMs: number[] = [];
  // Warm-up: the first call also loads luxon's zone data and jspdf's fonts.
  let report = computeMonthlyTakings(input);
  pdfBytes(buildTakingsReportPdf(report, { companyName: 'Deposito S.r.l.', month: MONTH }));
  let pdfSize = 0;
  for (let i = 0; i < runs; i += 1) {
    let startedAt = process.hrtime.bigint();
    const cpuBefore = process.cpuUsage();
    report = computeMonthlyTakings(input);
    computeMs.push(elapsedMs(startedAt));
    const cpu = process.cpuUsage(cpuBefore);
    computeCpuMs.push((cpu.user + cpu.system) / 1000);
    startedAt = process.hrtime.bigint();
    const bytes = pdfBytes(buildTakingsReportPdf(report, { companyName: 'Deposito S.r.l.', month: MONTH }));
    pdfMs.push(elapsedMs(startedAt));
    pdfSize = bytes.length;
  }
  // Cross-check: the online total is the sum over distinct paid transactions (all inside the month).
  const seen = new Set<string>();
  let expectedOnline = 0;
  for (const booking of input.bookings) {
    if ((booking.status !== 'confirmed' && booking.status !== 'scheduled') || seen.has(booking.transactionId))
      continue;
    seen.add(booking.transactionId);
    expectedOnline += booking.priceDiscountedCents ?? 0;
  }
  const figure = median(computeMs);
  const pdf = median(pdfMs);
  return {
    name,
    figure: round(figure),
    unit: 'ms',
    target: `compute ≤ ${COMPUTE_TARGET_MS} ms, PDF ≤ ${PDF_TARGET_MS} ms`,
    pass: figure <= COMPUTE_TARGET_MS && pdf <= PDF_TARGET_MS && report.totals.onlineCents === expectedOnline,
    notes: `${input.bookings.length.toLocaleString('en')} bookings, ${input.locations.length} locations, ${MONTH}; median of ${runs}; PDF figure in details`,
    details: {
      computeCpuMs: round(median(computeCpuMs)),
      pdfMs: round(pdf),
      pdfBytes: pdfSize,
      onlineCents: report.totals.onlineCents,
      totalCents: report.totals.totalCents,
      daysWithTakings: report.daysWithTakings,
      distinctPaidTransactions: seen.size,
      expectedOnlineCents: expectedOnline,
      onlineTotalMatches: report.totals.onlineCents === expectedOnline,
    },
  };
}
