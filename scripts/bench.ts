// `npm run bench`: runs every benchmark in sequence (or `--only <name>[,<name>]`, `--quick`), prints
// a table and writes bench/results.json. A missed target is reported, not a failure: the exit code
// is non-zero only when a benchmark crashed. See bench/README.md.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BENCHMARKS } from './bench/index';
import type { BenchResult } from './bench/bench-result';
import { REPO_ROOT } from './support/repo-root';
import { parseArgsOrExit } from './support/script-args';

const { values } = parseArgsOrExit(
  { options: { only: { type: 'string' }, quick: { type: 'boolean', default: false } } },
  'Usage: npm run bench -- [--only <name>[,<name>…]] [--quick]   (see bench/README.md)',
);
const wanted = values.only?.split(',').map((name) => name.trim());
const unknown = wanted?.filter((name) => !BENCHMARKS.some((bench) => bench.name === name)) ?? [];
if (unknown.length > 0) {
  process.stderr.write(
    `Unknown benchmark(s): ${unknown.join(', ')}. Known: ${BENCHMARKS.map((b) => b.name).join(', ')}\n`,
  );
  process.exit(2);
}
const selected = BENCHMARKS.filter((bench) => !wanted || wanted.includes(bench.name));

const results: BenchResult[] = [];
const crashes: Array<{ name: string; error: string }> = [];
for (const bench of selected) {
  process.stdout.write(`▶ ${bench.name}…\n`);
  const startedAt = Date.now();
  try {
    const result = await bench.run({ quick: values.quick });
    results.push(result);
    process.stdout.write(
      `  ${result.pass ? 'pass' : 'MISS'}: ${result.figure} ${result.unit}` +
        `${result.ratio !== undefined ? ` (× ${result.ratio} of ${result.baseline})` : ''}` +
        ` in ${((Date.now() - startedAt) / 1000).toFixed(0)} s\n`,
    );
  } catch (error) {
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    crashes.push({ name: bench.name, error: message });
    process.stdout.write(`  CRASHED: ${message}\n`);
  }
}

function table(rows: BenchResult[]): string {
  const header = ['benchmark', 'figure', 'baseline', 'ratio', 'target', 'result'];
  const lines = rows.map((r) => [
    r.name,
    `${r.figure} ${r.unit}`,
    r.baseline === undefined ? '—' : `${r.baseline} ${r.unit}`,
    r.ratio === undefined ? '—' : String(r.ratio),
    r.target,
    r.pass ? 'pass' : 'MISS',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((line) => line[i]!.length)));
  const format = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  return [format(header), widths.map((w) => '─'.repeat(w)).join('  '), ...lines.map(format)].join('\n');
}

process.stdout.write(`\n${table(results)}\n`);
for (const crash of crashes) process.stdout.write(`CRASHED ${crash.name}\n`);

const output = path.join(REPO_ROOT, 'bench', 'results.json');
mkdirSync(path.dirname(output), { recursive: true });
writeFileSync(
  output,
  `${JSON.stringify(
    {
      measuredAt: new Date().toISOString(),
      quick: values.quick,
      machine: { node: process.version, platform: process.platform, arch: process.arch },
      results,
      crashes,
    },
    null,
    2,
  )}\n`,
);
process.stdout.write(`\nwrote ${path.relative(REPO_ROOT, output)}\n`);
process.exit(crashes.length > 0 ? 1 : 0);
