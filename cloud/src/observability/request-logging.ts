import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { pino, type Level, type Logger } from 'pino';
import { redactedRequestSerializer } from './log-redaction';
import { assignRequestId } from './request-id';

declare module 'node:http' {
  interface IncomingMessage {
    /** The request's id (`X-Request-Id`), on every line logged for it. */
    id: string | number | object;
    /** Logs with the request's id (`reqId`). */
    log: Logger;
  }
}

export interface RequestLoggingOptions {
  logger: Logger;
  /** Requests not worth a completion line when they succeed (probes). */
  ignore(req: IncomingMessage): boolean;
  /** The completion line's level. */
  levelOf(res: ServerResponse, error: Error | undefined): Level;
}

/**
 * pino-http's behaviour for the cloud, without its per-request cost: every request gets its id
 * (`req.id`, the `X-Request-Id` header) and `req.log` carrying it as `reqId`; when it ends, one line
 * `request completed` / `request aborted` / `request errored` with `req`, `res` and `responseTime`,
 * the same fields pino-http writes. pino-http serialised the whole request into a child logger on
 * every request, even when the line would not be written; here `req` is serialised only for a line
 * that is (availability throughput benchmark: that was ~5% of a call).
 */
export function requestLogging(options: RequestLoggingOptions): RequestHandler {
  const logger = options.logger.child(
    {},
    {
      serializers: {
        // What pino-http serialises these with; the request without its secrets (log-redaction.ts).
        req: redactedRequestSerializer,
        res: pino.stdSerializers.res,
        err: pino.stdSerializers.err,
      },
    },
  );

  return (req, res, next) => {
    const startedAt = Date.now();
    const id = assignRequestId(req, res);
    req.id = id;
    const log = logger.child({ reqId: id });
    req.log = log;

    const logIgnored = options.ignore(req);
    const onDone = (error?: unknown) => {
      res.off('close', onDone);
      res.off('finish', onDone);
      res.off('error', onDone);
      const failure = error instanceof Error ? error : undefined;
      if (logIgnored && !failure) return;
      const level = options.levelOf(res, failure);
      if (!log.isLevelEnabled(level)) return;
      const responseTime = Date.now() - startedAt;
      if (failure || res.statusCode >= 500) {
        const err = failure ?? new Error(`failed with status code ${res.statusCode}`);
        log[level]({ req, res, err, responseTime }, 'request errored');
        return;
      }
      const message = !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted';
      log[level]({ req, res, responseTime }, message);
    };
    res.on('close', onDone);
    res.on('finish', onDone);
    res.on('error', onDone);
    next();
  };
}
