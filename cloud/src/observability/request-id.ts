import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * Ids a proxy or caller may hand us: UUIDs, hex or base64 trace ids, ULIDs. Anything longer or with
 * other characters is replaced, so a caller cannot inject log lines or bloat every log entry.
 */
const ACCEPTED_REQUEST_ID = /^[A-Za-z0-9._:+/=-]{1,128}$/;

/** The caller's `X-Request-Id` when it is a usable id, otherwise a fresh UUID. */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id'];
  const candidate = Array.isArray(incoming) ? incoming[0] : incoming;
  return candidate !== undefined && ACCEPTED_REQUEST_ID.test(candidate) ? candidate : randomUUID();
}

/**
 * Picks the request's id and echoes it in the response (`requestLogging`), so a caller
 * reporting a problem can quote the id that is in every log line of that request.
 */
export function assignRequestId(req: IncomingMessage, res: ServerResponse): string {
  const id = requestIdOf(req);
  res.setHeader(REQUEST_ID_HEADER, id);
  return id;
}
