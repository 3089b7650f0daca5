// What can go wrong reading a kiosk's takings. Every failure is a PromotecError with a stable code;
// the message is Italian because operators read it in the error log and in the connection test.

export type PromotecErrorCode =
  | 'promotec/unreachable'
  | 'promotec/timeout'
  | 'promotec/connection_lost'
  | 'promotec/http_status'
  | 'promotec/response_too_large'
  | 'promotec/malformed_response';

export class PromotecError extends Error {
  constructor(
    readonly code: PromotecErrorCode,
    /** `recipient:port` of the kiosk system. */
    readonly address: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'PromotecError';
  }
}

/** The connection could not be made (refused, no route, unknown host). */
export class PromotecUnreachableError extends PromotecError {
  constructor(address: string, reason: string, options?: { cause?: unknown }) {
    super('promotec/unreachable', address, `${address} non raggiungibile (${reason})`, options);
  }
}

export class PromotecTimeoutError extends PromotecError {
  constructor(
    address: string,
    readonly timeoutMs: number,
  ) {
    super('promotec/timeout', address, `nessuna risposta da ${address} entro ${timeoutMs} ms`);
  }
}

/** The connection broke while the answer was being read. */
export class PromotecConnectionLostError extends PromotecError {
  constructor(address: string, reason: string, options?: { cause?: unknown }) {
    super('promotec/connection_lost', address, `connessione con ${address} interrotta (${reason})`, options);
  }
}

export class PromotecHttpStatusError extends PromotecError {
  constructor(
    address: string,
    readonly status: number,
  ) {
    super('promotec/http_status', address, `${address} ha risposto HTTP ${status}`);
  }
}

export class PromotecResponseTooLargeError extends PromotecError {
  constructor(
    address: string,
    readonly maxBytes: number,
  ) {
    super('promotec/response_too_large', address, `risposta di ${address} oltre ${maxBytes} byte`);
  }
}

export class PromotecMalformedResponseError extends PromotecError {
  constructor(address: string, reason: string) {
    super('promotec/malformed_response', address, `risposta non valida da ${address}: ${reason}`);
  }
}
