/** Codes the browser itself produces when the server's answer never arrives or makes no sense. */
export const CLIENT_ERROR_CODES = {
  network: 'client/network',
  timeout: 'client/timeout',
  invalidResponse: 'client/invalid_response',
  http: 'client/http',
} as const;

/**
 * An API failure with the server's stable code (`{ error: { code, message, details? } }`) or a
 * client code. `details` is the server's, unchecked: read it with the code's schema.
 */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly code: string,
    message: string,
    readonly status = 0,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/**
 * What checks an answer: protocol's zod schemas, or the zod/mini ones the location page loads with
 * (both parse with `safeParse`).
 */
export interface AnswerSchema<T> {
  safeParse(data: unknown): { success: true; data: T } | { success: false; error: { message: string } };
}

export const DEFAULT_TIMEOUT_MS = 20_000;

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  body?: unknown;
  query?: Record<string, string | number | undefined>;
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Whom the endpoint serves (protocol's `auth`): the admin client expires its session on a 401 there. */
  auth?: string;
}

/**
 * What differs between the pages that call the server (the visitors' pages and the admin area): the
 * default timeout, extra headers, what the client's own failures say, how an error code becomes the
 * text shown, and a look at each refused answer before it is read (the admin area's 401).
 */
export interface HttpClientConfig {
  timeoutMs: number;
  headers?: Record<string, string>;
  texts: {
    timeout: string;
    network: (error: unknown) => string;
    notJson: string;
    badAnswer: (schemaMessage: string) => string;
    /** An error answer without a message of its own. */
    status: (response: Response) => string;
  };
  /** The text for a server error code; the server's own message when absent. */
  errorMessage?: (code: string, serverMessage: string, details: unknown) => string;
  /** An error answer's own handling: what it returns is thrown instead of reading the answer. */
  onRefused?: (response: Response, options: RequestOptions) => ApiError | undefined;
}

export interface HttpClient {
  /** JSON request; the answer is parsed with the endpoint's schema so the UI only sees checked data. */
  requestJson<T>(path: string, schema: AnswerSchema<T>, options?: RequestOptions): Promise<T>;
  /**
   * Requests whose answer is usually an HTML page (the payment provider's redirect page) but may be
   * JSON (a booking confirmed without payment); the answer is checked with the endpoint's schema.
   */
  requestPage<T>(path: string, schema: AnswerSchema<T>, options?: RequestOptions): Promise<T>;
}

function buildUrl(path: string, query?: RequestOptions['query']): string {
  if (!query) return path;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined) params.set(key, String(value));
  }
  const text = params.toString();
  return text ? `${path}?${text}` : path;
}

async function toApiError(response: Response, config: HttpClientConfig): Promise<ApiError> {
  const fallbackCode = `${CLIENT_ERROR_CODES.http}_${response.status}`;
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error;
      if (error && typeof error === 'object') {
        const { code, message, details } = error as { code?: unknown; message?: unknown; details?: unknown };
        const known = typeof code === 'string' ? code : fallbackCode;
        const serverMessage = typeof message === 'string' ? message : config.texts.status(response);
        const shown = config.errorMessage?.(known, serverMessage, details) ?? serverMessage;
        return new ApiError(known, shown, response.status, details);
      }
      // The old API answered `{ error: "message" }`.
      if (typeof error === 'string') return new ApiError(fallbackCode, error, response.status);
    }
  } catch {
    // Not JSON: fall through to a status-only error.
  }
  return new ApiError(fallbackCode, config.texts.status(response), response.status);
}

/** A fetch client: timeouts, the session cookie, error answers as ApiError, answers checked by schema. */
export function createHttpClient(config: HttpClientConfig): HttpClient {
  async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
    const timeout = AbortSignal.timeout(options.timeoutMs ?? config.timeoutMs);
    const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
    const headers: Record<string, string> = { Accept: accept, ...config.headers };
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await fetch(buildUrl(path, options.query), {
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        headers,
        body,
        signal,
        credentials: 'same-origin',
      });
    } catch (error) {
      if (timeout.aborted) throw new ApiError(CLIENT_ERROR_CODES.timeout, config.texts.timeout);
      if (options.signal?.aborted) throw error;
      throw new ApiError(CLIENT_ERROR_CODES.network, config.texts.network(error));
    }
    if (!response.ok) throw config.onRefused?.(response, options) ?? (await toApiError(response, config));
    return response;
  }

  function checked<T>(schema: AnswerSchema<T>, data: unknown, status: number): T {
    const result = schema.safeParse(data);
    if (!result.success) {
      throw new ApiError(
        CLIENT_ERROR_CODES.invalidResponse,
        config.texts.badAnswer(result.error.message),
        status,
      );
    }
    return result.data;
  }

  return {
    async requestJson(path, schema, options = {}) {
      const response = await send(path, options, 'application/json');
      let data: unknown;
      try {
        data = response.status === 204 ? {} : await response.json();
      } catch {
        throw new ApiError(CLIENT_ERROR_CODES.invalidResponse, config.texts.notJson, response.status);
      }
      return checked(schema, data, response.status);
    },
    async requestPage(path, schema, options = {}) {
      const response = await send(path, options, 'text/html, application/json');
      const text = await response.text();
      let data: unknown = text;
      if ((response.headers.get('Content-Type') ?? '').includes('application/json')) {
        try {
          data = JSON.parse(text);
        } catch {
          throw new ApiError(CLIENT_ERROR_CODES.invalidResponse, config.texts.notJson, response.status);
        }
      }
      return checked(schema, data, response.status);
    },
  };
}

/** The visitors' pages: English texts here, each code translated by the page (error-messages.ts). */
const customerClient = createHttpClient({
  timeoutMs: DEFAULT_TIMEOUT_MS,
  texts: {
    timeout: 'The server did not answer in time',
    network: (error) => (error instanceof Error ? error.message : 'Network error'),
    notJson: 'The answer is not JSON',
    badAnswer: (schemaMessage) => schemaMessage,
    status: (response) => response.statusText || `HTTP ${response.status}`,
  },
});

export const { requestJson, requestPage } = customerClient;
