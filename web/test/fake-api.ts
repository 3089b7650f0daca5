import { vi } from 'vitest';

export interface RecordedCall {
  method: string;
  path: string;
  query: URLSearchParams;
  body: unknown;
}

type Handler = (call: RecordedCall) => unknown;

/** A JSON error answer as the cloud sends it. */
export function apiError(status: number, code: string, message = code) {
  return new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
}

export function htmlPage(html = '<html><body>pay</body></html>') {
  return new Response(html, { status: 200, headers: { 'Content-Type': 'text/html; charset=utf-8' } });
}

/**
 * Replaces fetch (the network boundary) with answers keyed "METHOD /path"; a handler may return
 * a Response, a plain value (sent as JSON) or throw (a network failure). Unknown calls fail the test.
 */
export function fakeApi(handlers: Record<string, Handler | unknown>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(String(input), 'http://localhost');
    const method = (init?.method ?? 'GET').toUpperCase();
    const call: RecordedCall = {
      method,
      path: url.pathname,
      query: url.searchParams,
      body: typeof init?.body === 'string' ? JSON.parse(init.body) : undefined,
    };
    calls.push(call);
    const key = `${method} ${url.pathname}`;
    if (!(key in handlers)) throw new Error(`Unexpected call ${key}`);
    const handler = handlers[key];
    const answer = typeof handler === 'function' ? await (handler as Handler)(call) : handler;
    if (answer instanceof Response) return answer;
    return new Response(JSON.stringify(answer), {
      status: 200,
      headers: { 'Content-Type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  return {
    calls,
    callsTo: (method: string, path: string) => calls.filter((c) => c.method === method && c.path === path),
    set(key: string, handler: Handler | unknown) {
      handlers[key] = handler;
    },
  };
}
