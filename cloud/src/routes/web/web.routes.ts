import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { LANGUAGES, localeRoutes } from '@deposito/protocol';
import express, { type NextFunction, type Request, type Response } from 'express';
import type { RouteArea } from '../../app';
import { REPO_ROOT } from '../../env';
import { AppError } from '../../errors';

// The web app as the visitor's browser loads it: the built files of web/dist, the translation
// files of locales/, and index.html for every page path so client-side routes survive a reload.

/** Hashed file names change with their content, so a year-long cache is safe. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, embed.js and the translations must be revalidated so a deploy shows at once. */
const REVALIDATE = 'no-cache';

/** Paths other areas answer: neither files nor pages are looked up for them. */
const OTHER_AREAS = /^\/(?:api|sandbox-pay|bridge)(?:\/|$)|^\/(?:healthz|readyz|metrics)$/;

const WEB_NOT_BUILT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Deposito</title></head>
<body style="font-family: system-ui, sans-serif; padding: 2rem">
<h1>The web app is not built yet</h1>
<p>Run <code>npm run build -w web</code> in the repository, then reload this page.</p>
</body></html>
`;

export interface WebAreaOptions {
  /** The Vite build output; web/dist of the repository by default. */
  distDir?: string;
  /** The translation files, `<lng>/common.json`; locales/ of the repository by default. */
  localesDir?: string;
}

const isLanguage = (value: string): value is (typeof LANGUAGES)[number] =>
  (LANGUAGES as readonly string[]).includes(value);

/**
 * Customer pages are embedded in other sites' iframes, so they must not forbid framing; which
 * sites may frame them is `FRAME_ANCESTORS`. The admin area is never framed.
 */
function setPageSecurityHeaders(res: Response, requestPath: string, frameAncestors: string): void {
  const admin = requestPath === '/admin' || requestPath.startsWith('/admin/');
  res.set({
    'Content-Security-Policy': `frame-ancestors ${admin ? "'none'" : frameAncestors}; base-uri 'self'; object-src 'none'`,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
  });
  if (admin) res.set('X-Frame-Options', 'DENY');
}

export function createWebArea(options: WebAreaOptions = {}): RouteArea {
  const distDir = options.distDir ?? path.join(REPO_ROOT, 'web', 'dist');
  const localesDir = options.localesDir ?? path.join(REPO_ROOT, 'locales');
  const indexFile = path.join(distDir, 'index.html');

  return {
    name: 'web',
    router({ env }) {
      const router = express.Router();

      router.get(localeRoutes.translations.path, async (req: Request<{ lng: string }>, res) => {
        const { lng } = req.params;
        if (!isLanguage(lng)) throw new AppError('route/not_found', `No translations for language ${lng}`);
        const body = await readFile(path.join(localesDir, lng, 'common.json')).catch(() => {
          throw new AppError('route/not_found', `No translations for language ${lng}`);
        });
        res.set('Cache-Control', REVALIDATE).type('json').send(body);
      });
      router.use('/locales', (_req, _res, next) => next(new AppError('route/not_found')));

      // Built files; looked up per request so a build made while the cloud runs is picked up.
      const files = express.static(distDir, {
        index: false,
        redirect: false,
        setHeaders(res, filePath) {
          const hashed = path.relative(distDir, filePath).startsWith(`assets${path.sep}`);
          res.set('Cache-Control', hashed ? IMMUTABLE : REVALIDATE);
          res.set('X-Content-Type-Options', 'nosniff');
          if (filePath.endsWith('.html')) setPageSecurityHeaders(res, '/', env.frameAncestors);
        },
      });

      router.use(async (req: Request, res: Response, next: NextFunction) => {
        if ((req.method !== 'GET' && req.method !== 'HEAD') || OTHER_AREAS.test(req.path)) {
          next();
          return;
        }
        if (req.path.startsWith('/assets/') || path.extname(req.path) !== '') {
          // A missing hashed file must stay a 404: index.html in its place would run as a script.
          files(req, res, next);
          return;
        }
        setPageSecurityHeaders(res, req.path, env.frameAncestors);
        res.set('Cache-Control', REVALIDATE);
        if (!existsSync(indexFile)) {
          res.status(503).type('html').send(WEB_NOT_BUILT);
          return;
        }
        res.type('html').send(await readFile(indexFile));
      });
      return router;
    },
  };
}

export const webArea = createWebArea();
