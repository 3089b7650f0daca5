// What can go wrong talking to a locker controller, split by what it means for the command:
// `outcome` FAILED = certainly not done; UNKNOWN = may have been done, so never repeat it blindly.
// `retryable` = the controller could not be reached at all, so trying again later is safe.
import type { ControllerOperation } from '@deposito/protocol/controller/index';

export type ControllerOutcome = 'FAILED' | 'UNKNOWN';

/** What one kind of failure means for the command. */
interface ControllerFailure {
  readonly code: string;
  readonly outcome: ControllerOutcome;
  readonly retryable: boolean;
}

/** Every kind of failure side by side: which may have acted, which are safe to try again. */
const FAILURES = {
  timeout: { code: 'controller/timeout', outcome: 'UNKNOWN', retryable: false },
  unreachable: { code: 'controller/unreachable', outcome: 'FAILED', retryable: true },
  connectionLost: { code: 'controller/connection_lost', outcome: 'UNKNOWN', retryable: false },
  serverError: { code: 'controller/server_error', outcome: 'FAILED', retryable: true },
  httpError: { code: 'controller/http_error', outcome: 'FAILED', retryable: false },
  malformedResponse: { code: 'controller/malformed_response', outcome: 'UNKNOWN', retryable: false },
  rejected: { code: 'controller/rejected', outcome: 'FAILED', retryable: false },
  notSent: { code: 'controller/not_sent', outcome: 'FAILED', retryable: false },
} as const satisfies Record<string, ControllerFailure>;

export abstract class ControllerError extends Error {
  /** The kind of failure each subclass is, one of FAILURES; copied onto every error it makes. */
  protected static readonly failure: ControllerFailure;
  readonly code: string;
  readonly outcome: ControllerOutcome;
  readonly retryable: boolean;

  constructor(
    readonly operation: ControllerOperation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
    ({ code: this.code, outcome: this.outcome, retryable: this.retryable } = new.target.failure);
  }
}

/** No answer within the timeout: the controller may still act on the request. */
export class ControllerTimeoutError extends ControllerError {
  protected static override readonly failure = FAILURES.timeout;

  constructor(
    operation: ControllerOperation,
    readonly timeoutMs: number,
  ) {
    super(operation, `controller did not answer ${operation} within ${timeoutMs} ms`);
  }
}

/** The connection could not be made (refused, no route, no such host): nothing was sent. */
export class ControllerUnreachableError extends ControllerError {
  protected static override readonly failure = FAILURES.unreachable;
}

/** The connection broke after the request was sent: the controller may have acted. */
export class ControllerConnectionLostError extends ControllerError {
  protected static override readonly failure = FAILURES.connectionLost;
}

/** An answer with an HTTP status other than 200: nothing was done. */
abstract class ControllerStatusError extends ControllerError {
  constructor(
    operation: ControllerOperation,
    readonly status: number,
  ) {
    super(operation, `controller answered ${operation} with HTTP ${status}`);
  }
}

/** HTTP 5xx: the controller is up but could not reach its kiosk (seen as HTTP 500); nothing was done. */
export class ControllerServerError extends ControllerStatusError {
  protected static override readonly failure = FAILURES.serverError;
}

/** Any other non-200 HTTP status: the request itself is wrong; repeating it will not help. */
export class ControllerHttpError extends ControllerStatusError {
  protected static override readonly failure = FAILURES.httpError;
}

/** The answer was not a valid controller answer; whether it acted is unknown. */
export class ControllerMalformedResponseError extends ControllerError {
  protected static override readonly failure = FAILURES.malformedResponse;
}

/** The controller answered with a non-zero `response`: it refused, and did nothing. */
export class ControllerRejectedError extends ControllerError {
  protected static override readonly failure = FAILURES.rejected;

  constructor(
    operation: ControllerOperation,
    readonly response: number,
    readonly description: string,
  ) {
    super(
      operation,
      `controller refused ${operation}: ${description || 'no description'} (response ${response})`,
    );
  }
}

/**
 * The request was never sent: its deadline passed, or its caller gave it up, while it waited for its
 * turn at the controller. Certainly not done, and it will not be.
 */
export class ControllerNotSentError extends ControllerError {
  protected static override readonly failure = FAILURES.notSent;

  constructor(
    operation: ControllerOperation,
    readonly reason: 'deadline' | 'cancelled',
  ) {
    super(
      operation,
      reason === 'deadline'
        ? `${operation} not sent: its deadline passed while it waited for the controller`
        : `${operation} not sent: cancelled while it waited for the controller`,
    );
  }
}
