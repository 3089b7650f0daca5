import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Guards `/metrics`, whose figures (bookings by status, sites online, error rates) are nobody
 * else's business: the scraper must send `Authorization: Bearer <METRICS_TOKEN>`, compared as
 * digests in constant time so neither the token nor its length leaks through timing. Without a
 * token, only a demo (DEMO=1) leaves it open; otherwise it answers 401 until one is set.
 */
export function requireMetricsToken(token: string | null, options: { demo: boolean }): RequestHandler {
  if (token === null && options.demo) return (_req, _res, next) => next();
  const expected = token === null ? null : digest(token);
  return (req, res, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (expected && match && timingSafeEqual(digest(match[1]), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
    next(
      new AppError(
        'auth/unauthorized',
        expected ? 'Send the metrics token as a Bearer token' : 'Set METRICS_TOKEN to read the metrics',
      ),
    );
  };
}
