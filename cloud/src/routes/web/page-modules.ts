import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';

// A lazy page's chunks, asked for with index.html on the paths that open that page (issue 15).
// Without them the browser learns of the chunks only once the entry script has downloaded and run,
// then waits for each level of their imports in turn: on a phone the night wizard showed nothing
// for that whole chain. The chunk names change with every build, so they come from Vite's manifest.

/** What we read of Vite's build manifest: each chunk's file and the chunks it imports statically. */
const buildManifestSchema = z.record(
  z.string(),
  z.object({
    file: z.string(),
    isEntry: z.boolean().optional(),
    imports: z.array(z.string()).optional(),
  }),
);
export type BuildManifest = z.infer<typeof buildManifestSchema>;

/**
 * Page paths whose screen is a lazy page of web/src/App.tsx, with its source file as the manifest
 * names it. Only pages that open on a path a visitor is sent to: the night wizard (linked from the
 * host sites). The others are small or reached from within the app, whose chunks the entry loads.
 */
export const LAZY_PAGES: ReadonlyArray<{ path: RegExp; module: string }> = [
  // As React Router matches it: case-insensitive, with or without the location and a final slash.
  { path: /^\/booking-notte(?:\/[^/]+)?\/?$/i, module: 'src/night/NightWizardPage.tsx' },
];

/**
 * The files a lazy page needs before it can show, in the order it needs them: its own chunk, then
 * every chunk it imports statically, less those the entry already loads (index.html asks for them).
 */
export function lazyPageFiles(manifest: BuildManifest, module: string): string[] {
  const reach = (keys: string[], seen = new Set<string>()) => {
    for (const key of keys) {
      const chunk = manifest[key];
      if (!chunk || seen.has(key)) continue;
      seen.add(key);
      reach(chunk.imports ?? [], seen);
    }
    return seen;
  };
  const entry = reach(Object.keys(manifest).filter((key) => manifest[key]!.isEntry));
  return [...reach([module])].filter((key) => !entry.has(key)).map((key) => manifest[key]!.file);
}

/**
 * The modulepreload links for a page path, from the manifest at `manifestFile` (re-read when a new
 * build replaces it while the cloud runs). A missing or unreadable manifest gives none: the page
 * still works, it only loads its chunks later.
 */
export class PageModulePreloads {
  private cached: { mtimeMs: number; manifest: BuildManifest } | undefined;

  constructor(private readonly manifestFile: string) {}

  async linksFor(pagePath: string): Promise<string> {
    const page = LAZY_PAGES.find((candidate) => candidate.path.test(pagePath));
    if (!page) return '';
    const manifest = await this.manifest();
    if (!manifest) return '';
    return lazyPageFiles(manifest, page.module)
      .map((file) => `<link rel="modulepreload" crossorigin href="/${file}">`)
      .join('');
  }

  private async manifest(): Promise<BuildManifest | null> {
    const mtimeMs = await stat(this.manifestFile).then(
      (stats) => stats.mtimeMs,
      () => null,
    );
    if (mtimeMs === null) return null;
    if (this.cached?.mtimeMs === mtimeMs) return this.cached.manifest;
    try {
      const parsed = buildManifestSchema.safeParse(JSON.parse(await readFile(this.manifestFile, 'utf8')));
      if (!parsed.success) return null;
      this.cached = { mtimeMs, manifest: parsed.data };
      return parsed.data;
    } catch {
      // Removed or half-written by a build under way: read again on the next page.
      return null;
    }
  }
}
