import { createHash, timingSafeEqual } from 'node:crypto';
import type { RequestHandler } from 'express';
import { AppError } from '../errors';

const digest = (value: string) => createHash('sha256').update(value).digest();

/**
 * Guards `/metrics`: open when no token is configured (a scrape on a private network), otherwise
 * the scraper must send `Authorization: Bearer <METRICS_TOKEN>`. Compared as digests in constant
 * time, so neither the token nor its length leaks through timing.
 */
export function requireMetricsToken(token: string | null): RequestHandler {
  if (token === null) return (_req, _res, next) => next();
  const expected = digest(token);
  return (req, res, next) => {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    if (match && timingSafeEqual(digest(match[1]), expected)) {
      next();
      return;
    }
    res.setHeader('WWW-Authenticate', 'Bearer realm="metrics"');
    next(new AppError('auth/unauthorized', 'Send the metrics token as a Bearer token'));
  };
}
