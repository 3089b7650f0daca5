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

async function send(path: string, options: RequestOptions, accept: string): Promise<Response> {
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const headers: Record<string, string> = { Accept: accept };
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
    if (timeout.aborted) throw new ApiError(CLIENT_ERROR_CODES.timeout, 'The server did not answer in time');
    if (options.signal?.aborted) throw error;
    throw new ApiError(CLIENT_ERROR_CODES.network, error instanceof Error ? error.message : 'Network error');
  }
  if (!response.ok) throw await toApiError(response);
  return response;
}

async function toApiError(response: Response): Promise<ApiError> {
  const text = await response.text().catch(() => '');
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && 'error' in parsed) {
      const error = (parsed as { error: unknown }).error;
      if (error && typeof error === 'object') {
        const { code, message } = error as { code?: unknown; message?: unknown };
        return new ApiError(
          typeof code === 'string' ? code : `${CLIENT_ERROR_CODES.http}_${response.status}`,
          typeof message === 'string' ? message : response.statusText,
          response.status,
        );
      }
      // The old API answered `{ error: "message" }`.
      if (typeof error === 'string') {
        return new ApiError(`${CLIENT_ERROR_CODES.http}_${response.status}`, error, response.status);
      }
    }
  } catch {
    // Not JSON: fall through to a status-only error.
  }
  return new ApiError(
    `${CLIENT_ERROR_CODES.http}_${response.status}`,
    response.statusText || `HTTP ${response.status}`,
    response.status,
  );
}

/** JSON request; the answer is parsed with the endpoint's schema so the UI only sees checked data. */
export async function requestJson<T>(
  path: string,
  schema: AnswerSchema<T>,
  options: RequestOptions = {},
): Promise<T> {
  const response = await send(path, options, 'application/json');
  let data: unknown;
  try {
    data = response.status === 204 ? {} : await response.json();
  } catch {
    throw new ApiError(CLIENT_ERROR_CODES.invalidResponse, 'The answer is not JSON', response.status);
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new ApiError(CLIENT_ERROR_CODES.invalidResponse, result.error.message, response.status);
  }
  return result.data;
}

/**
 * Requests whose answer is usually an HTML page (the payment provider's redirect page) but may be
 * JSON (a booking confirmed without payment); the answer is checked with the endpoint's schema.
 */
export async function requestPage<T>(
  path: string,
  schema: AnswerSchema<T>,
  options: RequestOptions = {},
): Promise<T> {
  const response = await send(path, options, 'text/html, application/json');
  const text = await response.text();
  let data: unknown = text;
  if ((response.headers.get('Content-Type') ?? '').includes('application/json')) {
    try {
      data = JSON.parse(text);
    } catch {
      throw new ApiError(CLIENT_ERROR_CODES.invalidResponse, 'The answer is not JSON', response.status);
    }
  }
  const result = schema.safeParse(data);
  if (!result.success) {
    throw new ApiError(CLIENT_ERROR_CODES.invalidResponse, result.error.message, response.status);
  }
  return result.data;
}
