// The bridge's own HTTP calls (the controller, the daemon's status for `status`, the cloud for
// `doctor`) on Node's built-in client: each on a fresh connection, bounded by an abort signal.
// undici was most of the installed bundle (0.7 MB of JavaScript and a WebAssembly parser) and most
// of the memory of a short command on a site box; these calls need none of what it adds.
import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

export interface HttpAnswer {
  statusCode: number;
  headers: IncomingHttpHeaders;
  /** Read it to the end (readText), or discard it. */
  body: IncomingMessage;
}

export interface HttpCallOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Aborting ends the call (and the answer's body) with an error. */
  signal?: AbortSignal;
  /** Told once the TCP connection is made: until then, the request has certainly not reached the server. */
  onConnect?: () => void;
}

/** One request on its own connection (no keep-alive: a reused socket the peer dropped is a lost request). */
export function httpCall(url: string, options: HttpCallOptions = {}): Promise<HttpAnswer> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
    const headers = { ...options.headers };
    if (options.body !== undefined) headers['content-length'] = String(Buffer.byteLength(options.body));
    const request = send(
      target,
      { method: options.method ?? 'GET', headers, agent: false, signal: options.signal },
      (response) =>
        resolve({ statusCode: response.statusCode ?? 0, headers: response.headers, body: response }),
    );
    // Every error, also one after the answer came (it then reaches the body's reader).
    request.on('error', reject);
    const { onConnect } = options;
    if (onConnect) {
      request.once('socket', (socket) => {
        if (socket.connecting) socket.once('connect', onConnect);
        else onConnect();
      });
    }
    request.end(options.body);
  });
}

/** The body as text; more than `maxBytes` destroys it and throws what `tooLarge` makes. */
export async function readText(
  body: IncomingMessage,
  maxBytes = Number.POSITIVE_INFINITY,
  tooLarge: () => Error = () => new Error(`answer larger than ${maxBytes} bytes`),
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) {
      body.destroy();
      throw tooLarge();
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Reads and drops the body, so the connection closes cleanly. */
export function discard(body: IncomingMessage): void {
  body.resume();
}
