// The JavaScript a visitor's browser loads for /vicolo: the built index.html's entry script, its
// modulepreload links and every chunk they import statically (dynamic import() is not loaded up
// front), summed gzip-compressed; and whether admin code or jspdf is among it.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { round, type BenchOptions, type BenchResult } from './bench-result';
import { REPO_ROOT } from './processes';

export const name = 'page-weight';
const TARGET_KB = 120;

/** Text found only in admin or PDF code; none may be in what /vicolo loads. */
const FORBIDDEN_MARKERS = ['jsPDF', 'jspdf', 'autoTable', 'REPORT INCASSI'];

/** `/assets/x.js` references of the page: the module entry scripts and the modulepreload links. */
export function pageScripts(html: string): string[] {
  const scripts = [...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]!);
  const preloads = [...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]!);
  return [...new Set([...scripts, ...preloads])];
}

/** Chunks a chunk imports statically (`import … from "./x.js"`, `import "./x.js"`), not `import()`. */
export function staticImports(code: string): string[] {
  const found = new Set<string>();
  for (const match of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) {
    found.add(match[1]!);
  }
  return [...found];
}

/** Every chunk the page loads before any dynamic import, by path under `dist`. */
export function loadedChunks(dist: string): string[] {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const queue = pageScripts(html).map((src) => path.join(dist, src.replace(/^\//, '')));
  const loaded = new Set<string>();
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (loaded.has(file)) continue;
    loaded.add(file);
    const code = readFileSync(file, 'utf8');
    for (const specifier of staticImports(code)) queue.push(path.resolve(path.dirname(file), specifier));
  }
  return [...loaded];
}

export async function run(_options: BenchOptions = {}): Promise<BenchResult> {
  // Built into a temporary folder so web/dist (which others may be serving) is left alone.
  const dist = mkdtempSync(path.join(tmpdir(), 'deposito-web-'));
  try {
    const build = spawnSync(
      'npx',
      ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
      {
        cwd: path.join(REPO_ROOT, 'web'),
        encoding: 'utf8',
        timeout: 180_000,
      },
    );
    if (build.status !== 0) throw new Error(`vite build failed: ${build.stderr || build.stdout}`);
    const chunks = loadedChunks(dist);
    let gzipBytes = 0;
    let rawBytes = 0;
    const found = new Set<string>();
    for (const chunk of chunks) {
      const code = readFileSync(chunk);
      rawBytes += code.length;
      gzipBytes += gzipSync(code).length;
      const text = code.toString('utf8');
      for (const marker of FORBIDDEN_MARKERS) if (text.includes(marker)) found.add(marker);
      if (/admin/i.test(path.basename(chunk))) found.add(`chunk ${path.basename(chunk)}`);
    }
    const figure = gzipBytes / 1024;
    return {
      name,
      figure: round(figure),
      unit: 'KB gzip',
      target: `≤ ${TARGET_KB} KB, no admin code or jspdf`,
      pass: figure <= TARGET_KB && found.size === 0,
      notes: `${chunks.length} chunk(s) loaded by /vicolo (entry + modulepreload + static imports); gzip level 6`,
      details: {
        chunks: chunks.map((chunk) => path.basename(chunk)).join(', '),
        rawKB: round(rawBytes / 1024),
        adminOrPdfMarkers: found.size === 0 ? 'none' : [...found].join(', '),
        adminAbsent: found.size === 0,
      },
    };
  } finally {
    rmSync(dist, { recursive: true, force: true });
  }
}
