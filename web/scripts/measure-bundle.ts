import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

// What a visitor opening /vicolo downloads: the entry script and the modulepreload links of
// dist/index.html and every chunk they import statically (not the lazy ones), with gzip sizes.
// Usage: node --import tsx scripts/measure-bundle.ts [distDir] [--budget-kb=120]; exits 1 over
// budget or when admin or jspdf code is among them. `npm run build -w web` runs it after each build.

const args = process.argv.slice(2);
const distDir = path.resolve(args.find((arg) => !arg.startsWith('--')) ?? 'dist');
const budgetKb = Number(args.find((arg) => arg.startsWith('--budget-kb='))?.split('=')[1] ?? 120);

const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
const entry = /<script[^>]+src="\/?([^"]+\.js)"/.exec(html)?.[1];
if (!entry) throw new Error(`No entry script in ${distDir}/index.html`);
const preloads = [...html.matchAll(/<link[^>]+rel="modulepreload"[^>]+href="\/?([^"]+\.js)"/g)].map(
  (m) => m[1]!,
);

const STATIC_IMPORT = /(?:^|[;}\s])import\s*(?:[\w${},*\s]+from\s*)?["']([^"']+\.js)["']/g;
const seen = new Map<string, { raw: number; gzip: number }>();
const visit = (file: string) => {
  if (seen.has(file)) return;
  const code = readFileSync(path.join(distDir, file));
  seen.set(file, { raw: code.length, gzip: gzipSync(code, { level: 9 }).length });
  for (const match of code.toString('utf8').matchAll(STATIC_IMPORT)) {
    visit(path.posix.join(path.posix.dirname(file), match[1]!));
  }
};
visit(entry);
preloads.forEach(visit);

const kb = (bytes: number) => (bytes / 1024).toFixed(1).padStart(7);
let raw = 0;
let gzip = 0;
for (const [file, size] of seen) {
  raw += size.raw;
  gzip += size.gzip;
  console.log(`${kb(size.raw)} kB ${kb(size.gzip)} kB gzip  ${file}`);
}
console.log(
  `${kb(raw)} kB ${kb(gzip)} kB gzip  total JS loaded by a customer page (budget ${budgetKb} kB gzip)`,
);
// By chunk name, and by text only admin or PDF code holds (chunks may be merged under any name);
// the last is TanStack Query's, which only the admin area uses.
const ADMIN_OR_PDF_TEXT = ['jsPDF', 'autoTable', '/api/admin/login', 'No QueryClient set'];
const forbidden = [...seen.keys()].filter(
  (file) =>
    /admin|jspdf/i.test(file) ||
    ADMIN_OR_PDF_TEXT.some((text) => readFileSync(path.join(distDir, file), 'utf8').includes(text)),
);
if (forbidden.length > 0) console.log(`admin or jspdf code in the customer page: ${forbidden.join(', ')}`);
if (gzip / 1024 > budgetKb || forbidden.length > 0) process.exitCode = 1;
