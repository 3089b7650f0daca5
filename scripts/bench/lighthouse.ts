// Lighthouse on a phone (issues 15 and 18): the `lighthouse` package drives the system Chromium
// with its mobile preset (a mid-range phone on a slow 4G link, simulated) against a cloud process
// serving a fresh build (page-weight's, when both run in one process) with the demo locations. `/`,
// `/vicolo` and the night wizard, three runs each; the figure is the lowest of the three medians of
// the performance score. Accessibility, best practices and SEO are recorded too (their median per
// page).
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { percentile, round, type BenchOptions, type BenchResult } from './bench-result';
import { webBuildOfThisRun } from './page-weight';
import { startServerProcess } from './processes';

export const name = 'lighthouse';
const TARGET_PERFORMANCE = 95;
const TARGET_OTHERS = 100;
const PAGES = ['/', '/vicolo', '/booking-notte/vicolo'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
type Category = (typeof CATEGORIES)[number];

type Audit = Record<Category, number> & { lcpMs: number };

/** One Lighthouse run of a page: each category's score out of 100 and the largest contentful paint. */
async function audit(url: string, port: number): Promise<Audit> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: [...CATEGORIES],
  });
  if (!result) throw new Error(`Lighthouse gave no result for ${url}`);
  const { categories, audits, runtimeError } = result.lhr;
  if (runtimeError) throw new Error(`Lighthouse could not audit ${url}: ${runtimeError.message}`);
  const score = (category: Category) => Math.round((categories[category]?.score ?? 0) * 100);
  return {
    performance: score('performance'),
    accessibility: score('accessibility'),
    'best-practices': score('best-practices'),
    seo: score('seo'),
    lcpMs: audits['largest-contentful-paint']?.numericValue ?? Number.NaN,
  };
}

export async function run(options: BenchOptions = {}): Promise<BenchResult> {
  const dist = webBuildOfThisRun();
  const cloud = await startServerProcess('servers/cloud-server.main.ts', {
    BENCH_DATABASE_URL: 'sqlite::memory:',
    BENCH_WEB_DIST: dist,
    BENCH_SEED: '1',
  });
  const chrome = await chromeLauncher.launch({
    chromePath: '/usr/bin/chromium',
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
  try {
    const runs = options.quick ? 1 : 3;
    const pages: Array<{ path: string } & Audit> = [];
    // Quick mode (the smoke test) audits one page once.
    for (const path of options.quick ? ['/vicolo'] : PAGES) {
      const audits: Audit[] = [];
      for (let i = 0; i < runs; i += 1) audits.push(await audit(`${cloud.url}${path}`, chrome.port));
      const median = (pick: (a: Audit) => number) => percentile(audits.map(pick), 50);
      pages.push({
        path,
        performance: median((a) => a.performance),
        accessibility: median((a) => a.accessibility),
        'best-practices': median((a) => a['best-practices']),
        seo: median((a) => a.seo),
        lcpMs: median((a) => a.lcpMs),
      });
    }
    const worst = Math.min(...pages.map((page) => page.performance));
    const othersPerfect = pages.every(
      (page) =>
        page.accessibility >= TARGET_OTHERS &&
        page['best-practices'] >= TARGET_OTHERS &&
        page.seo >= TARGET_OTHERS,
    );
    return {
      name,
      figure: worst,
      unit: 'performance score (worst page median)',
      target: `performance ≥ ${TARGET_PERFORMANCE} on every page; accessibility, best practices and SEO ${TARGET_OTHERS}`,
      pass: worst >= TARGET_PERFORMANCE && othersPerfect,
      notes: `Lighthouse mobile preset (simulated slow 4G, 4× CPU slowdown), median of ${runs} run(s) per page, system Chromium`,
      details: Object.fromEntries(
        pages.flatMap((page) => [
          [
            page.path,
            `performance ${page.performance}, accessibility ${page.accessibility}, best practices ${page['best-practices']}, SEO ${page.seo}, LCP ${round(page.lcpMs / 1000)} s`,
          ],
        ]),
      ),
    };
  } finally {
    await chrome.kill();
    await cloud.stop();
  }
}
