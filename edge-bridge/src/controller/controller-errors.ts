// What can go wrong talking to a locker controller, split by what it means for the command:
// `outcome` FAILED = certainly not done; UNKNOWN = may have been done, so never repeat it blindly.
// `retryable` = the controller could not be reached at all, so trying again later is safe.
import type { ControllerOperation } from '@deposito/protocol/controller/index';

export type ControllerOutcome = 'FAILED' | 'UNKNOWN';

export abstract class ControllerError extends Error {
  abstract readonly code: string;
  abstract readonly outcome: ControllerOutcome;
  abstract readonly retryable: boolean;

  constructor(
    readonly operation: ControllerOperation,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** No answer within the timeout: the controller may still act on the request. */
export class ControllerTimeoutError extends ControllerError {
  readonly code = 'controller/timeout';
  readonly outcome = 'UNKNOWN';
  readonly retryable = false;

  constructor(
    operation: ControllerOperation,
    readonly timeoutMs: number,
  ) {
    super(operation, `controller did not answer ${operation} within ${timeoutMs} ms`);
  }
}

/** The connection could not be made (refused, no route, no such host): nothing was sent. */
export class ControllerUnreachableError extends ControllerError {
  readonly code = 'controller/unreachable';
  readonly outcome = 'FAILED';
  readonly retryable = true;
}

/** The connection broke after the request was sent: the controller may have acted. */
export class ControllerConnectionLostError extends ControllerError {
  readonly code = 'controller/connection_lost';
  readonly outcome = 'UNKNOWN';
  readonly retryable = false;
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
  readonly code = 'controller/server_error';
  readonly outcome = 'FAILED';
  readonly retryable = true;
}

/** Any other non-200 HTTP status: the request itself is wrong; repeating it will not help. */
export class ControllerHttpError extends ControllerStatusError {
  readonly code = 'controller/http_error';
  readonly outcome = 'FAILED';
  readonly retryable = false;
}

/** The answer was not a valid controller answer; whether it acted is unknown. */
export class ControllerMalformedResponseError extends ControllerError {
  readonly code = 'controller/malformed_response';
  readonly outcome = 'UNKNOWN';
  readonly retryable = false;
}

/** The controller answered with a non-zero `response`: it refused, and did nothing. */
export class ControllerRejectedError extends ControllerError {
  readonly code = 'controller/rejected';
  readonly outcome = 'FAILED';
  readonly retryable = false;

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
  readonly code = 'controller/not_sent';
  readonly outcome = 'FAILED';
  readonly retryable = false;

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
