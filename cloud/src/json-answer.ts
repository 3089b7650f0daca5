import type { Response } from 'express';

// How the cloud sends every JSON answer (the catalogue's endpoints, errors, health and readiness), and
// the one way a guard may change one on its way out: an operator's lists narrowed to its own sites
// (auth/roles.ts).

type Narrowing = (body: unknown) => unknown;

const narrowings = new WeakMap<Response, Narrowing>();

/** Has this request's answer passed through `narrow` before it is sent. */
export function narrowAnswer(res: Response, narrow: Narrowing): void {
  narrowings.set(res, narrow);
}

/**
 * Sends `body`, narrowed if a guard asked, as JSON: as Express's `res.json` would but without its
 * ETag. Every API answer is no-store (`noStoreApiAnswers`) and errors and probes are never revalidated,
 * so no cache could ever ask for one again with If-None-Match, and hashing each body was a tenth of an
 * availability call's cost. Node adds the Content-Length and leaves the body out of a HEAD answer.
 */
export function sendJson(res: Response, status: number, body: unknown): void {
  const narrow = narrowings.get(res);
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(narrow ? narrow(body) : body));
}
