import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants as zlibConstants, gzip } from 'node:zlib';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';

// The cloud serves web/dist in production; in development the API and the translation files
// come from a locally running cloud.
const cloud = 'http://127.0.0.1:8080';

/**
 * Every module the entry reaches through static imports: what a visitor opening /{location} runs
 * before anything shows. They go to one chunk, which compresses better than the pieces a default
 * split makes of the modules it shares with the lazy pages (react, i18next); the lazy pages import
 * them from it.
 */
function firstScreenModules(): { plugin: Plugin; has: (id: string) => boolean } {
  const modules = new Set<string>();
  return {
    has: (id) => modules.has(id),
    plugin: {
      name: 'deposito:first-screen-modules',
      apply: 'build',
      buildEnd() {
        modules.clear();
        const entries = [...this.getModuleIds()].filter((id) => this.getModuleInfo(id)?.isEntry);
        const visit = (id: string) => {
          if (modules.has(id)) return;
          modules.add(id);
          for (const imported of this.getModuleInfo(id)?.importedIds ?? []) visit(imported);
        };
        entries.forEach(visit);
      },
    },
  };
}

const FIRST_SCREEN_COPY = '?first-screen';

/**
 * The first screen checks its two answers with zod/mini (src/api/location-answers.ts). A bundle
 * puts a whole module in one chunk, so sharing zod's core with the full schemas of the lazy pages
 * would pull every part of the core they use into the first screen too (about 6 kB gzip more).
 * This gives that one import its own copy of zod's files, tree-shaken to what the first screen
 * uses; the lazy pages keep theirs.
 */
function firstScreenZodCopy(): Plugin {
  return {
    name: 'deposito:first-screen-zod-copy',
    apply: 'build',
    enforce: 'pre',
    async resolveId(source, importer, options) {
      if (!importer) return null;
      const copy = importer.endsWith(FIRST_SCREEN_COPY);
      if (!copy && !(source === 'zod/mini' && /[\\/]src[\\/]api[\\/]location-answers\.ts$/.test(importer))) {
        return null;
      }
      const resolved = await this.resolve(source, importer.replace(FIRST_SCREEN_COPY, ''), {
        ...options,
        skipSelf: true,
      });
      if (!resolved || resolved.external || !/[\\/]node_modules[\\/]zod[\\/]/.test(resolved.id))
        return resolved;
      return { id: resolved.id + FIRST_SCREEN_COPY, moduleSideEffects: false };
    },
    load(id) {
      return id.endsWith(FIRST_SCREEN_COPY) ? readFile(id.slice(0, -FIRST_SCREEN_COPY.length), 'utf8') : null;
    },
  };
}

/** Text files worth compressing (not the source maps: served only on request, see SERVE_SOURCE_MAPS). */
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/i;
/** Under this size a compressed copy saves less than its headers cost. */
const COMPRESS_FROM_BYTES = 1024;

/**
 * Writes `<file>.br` (brotli, best) and `<file>.gz` (gzip, best) beside every text file of the
 * build, once, so the cloud sends them as they are (cloud/src/routes/web/web.routes.ts) instead of
 * compressing on every request or not at all.
 */
function precompress(): Plugin {
  const brotli = promisify(brotliCompress);
  const gzipped = promisify(gzip);
  let outDir = 'dist';
  return {
    name: 'deposito:precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const files = (await readdir(outDir, { recursive: true, withFileTypes: true }))
        .filter((entry) => entry.isFile() && COMPRESSIBLE.test(entry.name))
        .map((entry) => path.join(entry.parentPath, entry.name));
      await Promise.all(
        files.map(async (file) => {
          const content = await readFile(file);
          if (content.length < COMPRESS_FROM_BYTES) return;
          const [br, gz] = await Promise.all([
            brotli(content, {
              params: {
                [zlibConstants.BROTLI_PARAM_QUALITY]: zlibConstants.BROTLI_MAX_QUALITY,
                [zlibConstants.BROTLI_PARAM_SIZE_HINT]: content.length,
              },
            }),
            gzipped(content, { level: 9 }),
          ]);
          await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
        }),
      );
    },
  };
}

const firstScreen = firstScreenModules();

export default defineConfig({
  plugins: [react(), firstScreen.plugin, firstScreenZodCopy(), precompress()],
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    // dist/.vite/manifest.json: which chunks each lazy page imports, so the cloud can ask for them
    // with the page on the paths that open one (cloud/src/routes/web/page-modules.ts).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            {
              name: 'first-screen',
              test: (id) => firstScreen.has(id),
            },
          ],
        },
      },
    },
  },
  server: {
    port: 5173,
    proxy: {
      '/api': cloud,
      '/locales': cloud,
    },
  },
  preview: {
    port: 4173,
  },
});
