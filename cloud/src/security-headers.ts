import type { RequestHandler } from 'express';
import helmet from 'helmet';

// The browser-facing security headers of the web app's pages (helmet), decided by the route the
// page will show, and HSTS for every answer that reached us over HTTPS.

/**
 * True when the web app would show its admin area for this path. Express and React Router both
 * match paths case-insensitively and after percent-decoding, so the check does too: /Admin,
 * /ADMIN/x and /%61dmin are the admin area. A path that does not decode is treated as admin
 * (refusing to be framed costs nothing on a page that cannot be shown anyway).
 */
export function isAdminPagePath(requestPath: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(requestPath);
  } catch {
    return true;
  }
  return /^\/+admin(?:\/|$)/i.test(decoded.replace(/\/{2,}/g, '/'));
}

/**
 * What the built pages need: Vite's output is module scripts and stylesheets from our origin (no
 * inline script), React sets `style` attributes, i18next fetches /locales and the pages call /api on
 * the same origin, the admin PDF export makes blob: and data: URLs. The sandbox payment page and the
 * API reference set their own policies.
 */
function pagePolicy(frameAncestors: string[]) {
  return {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      workerSrc: ["'self'", 'blob:'],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors,
    },
  };
}

const COMMON = {
  // HSTS is decided per request by `strictTransportSecurity` below.
  strictTransportSecurity: false,
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' as const },
};

/**
 * Headers for a page of the web app. Customer pages are embedded in other sites' iframes: which
 * sites may frame them is `frameAncestors` (FRAME_ANCESTORS). The admin area is never framed.
 */
export function pageSecurityHeaders(frameAncestors: string): RequestHandler {
  const customer = helmet({
    ...COMMON,
    contentSecurityPolicy: pagePolicy(frameAncestors.split(/\s+/).filter(Boolean)),
    frameguard: false,
    // Embedded and opened from host sites: no cross-origin isolation of the window.
    crossOriginOpenerPolicy: false,
  });
  const admin = helmet({
    ...COMMON,
    contentSecurityPolicy: pagePolicy(["'none'"]),
    frameguard: { action: 'deny' },
  });
  return (req, res, next) => (isAdminPagePath(req.path) ? admin : customer)(req, res, next);
}

const hsts = helmet.strictTransportSecurity({ maxAge: 31_536_000, includeSubDomains: false });

/**
 * HSTS only on answers that came over HTTPS: our own TLS, or a trusted balancer's
 * X-Forwarded-Proto (TRUST_PROXY). Sent over plain HTTP it would be ignored at best.
 */
export const strictTransportSecurity: RequestHandler = (req, res, next) =>
  req.secure ? hsts(req, res, next) : next();

const API_PATH = /^\/api(?:\/|$)/i;

/**
 * Every API answer may carry a visitor's details, a PIN or an operator's data (booking read-backs,
 * payment results, the admin API): no browser, proxy or shared cache keeps a copy. An endpoint
 * that wants caching sets its own Cache-Control after this.
 */
export const noStoreApiAnswers: RequestHandler = (req, res, next) => {
  if (API_PATH.test(req.path)) res.set('Cache-Control', 'no-store');
  next();
};
