// What a visitor's phone receives for /vicolo (issue 18): the build served by a real cloud (its own
// precompressed brotli/gzip, translations and API answers), loaded in the system Chromium, every
// response's bytes as sent added up; the JavaScript among them is the figure. Also whether admin code
// or jspdf is among what the page loads, and (for comparison) the built chunks' gzip size.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { round, type BenchOptions, type BenchResult } from './bench-result';
import { REPO_ROOT } from '../support/repo-root';

export const name = 'page-weight';
const TARGET_KB = 120;
const TARGET_ALL_KB = 200;

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

/** One response the browser received while loading the page: its type and the bytes on the wire. */
interface Transfer {
  url: string;
  type: string;
  /** Headers and body as sent (compressed), what the visitor's connection carries. */
  bytes: number;
}

/**
 * Serves the build from a real cloud (its own compression, caching and API answers) and loads
 * `/vicolo` in the system Chromium at phone size, adding up every response's bytes as sent.
 */
async function loadOverHttp(dist: string): Promise<{ transfers: Transfer[]; scriptTexts: string[] }> {
  const [{ chromium }, { createApp, ROUTE_AREAS }, { loadEnv }, { openStore }, web, seed, { pino }] =
    await Promise.all([
      import('@playwright/test'),
      import('@deposito/cloud/app'),
      import('@deposito/cloud/env'),
      import('@deposito/cloud/store/store'),
      import('@deposito/cloud/routes/web/web.routes'),
      import('@deposito/cloud/services/demo-seed.service'),
      import('pino'),
    ]);
  const env = loadEnv({
    DATABASE_URL: 'sqlite::memory:',
    PORT: '0',
    PAYMENT_PROVIDER: 'sandbox',
    RATE_LIMITS: 'off',
  });
  const store = await openStore(env.database);
  const cloud = createApp({
    env,
    store,
    logger: pino({ level: 'silent' }),
    areas: ROUTE_AREAS.map((area) => (area === web.webArea ? web.createWebArea({ distDir: dist }) : area)),
  });
  await seed.seedLocationsAndDiscounts(cloud.context);
  const { url } = await cloud.start({ port: 0, host: '127.0.0.1', jobs: false });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    const page = await browser.newPage({ viewport: { width: 360, height: 740 }, locale: 'it-IT' });
    const pending: Array<Promise<void>> = [];
    const transfers: Transfer[] = [];
    const scriptTexts: string[] = [];
    page.on('requestfinished', (request) => {
      pending.push(
        (async () => {
          const sizes = await request.sizes();
          const response = await request.response();
          transfers.push({
            url: request.url().replace(url, ''),
            type: request.resourceType(),
            bytes: sizes.responseHeadersSize + sizes.responseBodySize,
          });
          if (request.resourceType() === 'script' && response) scriptTexts.push(await response.text());
        })(),
      );
    });
    await page.goto(`${url}/vicolo`, { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await Promise.all(pending);
    return { transfers, scriptTexts };
  } finally {
    await browser.close();
    await cloud.stop();
    await store.close();
  }
}

let webBuild: string | undefined;

/**
 * The web app built into a temporary folder of this process (web/dist, which others may be serving,
 * is left alone), removed when the process exits (or by `removeWebBuildOfThisRun`). Built on the
 * first call only: page-weight and Lighthouse measure the same build (~8 s saved in a run of both).
 */
export function webBuildOfThisRun(): string {
  if (webBuild) return webBuild;
  const dist = mkdtempSync(path.join(tmpdir(), 'deposito-web-'));
  const build = spawnSync(
    'npx',
    ['vite', 'build', '--outDir', dist, '--emptyOutDir', '--logLevel', 'error'],
    {
      cwd: path.join(REPO_ROOT, 'web'),
      encoding: 'utf8',
      timeout: 180_000,
    },
  );
  if (build.status !== 0) {
    rmSync(dist, { recursive: true, force: true });
    throw new Error(`vite build failed: ${build.stderr || build.stdout}`);
  }
  process.once('exit', removeWebBuildOfThisRun);
  webBuild = dist;
  return dist;
}

/** Removes the build of `webBuildOfThisRun`, if any: on exit, or earlier (a test runner's worker may be killed). */
export function removeWebBuildOfThisRun(): void {
  if (webBuild) rmSync(webBuild, { recursive: true, force: true });
  webBuild = undefined;
}

export async function run(_options: BenchOptions = {}): Promise<BenchResult> {
  const dist = webBuildOfThisRun();
  // What the build makes /vicolo load up front (entry, modulepreload, static imports), gzip level 6.
  const chunks = loadedChunks(dist);
  const found = new Set<string>();
  let builtGzipBytes = 0;
  for (const chunk of chunks) {
    const code = readFileSync(chunk);
    builtGzipBytes += gzipSync(code).length;
    if (/admin/i.test(path.basename(chunk))) found.add(`chunk ${path.basename(chunk)}`);
  }
  // What a phone actually receives over HTTP from the cloud serving that build.
  const { transfers, scriptTexts } = await loadOverHttp(dist);
  for (const text of scriptTexts)
    for (const marker of FORBIDDEN_MARKERS) if (text.includes(marker)) found.add(marker);
  const scriptBytes = transfers.filter((t) => t.type === 'script').reduce((sum, t) => sum + t.bytes, 0);
  const allBytes = transfers.reduce((sum, t) => sum + t.bytes, 0);
  const figure = scriptBytes / 1024;
  const allKB = allBytes / 1024;
  return {
    name,
    figure: round(figure),
    unit: 'KB JS over HTTP',
    target: `JS ≤ ${TARGET_KB} KB, all requests ≤ ${TARGET_ALL_KB} KB, no admin code or jspdf`,
    pass: figure <= TARGET_KB && allKB <= TARGET_ALL_KB && found.size === 0,
    notes: `/vicolo loaded by Chromium at 360 px from a cloud serving the build (brotli/gzip as negotiated): ${transfers.length} requests`,
    details: {
      allKB: round(allKB),
      requests: transfers.length,
      transfers: transfers
        .map((t) => `${t.type} ${t.url.split('?')[0]} ${round(t.bytes / 1024)} KB`)
        .join('; '),
      builtChunks: chunks.map((chunk) => path.basename(chunk)).join(', '),
      builtGzipKB: round(builtGzipBytes / 1024),
      adminOrPdfMarkers: found.size === 0 ? 'none' : [...found].join(', '),
      adminAbsent: found.size === 0,
    },
  };
}
