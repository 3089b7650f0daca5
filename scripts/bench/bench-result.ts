// What every benchmark returns, and the small statistics they share.

/** One benchmark's outcome: its figure, the baseline measured in the same run, and the verdict. */
export interface BenchResult {
  name: string;
  figure: number;
  unit: string;
  /** The physical baseline measured alongside, in the same unit as `figure` (when there is one). */
  baseline?: number;
  /** figure / baseline. */
  ratio?: number;
  /** The target in words, e.g. "≥ 0.5 × baseline". */
  target: string;
  /** Target met and every correctness check held. */
  pass: boolean;
  notes: string;
  /** Correctness outcomes (overlaps, order, duplicates…) and secondary figures. */
  details: Record<string, number | string | boolean>;
}

export interface BenchOptions {
  /** A tiny run that only proves the benchmark still works (tests); figures mean nothing then. */
  quick?: boolean;
}

export interface Benchmark {
  name: string;
  run(options?: BenchOptions): Promise<BenchResult>;
}

/** The p-th percentile (0–100) of unsorted samples, nearest-rank. */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Rounds for display and JSON: 3 significant decimals below 10, 1 decimal below 1000, else whole. */
export function round(value: number): number {
  if (!Number.isFinite(value)) return value;
  const abs = Math.abs(value);
  const digits = abs < 10 ? 3 : abs < 1000 ? 1 : 0;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

/**
 * A figure in `unit` against the baseline measured in the same run: the result's fields, rounded for
 * the report, and the exact ratio the verdict is taken on.
 */
export function againstBaseline(
  figure: number,
  unit: string,
  baseline: number,
): { ratio: number; reported: Pick<BenchResult, 'figure' | 'unit' | 'baseline' | 'ratio'> } {
  const ratio = figure / baseline;
  return { ratio, reported: { figure: round(figure), unit, baseline: round(baseline), ratio: round(ratio) } };
}

export function elapsedMs(startedAt: bigint): number {
  return Number(process.hrtime.bigint() - startedAt) / 1e6;
}
