import {
  ERROR_CODES,
  errorBody,
  TEXT_LIMITS,
  type ErrorCode,
  type ValidationIssue,
} from '@deposito/protocol';
import type { ErrorRequestHandler, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { sendJson } from './json-answer';

/**
 * An error the API answers with: a stable code from protocol (the web maps it to a translation key),
 * the code's HTTP status, and a message for people reading logs or calling the API directly.
 */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message?: string,
    readonly details?: unknown,
  ) {
    super(message ?? ERROR_CODES[code].message);
    this.name = 'AppError';
    this.status = ERROR_CODES[code].status;
  }
}

/** Where a request part comes from, for the matching validation code. */
export type RequestPart = 'body' | 'query' | 'params';

const VALIDATION_CODES = {
  body: 'validation/invalid_body',
  query: 'validation/invalid_query',
  params: 'validation/invalid_params',
} as const satisfies Record<RequestPart, ErrorCode>;

const MAX_REPORTED_ISSUES = 20;

export function validationIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.slice(0, MAX_REPORTED_ISSUES).map((issue) => ({
    path: issue.path.map(String).join('.').slice(0, 300),
    message: issue.message.slice(0, 1000),
  }));
}

/** Parses one part of a request with its protocol schema, or throws the matching 400. */
export function parseRequest<Schema extends z.ZodType>(
  schema: Schema,
  part: RequestPart,
  value: unknown,
): z.output<Schema> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const code = ownIssueCode(result.error) ?? VALIDATION_CODES[part];
    throw new AppError(code, undefined, validationIssues(result.error));
  }
  return result.data;
}

/** A schema's check may name its own code (`params: { code }`, e.g. a phone number refused). */
function ownIssueCode(error: z.ZodError): ErrorCode | null {
  for (const issue of error.issues) {
    const code: unknown = issue.code === 'custom' ? issue.params?.code : undefined;
    if (typeof code === 'string' && Object.hasOwn(ERROR_CODES, code)) return code as ErrorCode;
  }
  return null;
}

/** Unknown paths under /api answer in the same error shape. */
export const notFoundHandler: RequestHandler = (_req, _res, next) => next(new AppError('route/not_found'));

/** Body-parser failures carry a `type` and an HTTP status. */
function bodyParserError(error: unknown): AppError | null {
  if (typeof error !== 'object' || error === null || !('type' in error)) return null;
  switch ((error as { type: unknown }).type) {
    case 'entity.too.large':
      return new AppError('request/too_large');
    case 'entity.parse.failed':
      return new AppError('validation/invalid_body', 'The request body is not valid JSON');
    case 'encoding.unsupported':
    case 'charset.unsupported':
    case 'request.aborted':
    case 'request.size.invalid':
    case 'entity.verify.failed':
      return new AppError('validation/invalid_body');
    default:
      return null;
  }
}

/** The one place errors become `{ error: { code, message } }`; anything unexpected is a logged 500. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error, req, res, next) => {
    if (res.headersSent) {
      next(error);
      return;
    }
    const known = error instanceof AppError ? error : bodyParserError(error);
    if (known) {
      // A 429 says when to come back: the limiters put the wait in `details.retryAfterSeconds`.
      const retryAfter = (known.details as { retryAfterSeconds?: unknown } | undefined)?.retryAfterSeconds;
      if (known.status === 429 && typeof retryAfter === 'number')
        res.setHeader('Retry-After', String(retryAfter));
      // A message may quote the request (an unknown language, a key): never longer than the contract allows.
      const message = known.message.slice(0, TEXT_LIMITS.message);
      sendJson(res, known.status, errorBody(known.code, message, known.details));
      return;
    }
    (req.log ?? logger).error({ err: error }, 'unhandled error');
    sendJson(res, 500, errorBody('internal'));
  };
}
