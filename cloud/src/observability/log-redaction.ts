import type { IncomingMessage } from 'node:http';
import { pino } from 'pino';
import { TRANSACTION_ID_PREFIX } from '@deposito/protocol';

// What a request-log line must not carry: a booking id or a private-link token in a path, a payment
// token or booking id in a query string (the gateway's return and notification, the sandbox page,
// the completion page), or a session in a header. Whoever reads the logs could otherwise open the
// booking, see its PIN or pay as the visitor.

const REDACTED = '[redacted]';

/** Query parameters whose values say nothing about anyone; every other value is redacted. */
const PLAIN_QUERY_KEYS = new Set([
  'location',
  'locationkey',
  'startdate',
  'enddate',
  'date',
  'month',
  'year',
  'lng',
  'lang',
  'size',
  'dimensione',
  'limit',
  'page',
  'showstartoptions',
]);

/** Path segments after which the next one is a secret: `/api/my-booking/{token}`, `/my-booking/{token}`. */
const TOKEN_BEFORE = new Set(['my-booking']);

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function redactPath(pathname: string): string {
  const segments = pathname.split('/');
  return segments
    .map((segment, index) => {
      if (/^booking-/i.test(decoded(segment))) return `BOOKING-${REDACTED}`;
      const previous = index > 0 ? decoded(segments[index - 1]).toLowerCase() : '';
      if (TOKEN_BEFORE.has(previous) && segment !== '') return REDACTED;
      return segment;
    })
    .join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals === -1) return pair;
      const key = pair.slice(0, equals);
      return PLAIN_QUERY_KEYS.has(decoded(key).toLowerCase()) ? pair : `${key}=${REDACTED}`;
    })
    .join('&');
}

/** A request URL (path and query, or an absolute URL such as a Referer) fit for the logs. */
export function redactUrl(url: string): string {
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url)?.[0] ?? '';
  const rest = url.slice(absolute.length);
  const hash = rest.indexOf('#');
  const withoutHash = hash === -1 ? rest : rest.slice(0, hash);
  const question = withoutHash.indexOf('?');
  const pathname = question === -1 ? withoutHash : withoutHash.slice(0, question);
  const query = question === -1 ? null : withoutHash.slice(question + 1);
  return absolute + redactPath(pathname) + (query === null ? '' : `?${redactQuery(query)}`);
}

const SECRET_HEADERS = ['authorization', 'cookie', 'x-admin-token'];

/** pino's request serializer, with the URL, the Referer and credentials redacted. */
export function redactedRequestSerializer(req: IncomingMessage): Record<string, unknown> {
  const serialized = pino.stdSerializers.req(req) as unknown as Record<string, unknown> & {
    url?: string;
    headers?: Record<string, unknown>;
  };
  const headers: Record<string, unknown> = { ...serialized.headers };
  for (const name of SECRET_HEADERS) if (headers[name] !== undefined) headers[name] = REDACTED;
  if (typeof headers.referer === 'string') headers.referer = redactUrl(headers.referer);
  return {
    id: serialized.id,
    method: serialized.method,
    url: typeof serialized.url === 'string' ? redactUrl(serialized.url) : serialized.url,
    headers,
    remoteAddress: serialized.remoteAddress,
    remotePort: serialized.remotePort,
  };
}

// Application log lines name bookings too ("payment result", "booking paid", "booking e-mail
// sent"…). The id opens the booking and its PIN, so a line keeps only its first characters: enough
// to find the booking in the admin area, far too few to guess the rest (about 90 random bits stay
// hidden). PINs never appear in full.

/** Fields that carry a booking id, at the top of a line or one level down. */
/** Fields that carry a booking id, alone or inside another id (a bridge command's `book.<id>.14`). */
const BOOKING_ID_FIELDS = ['transactionId', 'transactionIds', 'stayId', 'commandId', 'commandIds'];
/** Fields that carry a secret: shown as `[redacted]` wherever they stand (top or one level down). */
const SECRET_FIELDS = ['pin', 'pins', 'token', 'password'];
const SHOWN_ID_CHARACTERS = TRANSACTION_ID_PREFIX.length + 6;

const BOOKING_ID = new RegExp(`${TRANSACTION_ID_PREFIX}[A-Za-z0-9_-]+`, 'g');

/** A booking id cut to what identifies it for a person reading the log. */
export function shortBookingId(id: string): string {
  return id.length > SHOWN_ID_CHARACTERS ? `${id.slice(0, SHOWN_ID_CHARACTERS)}…` : id;
}

/** A text with every booking id in it cut short (an id, or one that embeds it). */
function shortBookingIds(text: string): string {
  return text.replace(BOOKING_ID, shortBookingId);
}

function censor(value: unknown, path: string[]): unknown {
  const field = path[path.length - 1];
  if (!BOOKING_ID_FIELDS.includes(field)) return REDACTED;
  if (typeof value === 'string') return shortBookingIds(value);
  if (Array.isArray(value))
    return value.map((id) => (typeof id === 'string' ? shortBookingIds(id) : REDACTED));
  return value === null || value === undefined ? value : REDACTED;
}

/** pino's `redact` option for every process logger of the cloud. */
export const logRedaction = {
  paths: [
    'req.headers.authorization',
    'req.headers.cookie',
    ...[...BOOKING_ID_FIELDS, ...SECRET_FIELDS].flatMap((field) => [field, `*.${field}`]),
  ],
  censor,
};
