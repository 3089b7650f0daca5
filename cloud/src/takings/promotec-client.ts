// Reads a location's kiosk takings from its Promotec system (wire format in ./promotec-wire), and
// the two uses the admin area makes of it: a month's proceeds that never fail the takings page, and
// a connection test.
import { request, type Dispatcher } from 'undici';
import {
  takingsMonthSchema,
  monthOf,
  type ConnectionTestResult,
  type LocationConnection,
  type TotemProceed,
} from '@deposito/protocol';
import {
  PromotecConnectionLostError,
  PromotecError,
  PromotecHttpStatusError,
  PromotecMalformedResponseError,
  PromotecResponseTooLargeError,
  PromotecTimeoutError,
  PromotecUnreachableError,
} from './promotec-errors';
import { sharedProceedsParser, type ProceedsParser } from './proceeds-parser';
import {
  PROMOTEC_MAX_RESPONSE_BYTES,
  PROMOTEC_TIMEOUT_MS,
  promotecProceedsUrl,
  type PromotecScheme,
} from './promotec-wire';

export interface PromotecAddress {
  recipient: string;
  port: number;
}

export interface PromotecClientOptions {
  /** Whole request, connection to last byte. */
  timeoutMs?: number;
  maxResponseBytes?: number;
  /** HTTP on a private link (the default) or HTTPS, checked against the system's CAs. */
  scheme?: PromotecScheme;
  /** Reads the XML; by default the process's parser, off the main thread for large answers. */
  parser?: ProceedsParser;
  dispatcher?: Dispatcher;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'UND_ERR_CONNECT_TIMEOUT',
]);

/** The `code`s along an error's cause chain (undici wraps socket errors). */
function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') codes.push(code);
  }
  return codes;
}

/** Drops an answer unread; the abort error its destruction emits is expected, not a failure. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

export class PromotecClient {
  readonly timeoutMs: number;
  readonly maxResponseBytes: number;
  readonly scheme: PromotecScheme;
  private readonly parser: ProceedsParser;

  constructor(private readonly options: PromotecClientOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? PROMOTEC_TIMEOUT_MS;
    this.maxResponseBytes = options.maxResponseBytes ?? PROMOTEC_MAX_RESPONSE_BYTES;
    this.scheme = options.scheme ?? 'http';
    this.parser = options.parser ?? sharedProceedsParser();
  }

  /** The kiosk payments of `month` (yyyy-MM). Throws a PromotecError on any failure. */
  async fetchProceeds(address: PromotecAddress, month: string): Promise<TotemProceed[]> {
    takingsMonthSchema.parse(month);
    const where = `${address.recipient}:${address.port}`;
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      abort.abort();
    }, this.timeoutMs);
    try {
      const url = promotecProceedsUrl(address.recipient, address.port, month, this.scheme);
      const response = await request(url, {
        method: 'GET',
        headers: { accept: 'application/xml, text/xml' },
        signal: abort.signal,
        ...(this.options.dispatcher ? { dispatcher: this.options.dispatcher } : {}),
      });
      if (response.statusCode !== 200) {
        discard(response.body);
        throw new PromotecHttpStatusError(where, response.statusCode);
      }
      const text = await this.readBody(where, response.body, response.headers['content-length']);
      const parsed = await this.parser.parse(text, month);
      if (!parsed.ok) throw new PromotecMalformedResponseError(where, parsed.message);
      return parsed.proceeds;
    } catch (error) {
      if (timedOut) throw new PromotecTimeoutError(where, this.timeoutMs);
      if (error instanceof PromotecError) throw error;
      const codes = errorCodes(error);
      const unreachable = codes.find((code) => UNREACHABLE_CODES.has(code));
      if (unreachable) throw new PromotecUnreachableError(where, unreachable, { cause: error });
      const reason = codes[0] ?? (error instanceof Error ? error.message : String(error));
      throw new PromotecConnectionLostError(where, reason, { cause: error });
    } finally {
      clearTimeout(timer);
    }
  }

  private async readBody(
    where: string,
    body: Dispatcher.ResponseData['body'],
    contentLength: string | string[] | undefined,
  ): Promise<string> {
    if (typeof contentLength === 'string' && Number(contentLength) > this.maxResponseBytes) {
      discard(body);
      throw new PromotecResponseTooLargeError(where, this.maxResponseBytes);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of body) {
      size += (chunk as Buffer).length;
      if (size > this.maxResponseBytes) {
        discard(body);
        throw new PromotecResponseTooLargeError(where, this.maxResponseBytes);
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks).toString('utf8');
  }
}

/** An error-log entry as the store's error log takes it (`ErrorLogRepository.add`). */
export interface PromotecErrorLogEntry {
  at: Date;
  type: 'promotec';
  locationKey: string;
  lockerId: null;
  message: string;
}

/** Where failures to read a kiosk are recorded; the store's error log repository fits. */
export interface PromotecErrorLog {
  add(entry: PromotecErrorLogEntry): Promise<void> | void;
}

export interface PromotecTakingsOptions {
  client?: PromotecClient;
  errorLog: PromotecErrorLog;
  now?: () => Date;
}

/** A month of kiosk payments of several locations, and the locations whose kiosk could not be read. */
export interface TotemMonth {
  proceeds: Record<string, TotemProceed[]>;
  failedLocations: string[];
  /** The failed locations with the client's reason (e.g. `… ha risposto HTTP 500`), in the same order. */
  failures: Array<{ key: string; reason: string }>;
}

/** The spec's error-log text for a kiosk that could not be read. */
export function promotecErrorMessage(error: PromotecError): string {
  return `Impossibile contattare il sistema Promotec: ${error.message}`;
}

/**
 * The totem side of the takings page and of `GET /api/admin/promotec/proceeds`. A kiosk that cannot
 * be read gives an empty month and an error-log entry, so one broken site never hides the others.
 */
export class PromotecTakings {
  private readonly client: PromotecClient;
  private readonly errorLog: PromotecErrorLog;
  private readonly now: () => Date;

  constructor(options: PromotecTakingsOptions) {
    this.client = options.client ?? new PromotecClient();
    this.errorLog = options.errorLog;
    this.now = options.now ?? (() => new Date());
  }

  /**
   * The location's kiosk payments of `month`; `[]` and an error-log entry when its system fails.
   * Only kiosk failures are absorbed: an invalid month or a failing error log still throws.
   */
  async fetchMonthProceeds(location: LocationConnection, month: string): Promise<TotemProceed[]> {
    return (await this.readMonth(location, month)) ?? [];
  }

  /** Every location's kiosk payments of `month`, keyed by location, as `computeMonthlyTakings` takes them. */
  async totemForMonth(
    locations: readonly LocationConnection[],
    month: string,
  ): Promise<Record<string, TotemProceed[]>> {
    return (await this.totemMonth(locations, month)).proceeds;
  }

  /**
   * Like `totemForMonth`, and says which locations' kiosks failed and why (their months are empty
   * and logged), so a caller can show those months as incomplete and avoid keeping them for long.
   */
  async totemMonth(locations: readonly LocationConnection[], month: string): Promise<TotemMonth> {
    const read = await Promise.all(locations.map((location) => this.readMonthOrError(location, month)));
    const failures = locations.flatMap((location, i) => {
      const result = read[i];
      return result instanceof PromotecError ? [{ key: location.key, reason: result.message }] : [];
    });
    return {
      proceeds: Object.fromEntries(
        locations.map((location, i) => {
          const result = read[i];
          return [location.key, result instanceof PromotecError ? [] : result];
        }),
      ),
      failedLocations: failures.map((failure) => failure.key),
      failures,
    };
  }

  /** The month's payments, or null (logged) when the kiosk system failed. */
  private async readMonth(location: LocationConnection, month: string): Promise<TotemProceed[] | null> {
    const result = await this.readMonthOrError(location, month);
    return result instanceof PromotecError ? null : result;
  }

  /** The month's payments, or the kiosk system's error (logged). */
  private async readMonthOrError(
    location: LocationConnection,
    month: string,
  ): Promise<TotemProceed[] | PromotecError> {
    try {
      return await this.client.fetchProceeds(location, month);
    } catch (error) {
      if (!(error instanceof PromotecError)) throw error;
      await this.errorLog.add({
        at: this.now(),
        type: 'promotec',
        locationKey: location.key,
        lockerId: null,
        message: promotecErrorMessage(error),
      });
      return error;
    }
  }

  /** Whether the location's kiosk system answers with a valid report for the current month. */
  async testConnection(location: LocationConnection): Promise<ConnectionTestResult> {
    try {
      await this.client.fetchProceeds(location, monthOf(this.now()));
      return { key: location.key, success: true };
    } catch (error) {
      if (!(error instanceof PromotecError)) throw error;
      return { key: location.key, success: false, error: error.message };
    }
  }

  /** Tests the locations one after another, as the takings page's panel does. */
  async testConnections(locations: readonly LocationConnection[]): Promise<ConnectionTestResult[]> {
    const results: ConnectionTestResult[] = [];
    for (const location of locations) results.push(await this.testConnection(location));
    return results;
  }
}
