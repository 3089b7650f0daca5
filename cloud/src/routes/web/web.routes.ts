import { existsSync, statSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { brotliCompressSync, constants as zlibConstants, gzipSync } from 'node:zlib';
import { DEFAULT_LANGUAGE, isLanguage, type Language, languageOfTag, localeRoutes } from '@deposito/protocol';
import { LOCATION_KEY_PATTERN, RESERVED_LOCATION_KEYS } from '@deposito/protocol/schemas/limits';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { RouteArea } from '../../app-context';
import { REPO_ROOT } from '../../env';
import { AppError } from '../../errors';
import { pageSecurityHeaders } from '../../security-headers';
import { PageModulePreloads } from './page-modules';

// The web app as the visitor's browser loads it: the built files of web/dist, the translation
// files of locales/, and index.html for every page path so client-side routes survive a reload.

/** Hashed file names change with their content, so a year-long cache is safe. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, embed.js and the translations must be revalidated so a deploy shows at once. */
const REVALIDATE = 'no-cache';

/** Paths other areas answer: neither files nor pages are looked up for them. */
const OTHER_AREAS = /^\/(?:api|sandbox-pay|bridge)(?:\/|$)|^\/(?:healthz|readyz|metrics)$/i;

/**
 * The language the page will most likely show, as far as the server can tell: `?lng=`, then the
 * language cookie, then the browser's languages in order (the page may still choose another from
 * what it stored itself).
 */
function pageLanguage(req: Request): Language {
  const query = typeof req.query.lng === 'string' ? languageOfTag(req.query.lng) : null;
  const cookie = /(?:^|;\s*)i18next=([^;]*)/.exec(req.headers.cookie ?? '')?.[1];
  const accepted = (req.headers['accept-language'] ?? '').split(',').map(languageOfTag);
  return (
    query ?? (cookie ? languageOfTag(cookie) : null) ?? accepted.find((l) => l !== null) ?? DEFAULT_LANGUAGE
  );
}

/** `/vicolo` and `/booking-notte/vicolo`: the location the page opens on, or null. */
function pageLocation(pagePath: string): string | null {
  const key = /^\/(?:booking-notte\/)?([^/]+)\/?$/.exec(pagePath)?.[1];
  if (!key || !LOCATION_KEY_PATTERN.test(key)) return null;
  return (RESERVED_LOCATION_KEYS as readonly string[]).includes(key) ? null : key;
}

/**
 * What the page's first screens wait for, asked for together with the page's script instead of
 * after it (issue 15): the translations of the page's language (the app loads no other: every file
 * has all the keys) and, on a location's page, the location and its settings. The URLs are the ones
 * the app fetches, so the browser hands it these answers.
 */
export function pagePreloads(req: Request): string {
  const urls = [`/locales/${pageLanguage(req)}/common.json`];
  const key = pageLocation(req.path);
  if (key) urls.push(`/api/locations/${key}`, `/api/admin/frontend-overrides?location=${key}`);
  return urls.map((url) => `<link rel="preload" href="${url}" as="fetch" crossorigin>`).join('');
}

const WEB_NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Deposito</title></head>
<body style="font-family: system-ui, sans-serif; padding: 2rem">
<h1>The web app is not built yet</h1>
<p>Run <code>npm run build -w web</code> in the repository, then reload this page.</p>
</body></html>
`;

/**
 * The build writes `<file>.br` and `<file>.gz` beside every text file (web/vite.config.ts): the
 * encoding the browser accepts best, brotli first, or null for the file as it is.
 */
export function acceptedEncoding(header: string | undefined): 'br' | 'gzip' | null {
  const accepted = new Map<string, number>();
  for (const part of (header ?? '').split(',')) {
    const [name = '', ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((v) => v !== undefined);
    accepted.set(name.trim(), q === undefined ? 1 : Number(q));
  }
  const weight = (name: string) => accepted.get(name) ?? accepted.get('*') ?? 0;
  if (weight('br') > 0) return 'br';
  if (weight('gzip') > 0) return 'gzip';
  return null;
}

const ENCODED_SUFFIX = { br: '.br', gzip: '.gz' } as const;

/**
 * The precompressed copy of `file` for the request, if the browser takes one and the build made
 * it (a file under 1 KB has none: compressing it would not pay).
 */
function precompressed(file: string, req: Request): { file: string; encoding: 'br' | 'gzip' } | null {
  const encoding = acceptedEncoding(req.headers['accept-encoding']);
  if (!encoding) return null;
  const candidate = file + ENCODED_SUFFIX[encoding];
  try {
    return statSync(candidate).isFile() ? { file: candidate, encoding } : null;
  } catch {
    return null;
  }
}

/**
 * The file under `root` a URL path names, or null when it would leave `root`, cannot be decoded or
 * is a dotfile: those, like the build's .vite/manifest.json, stay private, as express.static keeps them.
 */
function fileUnder(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0') || /(?:^|[\\/])\./.test(decoded)) return null;
  const file = path.resolve(root, `.${path.posix.normalize(decoded)}`);
  return file.startsWith(root + path.sep) ? file : null;
}

function isSourceMapPath(requestPath: string): boolean {
  try {
    return /\.map(?:\.br|\.gz)?$/i.test(decodeURIComponent(requestPath));
  } catch {
    return true;
  }
}

/**
 * The translation files, read and compressed once each and again only when the file changes (they
 * are edited in place while the cloud runs, unlike the build's hashed files).
 */
class CompressedFiles {
  private readonly cache = new Map<string, { mtimeMs: number; raw: Buffer; br: Buffer; gzip: Buffer }>();

  async get(file: string): Promise<{ raw: Buffer; br: Buffer; gzip: Buffer }> {
    const { mtimeMs } = await stat(file);
    const cached = this.cache.get(file);
    if (cached?.mtimeMs === mtimeMs) return cached;
    const raw = await readFile(file);
    const entry = {
      mtimeMs,
      raw,
      br: brotliCompressSync(raw, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 9 } }),
      gzip: gzipSync(raw, { level: 9 }),
    };
    this.cache.set(file, entry);
    return entry;
  }
}

export interface WebAreaOptions {
  /** The Vite build output; web/dist of the repository by default. */
  distDir?: string;
  /** The translation files, `<lng>/common.json`; locales/ of the repository by default. */
  localesDir?: string;
}

/**
 * Sends the precompressed copy of the built file `file` when there is one the browser takes;
 * false leaves the request to express.static (the file as it is, or a 404).
 */
function sendPrecompressed(
  req: Request,
  res: Response,
  next: NextFunction,
  file: string,
  cacheControl: string,
): boolean {
  const copy = precompressed(file, req);
  if (!copy) return false;
  res.vary('Accept-Encoding');
  res.set({
    'Content-Encoding': copy.encoding,
    'Cache-Control': cacheControl,
    'X-Content-Type-Options': 'nosniff',
  });
  res.type(path.extname(file));
  res.sendFile(copy.file, { acceptRanges: false, cacheControl: false, dotfiles: 'deny' }, (error) => {
    if (error && !res.headersSent) next(error);
  });
  return true;
}

/** GET /locales/:lng/common.json, compressed as the browser takes it; nothing else under /locales. */
function useTranslations(router: express.Router, localesDir: string): void {
  const compressedTranslations = new CompressedFiles();
  router.get(localeRoutes.translations.path, async (req: Request<{ lng: string }>, res) => {
    const { lng } = req.params;
    if (!isLanguage(lng)) throw new AppError('route/not_found', `No translations for language ${lng}`);
    const file = path.join(localesDir, lng, 'common.json');
    const translations = await compressedTranslations.get(file).catch(() => {
      throw new AppError('route/not_found', `No translations for language ${lng}`);
    });
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    res.set('Cache-Control', REVALIDATE).vary('Accept-Encoding').type('json');
    if (encoding) res.set('Content-Encoding', encoding).send(translations[encoding]);
    else res.send(translations.raw);
  });
  router.use('/locales', (_req, _res, next) => next(new AppError('route/not_found')));
}

/** A built file (a script, a style, an image…), precompressed when the build made a copy. */
function builtFileHandler(distDir: string): (req: Request, res: Response, next: NextFunction) => void {
  // Looked up per request so a build made while the cloud runs is picked up.
  const files = express.static(distDir, {
    index: false,
    redirect: false,
    setHeaders(res, filePath) {
      const hashed = path.relative(distDir, filePath).startsWith(`assets${path.sep}`);
      res.set('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
      res.set('X-Content-Type-Options', 'nosniff');
    },
  });
  return (req, res, next) => {
    const file = fileUnder(distDir, req.path);
    const hashed = req.path.startsWith('/assets/');
    res.vary('Accept-Encoding');
    // A missing hashed file must stay a 404: index.html in its place would run as a script.
    if (!file || !sendPrecompressed(req, res, next, file, hashed ? IMMUTABLE : REVALIDATE))
      files(req, res, next);
  };
}

/** index.html for a page path, with the page's preloads, or a page saying the build is missing. */
function sendIndexPage(
  req: Request,
  res: Response,
  next: NextFunction,
  indexFile: string,
  pageModules: PageModulePreloads,
): void {
  res.set('Cache-Control', REVALIDATE);
  // The preloads depend on the page's language, told by these.
  res.vary('Accept-Encoding').vary('Accept-Language').vary('Cookie');
  if (!existsSync(indexFile)) {
    res.status(503).type('html').send(WEB_NOT_BUILT);
    return;
  }
  // About a kilobyte, compressed per request (the preloads differ per page and language):
  // a fast brotli level costs a fraction of a millisecond here.
  Promise.all([readFile(indexFile, 'utf8'), pageModules.linksFor(req.path)]).then(([html, modules]) => {
    const page = Buffer.from(html.replace('</head>', `${pagePreloads(req)}${modules}</head>`));
    const encoding = acceptedEncoding(req.headers['accept-encoding']);
    res.type('html');
    if (encoding === 'br') {
      const body = brotliCompressSync(page, {
        params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 },
      });
      res.set('Content-Encoding', 'br').send(body);
    } else if (encoding === 'gzip') res.set('Content-Encoding', 'gzip').send(gzipSync(page));
    else res.send(page);
  }, next);
}

export function createWebArea(options: WebAreaOptions = {}): RouteArea {
  const distDir = options.distDir ?? path.join(REPO_ROOT, 'web', 'dist');
  const localesDir = options.localesDir ?? path.join(REPO_ROOT, 'locales');
  const indexFile = path.join(distDir, 'index.html');
  const pageModules = new PageModulePreloads(path.join(distDir, '.vite', 'manifest.json'));

  return {
    name: 'web',
    routes(router, { env }) {
      const pageHeaders = pageSecurityHeaders(env.frameAncestors);
      useTranslations(router, localesDir);
      const builtFile = builtFileHandler(distDir);

      router.use((req: Request, res: Response, next: NextFunction) => {
        if ((req.method !== 'GET' && req.method !== 'HEAD') || OTHER_AREAS.test(req.path)) {
          next();
          return;
        }
        // Decoded as express.static will decode it, so /x.js.%6Dap is a source map too.
        if (!env.serveSourceMaps && isSourceMapPath(req.path)) {
          next(new AppError('route/not_found'));
          return;
        }
        if (req.path.startsWith('/assets/') || path.extname(req.path) !== '') {
          const serve = () => builtFile(req, res, next);
          if (path.extname(req.path).toLowerCase() === '.html') pageHeaders(req, res, serve);
          else serve();
          return;
        }
        pageHeaders(req, res, (error?: unknown) => {
          if (error) next(error);
          else sendIndexPage(req, res, next, indexFile, pageModules);
        });
      });
    },
  };
}

export const webArea = createWebArea();
