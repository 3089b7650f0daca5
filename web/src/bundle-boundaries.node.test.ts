import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// Visitors must never download the admin area or the PDF library: only the lazy route in App.tsx
// may point at ./admin, and jspdf may only be imported under src/admin. What the first screen
// imports statically (main.tsx and everything it reaches without import()) is what /{location}
// downloads before anything shows: no admin code, no PDF library, and none of the libraries the
// later steps load (scripts/measure-bundle.ts measures the built size; this runs without a build).

const srcDir = fileURLToPath(new URL('.', import.meta.url));

function customerFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return path === join(srcDir, 'admin') ? [] : customerFiles(path);
    return /\.(ts|tsx)$/.test(name) && !/\.test\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

const imports = (text: string) =>
  [...text.matchAll(/(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)].map(
    (match) => ({ source: (match[1] ?? match[2])!, dynamic: match[2] !== undefined }),
  );

describe('customer bundle boundaries', () => {
  const files = customerFiles(srcDir);

  it('never imports jspdf outside the admin area', () => {
    const offenders = files.filter((file) =>
      imports(readFileSync(file, 'utf8')).some(({ source }) => source.startsWith('jspdf')),
    );
    expect(offenders.map((file) => relative(srcDir, file))).toEqual([]);
  });

  it("never imports the admin area's data libraries (TanStack Query, react-hook-form) outside it", () => {
    const offenders = files.filter((file) =>
      imports(readFileSync(file, 'utf8')).some(
        ({ source }) => source.startsWith('@tanstack/') || source === 'react-hook-form',
      ),
    );
    expect(offenders.map((file) => relative(srcDir, file))).toEqual([]);
  });

  it('reaches the admin area only through the lazy route', () => {
    const offenders = files.flatMap((file) =>
      imports(readFileSync(file, 'utf8'))
        .filter(({ source, dynamic }) => /(^|\/)admin(\/|$)/.test(source) && !dynamic)
        .map(({ source }) => `${relative(srcDir, file)} → ${source}`),
    );
    expect(offenders).toEqual([]);
    expect(readFileSync(join(srcDir, 'App.tsx'), 'utf8')).toContain("lazy(() => import('./admin/AdminApp'))");
  });
});

const protocolDir = fileURLToPath(new URL('../../protocol/src/', import.meta.url));

/** Value imports and re-exports (type-only ones are erased) and bare `import 'x'`; never import(). */
function staticImports(text: string): string[] {
  const sources: string[] = [];
  const declarations =
    /^\s*(import|export)\s+(type\s+)?([^'";]*?)\s*from\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(declarations)) {
    if (match[5]) {
      sources.push(match[5]);
      continue;
    }
    if (match[2]) continue;
    const names = /^\{([^}]*)\}$/.exec(match[3]!.trim())?.[1];
    const onlyTypes =
      names !== undefined &&
      names.split(',').every((name) => name.trim() === '' || name.trim().startsWith('type '));
    if (!onlyTypes) sources.push(match[4]!);
  }
  return sources;
}

/** A source file for a relative or protocol import; null for a package (or a stylesheet). */
function resolveSource(source: string, importer: string): string | null {
  let base: string;
  if (source.startsWith('.')) base = resolve(dirname(importer), source);
  else if (source === '@deposito/protocol') base = join(protocolDir, 'index');
  else if (source.startsWith('@deposito/protocol/'))
    base = join(protocolDir, source.slice('@deposito/protocol/'.length));
  else return null;
  if (/\.(css|svg|png)$/.test(base)) return null;
  const candidate = ['.ts', '.tsx', '/index.ts', '/index.tsx'].map((ext) => base + ext).find(existsSync);
  if (!candidate) throw new Error(`Cannot resolve ${source} from ${importer}`);
  return candidate;
}

/** Our files and the packages the entry reaches through static imports. */
function firstScreenGraph(entry: string): { files: string[]; packages: string[] } {
  const files = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    for (const source of staticImports(readFileSync(file, 'utf8'))) {
      const resolved = resolveSource(source, file);
      if (resolved) visit(resolved);
      else if (!source.startsWith('.')) packages.add(source);
    }
  };
  visit(entry);
  return { files: [...files], packages: [...packages] };
}

describe('first screen of a location page', () => {
  const graph = firstScreenGraph(join(srcDir, 'main.tsx'));

  it('reaches the location page, its idle screen and the first answers it checks', () => {
    const names = graph.files.map((file) => relative(srcDir, file));
    for (const file of [
      'booking/LocationPage.tsx',
      'booking/steps/IdleStep.tsx',
      'api/location-answers.ts',
    ]) {
      expect(names).toContain(file);
    }
  });

  it('holds no admin code and no PDF library', () => {
    const adminFiles = graph.files.filter((file) => file.startsWith(join(srcDir, 'admin')));
    expect(adminFiles.map((file) => relative(srcDir, file))).toEqual([]);
    expect(graph.packages.filter((name) => /jspdf|html2canvas|canvg|dompurify/.test(name))).toEqual([]);
    expect(graph.packages.filter((name) => /^@tanstack\/|^react-hook-form$/.test(name))).toEqual([]);
  });

  it('leaves the date library, the full zod and the booking steps to the lazy chunks', () => {
    expect(
      graph.packages.filter((name) => name === 'luxon' || name === 'zod' || name.startsWith('zod/v4')),
    ).toEqual([]);
    expect(graph.packages).toContain('zod/mini');
    const lazy = ['booking/DaytimeSteps.tsx', 'booking/DaytimeSummary.tsx', 'api/customer-routes.ts'];
    expect(graph.files.map((file) => relative(srcDir, file)).filter((file) => lazy.includes(file))).toEqual(
      [],
    );
  });

  it('follows static imports but not import() or type-only imports', () => {
    expect(
      staticImports(
        [
          "import { a, type B } from './a';",
          "import type { C } from './c';",
          "import { type D } from './d';",
          "export { e } from './e';",
          "export type { F } from './f';",
          "import './g.css';",
          "const h = lazy(() => import('./h'));",
        ].join('\n'),
      ),
    ).toEqual(['./a', './e', './g.css']);
  });
});

describe('first screen of the night wizard', () => {
  const graph = firstScreenGraph(join(srcDir, 'night', 'NightWizardPage.tsx'));

  it('reaches the calendar the wizard opens on', () => {
    expect(graph.files.map((file) => relative(srcDir, file))).toContain('booking/steps/CalendarStep.tsx');
  });

  it('leaves the summary, the customer form with its phone library and the full API schemas to later', () => {
    const later = ['night/NightSummary.tsx', 'components/CustomerForm.tsx', 'api/customer-routes.ts'];
    expect(graph.files.map((file) => relative(srcDir, file)).filter((file) => later.includes(file))).toEqual(
      [],
    );
    expect(graph.packages.filter((name) => name.startsWith('libphonenumber-js'))).toEqual([]);
  });
});
