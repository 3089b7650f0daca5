import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import { AppError } from './errors';

// What reaches a route is text a database can store as sent: PostgreSQL refuses U+0000 in text (a 500
// after the request was half handled), control characters have no place in a name, an e-mail or a key,
// and half a surrogate pair would be stored as U+FFFD. Checked once here for every JSON body, query
// string and path, before any route sees them.

/** JSON bodies larger than this (after decompression) are refused with `request/too_large`. */
export const JSON_BODY_LIMIT = '32kb';

/** C0 controls and DEL; tab, newline and carriage return are allowed in body text (multi-line notes). */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const BODY_CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;
/** In a path or a query parameter no control character is allowed at all. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const ANY_CONTROL = /[\u0000-\u001F\u007F]/;

const CONTROL_REFUSED = 'Text may not contain control characters';

/**
 * Half of a UTF-16 surrogate pair, alone (only JSON's `\uD83D` escapes can carry one): no Unicode
 * text has it, and both stores would write U+FFFD instead of what was sent. In the `u` mode a whole
 * pair is one code point, so only a lone half matches.
 */
const LONE_SURROGATE = /\p{Cs}/u;
const LONE_SURROGATE_REFUSED = 'Text must be valid Unicode (half of a surrogate pair alone)';

/**
 * Thrown by the reviver. body-parser strips an error's own properties (keeping its prototype and
 * message), so the offending key is kept aside.
 */
class RefusedTextError extends Error {}
const offendingKeys = new WeakMap<RefusedTextError, string>();

function reviveWithoutRefusedText(key: string, value: unknown): unknown {
  if (BODY_CONTROL.test(key) || (typeof value === 'string' && BODY_CONTROL.test(value))) {
    throw refusedText(CONTROL_REFUSED, key);
  }
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) {
    throw refusedText(LONE_SURROGATE_REFUSED, key);
  }
  return value;
}

function refusedText(message: string, key: string): RefusedTextError {
  const error = new RefusedTextError(message);
  offendingKeys.set(error, key);
  return error;
}

/**
 * The JSON body parser: bounded size, control characters and lone surrogates refused, and every
 * failure of the body itself (corrupt gzip/deflate/br, bad charset, unsupported encoding, bad JSON) a
 * 400 or 413 with our error codes — never a 500. GET and HEAD carry no body here and skip it.
 */
export function jsonBodyParser(): RequestHandler {
  const parse = express.json({ limit: JSON_BODY_LIMIT, reviver: reviveWithoutRefusedText });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method === 'GET' || req.method === 'HEAD') {
      next();
      return;
    }
    parse(req, res, (error?: unknown) => next(error === undefined ? undefined : bodyError(error)));
  };
}

function bodyError(error: unknown): unknown {
  if (error instanceof RefusedTextError) {
    return new AppError('validation/invalid_body', error.message, [
      { path: (offendingKeys.get(error) ?? '').slice(0, 300), message: error.message },
    ]);
  }
  const type = typeof error === 'object' && error !== null && 'type' in error ? error.type : undefined;
  if (type === 'entity.too.large') return new AppError('request/too_large');
  if (type === 'entity.parse.failed') {
    return new AppError('validation/invalid_body', 'The request body is not valid JSON');
  }
  // A stream that does not decompress (zlib/brotli errors carry no `type`), an unknown encoding
  // or charset, an aborted upload: the body cannot be read, which is the sender's fault.
  return new AppError('validation/invalid_body', 'The request body could not be read');
}

function hasControl(value: unknown): boolean {
  if (typeof value === 'string') return ANY_CONTROL.test(value);
  if (Array.isArray(value)) return value.some(hasControl);
  if (typeof value === 'object' && value !== null) {
    return Object.entries(value).some(([key, inner]) => ANY_CONTROL.test(key) || hasControl(inner));
  }
  return false;
}

/** Refuses a path or query string carrying control characters (raw or percent-encoded) or bad %-escapes. */
export const refuseControlCharactersInUrl: RequestHandler = (req, _res, next) => {
  let path: string;
  try {
    path = decodeURIComponent(req.path);
  } catch {
    next(new AppError('validation/invalid_params', 'The path is not valid percent-encoding'));
    return;
  }
  if (ANY_CONTROL.test(path)) {
    next(new AppError('validation/invalid_params', CONTROL_REFUSED));
    return;
  }
  if (hasControl(req.query)) {
    next(new AppError('validation/invalid_query', CONTROL_REFUSED));
    return;
  }
  next();
};
