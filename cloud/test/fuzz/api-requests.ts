import { errorBodySchema, type ApiRoute } from '@deposito/protocol';
import fc from 'fast-check';
import { z } from 'zod';
import { arbitraryFromJsonSchema, type JsonSchema } from './json-schema-arbitrary';

// Requests for the API fuzzer: a plan (what fast-check generates and shrinks) is turned into an HTTP
// request only when it runs, so it can name ids that exist by then (seeded locations, bookings the
// fuzzer itself made). Valid plans come from the route's zod schemas through JSON Schema; hostile
// plans are valid ones with one thing broken: a field of the wrong type, huge or with control
// characters, an out-of-range number or date, `__proto__` keys, deep nesting, bytes that are not
// UTF-8, a gzip header on a body that is not gzip, a wrong content type, a broken query or path.

/** Ids that exist in the running cloud, refreshed as the fuzzer goes. */
export interface IdPools {
  locationKeys: string[];
  /** Locations the fuzzer created: the only ones it may delete (the seed's stay for the other routes). */
  createdLocationKeys: string[];
  transactionIds: string[];
  discountCodes: string[];
  userIds: number[];
  myBookingTokens: string[];
}

type PoolName = keyof IdPools;

/** Body and query fields that name something stored, and where real values for them come from. */
const FIELD_POOLS: Record<string, PoolName> = {
  location: 'locationKeys',
  locationKey: 'locationKeys',
  location_key: 'locationKeys',
  key: 'locationKeys',
  sourceKey: 'locationKeys',
  targetKey: 'locationKeys',
  transactionId: 'transactionIds',
  id_transazione: 'transactionIds',
  codiceSconto: 'discountCodes',
  codice_sconto: 'discountCodes',
  code: 'discountCodes',
};

function paramPool(route: ApiRoute, name: string): PoolName | null {
  if (name === 'location' || name === 'key') return 'locationKeys';
  if (name === 'id' && route.path.startsWith('/api/admin/locations/')) {
    return route.method === 'DELETE' ? 'createdLocationKeys' : 'locationKeys';
  }
  if (name === 'id' && route.path.startsWith('/api/admin/users/')) return 'userIds';
  if (name === 'transactionId') return 'transactionIds';
  if (name === 'code') return 'discountCodes';
  if (name === 'token') return 'myBookingTokens';
  return null;
}

/** Pairs of fields that bound a period: the end is moved after the start in most valid plans. */
const PERIOD_FIELDS: ReadonlyArray<readonly [string, string, 'hours' | 'days']> = [
  ['startTimeIso', 'endTimeIso', 'hours'],
  ['startTime', 'endTime', 'hours'],
  ['startDate', 'endDate', 'days'],
  ['validFrom', 'validTo', 'days'],
];

type Hostility =
  | { kind: 'field'; target: 'body' | 'query' | 'params'; pick: number; value: unknown; label: string }
  | { kind: 'protoKeys'; key: '__proto__' | 'constructor' | 'prototype' }
  | { kind: 'deep'; depth: number; shape: 'array' | 'object' }
  | { kind: 'raw'; body: Uint8Array; contentType?: string; contentEncoding?: string; label: string }
  | { kind: 'rawQuery'; text: string }
  | { kind: 'rawPath'; segment: string }
  | { kind: 'contentType'; contentType: string | null };

export interface RequestPlan {
  hostile: Hostility | null;
  params: Record<string, unknown>;
  query: Record<string, unknown> | undefined;
  body: unknown;
  /** Replace id-like fields with real ids (by these indices into the pools). */
  realIds: boolean;
  realPick: number;
  /** Hours (or days) from a period's start to its end, when the plan lines them up. */
  periodLength: number | null;
  auth: 'token' | 'none' | 'bogus';
}

/** Whole hours near the test clock: starts the booking pages could offer, not only random instants. */
function nearInstants(now: Date): fc.Arbitrary<string> {
  return fc
    .record({ day: fc.integer({ min: -1, max: 14 }), hour: fc.integer({ min: 0, max: 23 }) })
    .map(({ day, hour }) => {
      const start = new Date(now.getTime());
      start.setUTCHours(hour, 0, 0, 0);
      return new Date(start.getTime() + day * 86_400_000).toISOString();
    });
}

function nearDays(now: Date): fc.Arbitrary<string> {
  return fc
    .integer({ min: -3, max: 30 })
    .map((day) => new Date(now.getTime() + day * 86_400_000).toISOString().slice(0, 10));
}

/** Values for fields whose rules JSON Schema cannot say (refinements): what a visitor would type. */
const PROPERTY_VALUES: Record<string, fc.Arbitrary<unknown>> = {
  email: fc.oneof(fc.constant('fuzz@example.com'), fc.emailAddress()),
  confermaEmail: fc.constant('fuzz@example.com'),
  conferma_email: fc.constant('fuzz@example.com'),
  telefono: fc.constantFrom('+393331234567', '+447911123456'),
  telefono_prefisso: fc.constant('+39'),
  telefono_numero: fc.constant('3331234567'),
  nome: fc.constantFrom('Mario', "D'Angelo", 'Anne-Marie'),
  cognome: fc.constantFrom('Rossi', 'Smith'),
};

export function schemaArbitrary(schema: z.ZodType | undefined, now: Date): fc.Arbitrary<unknown> {
  if (!schema) return fc.constant(undefined);
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return arbitraryFromJsonSchema(json, {
    formats: { 'date-time': nearInstants(now), date: nearDays(now) },
    properties: PROPERTY_VALUES,
  });
}

const hugeString = fc
  .constantFrom(257, 2_000, 40_000)
  .chain((length) => fc.constantFrom('x', 'é', '€', '😀').map((unit) => unit.repeat(length)));

const controlString = fc.constantFrom(
  '\u0000',
  'abc\u0000def',
  '\u0001\u0002\u001f',
  'line\r\nbreak\ttab',
  '\u007f',
  '\u2028\u2029',
  '\ud800',
  'a\udc00b',
  '\u202e\u0000evil',
  '\ufeff',
);

const outOfRangeNumber = fc.constantFrom(
  -1,
  0,
  -0,
  1.5,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 2,
  1e308,
  -1e308,
  Number.MIN_VALUE,
  999_999_999_999,
);

const badDate = fc.constantFrom(
  '0000-01-01T00:00:00Z',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00Z',
  '2026-02-30T10:00:00Z',
  '2026-13-01T00:00:00Z',
  '2026-03-27T25:00:00Z',
  '9999-12-31T23:59:59.999Z',
  '1970-01-01T00:00:00Z',
  '2026-03-29T02:30:00+01:00',
  '2026-03-27T08:00:00.0000000000001Z',
  '2026-03-27',
  '0000-00-00',
  '99999-01-01',
  'Invalid Date',
);

const wrongType = fc.oneof(
  fc.constantFrom<unknown>(0, true, false, null, [], {}, '', 'x', [1, 2], { a: 1 }, '1e3', 'NaN', 'true'),
  fc.jsonValue({ maxDepth: 2 }),
);

const hostileValue = fc.oneof(
  wrongType.map((value) => ({ value, label: 'wrong type' })),
  hugeString.map((value) => ({ value, label: `huge string (${value.length})` })),
  controlString.map((value) => ({ value, label: 'control characters' })),
  outOfRangeNumber.map((value) => ({ value, label: 'out-of-range number' })),
  badDate.map((value) => ({ value, label: 'bad date' })),
);

const invalidUtf8 = fc
  .constantFrom(
    [0xff, 0xfe],
    [0xc3],
    [0xe2, 0x82],
    [0xed, 0xa0, 0x80],
    [0xf8, 0x88, 0x80, 0x80, 0x80],
    [0xc0, 0xaf],
  )
  .map((bytes) => Uint8Array.from(bytes));

function rawBody(text: string, bad?: Uint8Array): Uint8Array {
  const encoded = new TextEncoder().encode(text);
  if (!bad) return encoded;
  // The bad bytes inside the first string value (or at the end when there is none).
  const quote = encoded.indexOf(0x22, encoded.indexOf(0x3a));
  const at = quote > 0 ? quote + 1 : encoded.length;
  return Uint8Array.from([...encoded.subarray(0, at), ...bad, ...encoded.subarray(at)]);
}

function hostility(route: ApiRoute): fc.Arbitrary<Hostility> {
  const hasBody = route.method !== 'GET' && route.method !== 'DELETE';
  const options: Array<fc.Arbitrary<Hostility>> = [];
  const targets: Array<'body' | 'query' | 'params'> = [];
  if (route.request.body || hasBody) targets.push('body');
  if (route.request.query || !hasBody) targets.push('query');
  if (route.request.params) targets.push('params');
  options.push(
    fc
      .record({ target: fc.constantFrom(...targets), pick: fc.nat(), hostile: hostileValue })
      .map(({ target, pick, hostile }) => ({ kind: 'field' as const, target, pick, ...hostile })),
  );
  options.push(
    fc
      .constantFrom(
        '?a=1&a=2&a[b]=c',
        '?%E0%A4%A',
        '?location=%00',
        '?location[]=oca&location[]=x',
        '?=&&=',
        '?__proto__[x]=1&constructor[prototype][y]=2',
        `?location=${'a'.repeat(9000)}`,
      )
      .map((text) => ({ kind: 'rawQuery' as const, text })),
  );
  if (route.request.params) {
    options.push(
      fc
        .constantFrom(
          '%00',
          '..%2F..%2Fetc%2Fpasswd',
          '%E0%A4%A',
          '%',
          'a'.repeat(5000),
          '%F0%9F%98%80',
          '__proto__',
          'constructor',
          '%20',
          '-1',
          '1e400',
          '0x10',
        )
        .map((segment) => ({ kind: 'rawPath' as const, segment })),
    );
  }
  if (hasBody) {
    options.push(
      fc
        .constantFrom('__proto__', 'constructor', 'prototype')
        .map((key) => ({ kind: 'protoKeys' as const, key })),
      fc
        .record({
          depth: fc.constantFrom(50, 500, 5_000),
          shape: fc.constantFrom('array' as const, 'object' as const),
        })
        .map((deep) => ({ kind: 'deep' as const, ...deep })),
      invalidUtf8.map((bad) => ({ kind: 'raw' as const, body: bad, label: 'invalid UTF-8' })),
      fc
        .constantFrom('gzip', 'deflate', 'br', 'x-unknown', 'gzip, gzip', 'identity, gzip')
        .map((encoding) => ({
          kind: 'raw' as const,
          body: new Uint8Array(),
          contentEncoding: encoding,
          label: `fake ${encoding}`,
        })),
      fc
        .constantFrom(
          '{"a":',
          '[',
          'NaN',
          '{"a":1}}',
          '\u0000',
          '',
          'null',
          '"string"',
          '{"a":1,"a":2}',
          '[]',
        )
        .map((text) => ({
          kind: 'raw' as const,
          body: new TextEncoder().encode(text),
          label: `bad JSON ${JSON.stringify(text)}`,
        })),
      fc
        .constantFrom<string | null>(
          null,
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data; boundary=x',
          'application/json; charset=utf-16',
          'application/json; charset=latin1',
          'application/json; charset=nonsense',
          'application/xml',
          'application/json, text/html',
        )
        .map((contentType) => ({ kind: 'contentType' as const, contentType })),
    );
  }
  return fc.oneof(...options);
}

/** Plans for one route: `valid` ones from the schemas, `hostile` ones with one thing broken. */
export function requestPlans(
  route: ApiRoute,
  now: Date,
  kind: 'valid' | 'hostile',
): fc.Arbitrary<RequestPlan> {
  const base = fc.record({
    params: schemaArbitrary(route.request.params, now) as fc.Arbitrary<Record<string, unknown>>,
    query: schemaArbitrary(route.request.query, now) as fc.Arbitrary<Record<string, unknown> | undefined>,
    body: schemaArbitrary(route.request.body, now),
    realIds: fc.boolean(),
    realPick: fc.nat(),
    periodLength: fc.option(fc.integer({ min: 1, max: 72 }), { freq: 4 }),
  });
  if (kind === 'valid') {
    return base.map((plan) => ({
      ...plan,
      params: plan.params ?? {},
      hostile: null,
      auth: 'token' as const,
    }));
  }
  return fc
    .record({
      base,
      hostile: hostility(route),
      auth: fc.constantFrom<RequestPlan['auth']>('token', 'token', 'token', 'token', 'none', 'bogus'),
    })
    .map(({ base: plan, hostile, auth }) => ({ ...plan, params: plan.params ?? {}, hostile, auth }));
}

function pickFrom<T>(pool: readonly T[], index: number): T | undefined {
  return pool.length === 0 ? undefined : pool[index % pool.length];
}

function withRealIds(value: unknown, pools: IdPools, pick: number): unknown {
  if (Array.isArray(value)) return value.map((item) => withRealIds(item, pools, pick));
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value)) {
    const pool = Object.hasOwn(FIELD_POOLS, key) ? FIELD_POOLS[key] : undefined;
    const real = pool && typeof inner === 'string' ? pickFrom<string | number>(pools[pool], pick) : undefined;
    result[key] = real ?? withRealIds(inner, pools, pick);
  }
  return result;
}

function withPeriods(value: unknown, length: number): unknown {
  if (Array.isArray(value)) return value.map((item) => withPeriods(item, length));
  if (typeof value !== 'object' || value === null) return value;
  const result: Record<string, unknown> = Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [key, withPeriods(inner, length)]),
  );
  for (const [startKey, endKey, unit] of PERIOD_FIELDS) {
    const start = result[startKey];
    if (typeof start !== 'string' || !(endKey in result) || Number.isNaN(Date.parse(start))) continue;
    const end = new Date(Date.parse(start) + length * (unit === 'hours' ? 3_600_000 : 86_400_000));
    result[endKey] = start.length === 10 ? end.toISOString().slice(0, 10) : end.toISOString();
  }
  return result;
}

/** A path into a value (object keys, array indices) chosen by `pick`, for a hostile replacement. */
function replaceSomewhere(value: unknown, pick: number, replacement: unknown): unknown {
  if (Array.isArray(value) && value.length > 0) {
    const index = pick % value.length;
    const copy = [...value];
    copy[index] =
      pick % 3 === 0 ? replacement : replaceSomewhere(value[index], Math.floor(pick / 3), replacement);
    return copy;
  }
  if (typeof value === 'object' && value !== null && Object.keys(value).length > 0) {
    const keys = Object.keys(value);
    const key = keys[pick % keys.length]!;
    const inner = (value as Record<string, unknown>)[key];
    const deeper = typeof inner === 'object' && inner !== null && pick % 2 === 1;
    return {
      ...value,
      [key]: deeper ? replaceSomewhere(inner, Math.floor(pick / keys.length), replacement) : replacement,
    };
  }
  return replacement;
}

function nested(depth: number, shape: 'array' | 'object'): string {
  return shape === 'array'
    ? '['.repeat(depth) + ']'.repeat(depth)
    : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
}

/** A URL cannot carry a lone surrogate (encodeURIComponent throws): U+FFFD instead, as browsers do. */
function wellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

export interface HttpRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
  /** What was broken, for failure messages. */
  label: string;
}

function queryString(query: Record<string, unknown> | undefined): string {
  if (!query || typeof query !== 'object') return '';
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    const values = Array.isArray(value) ? value : [value];
    for (const item of values)
      search.append(key, typeof item === 'object' ? JSON.stringify(item) : String(item));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

/** The HTTP request a plan stands for, with the ids that exist now. */
export function materialize(route: ApiRoute, plan: RequestPlan, pools: IdPools, token: string): HttpRequest {
  let params: Record<string, unknown> = { ...plan.params };
  let query = plan.query;
  let body = plan.body;
  if (plan.realIds) {
    for (const name of Object.keys(params)) {
      const pool = paramPool(route, name);
      const real = pool ? pickFrom<string | number>(pools[pool], plan.realPick) : undefined;
      if (real !== undefined) params[name] = real;
    }
    query = withRealIds(query, pools, plan.realPick) as typeof query;
    body = withRealIds(body, pools, plan.realPick);
  }
  if (plan.periodLength !== null) {
    query = withPeriods(query, plan.periodLength) as typeof query;
    body = withPeriods(body, plan.periodLength);
  }

  const headers: Record<string, string> = {};
  if (plan.auth === 'token' && route.auth === 'admin') headers.authorization = `Bearer ${token}`;
  if (plan.auth === 'bogus') headers.authorization = 'Bearer not-a-real-token\u00ff';
  const hostile = plan.hostile;
  let label = hostile ? hostile.kind : 'valid';
  if (hostile?.kind === 'field') {
    label = `${hostile.label} in ${hostile.target}`;
    if (hostile.target === 'params')
      params = replaceSomewhere(params, hostile.pick, hostile.value) as typeof params;
    if (hostile.target === 'query')
      query = replaceSomewhere(query ?? {}, hostile.pick, hostile.value) as typeof query;
    if (hostile.target === 'body') body = replaceSomewhere(body, hostile.pick, hostile.value);
  }

  let path = route.path.replace(/:(\w+)/g, (_match, name: string) => {
    if (hostile?.kind === 'rawPath') return hostile.segment;
    const value = params[name];
    return encodeURIComponent(wellFormed(typeof value === 'object' ? JSON.stringify(value) : String(value)));
  });
  path += hostile?.kind === 'rawQuery' ? hostile.text : queryString(query);
  if (hostile?.kind === 'rawQuery' || hostile?.kind === 'rawPath')
    label = `${hostile.kind} ${path.slice(0, 80)}`;

  const request: HttpRequest = { method: route.method, path, headers, label };
  if (route.method === 'GET') return request;

  let text = body === undefined ? undefined : JSON.stringify(body);
  if (hostile?.kind === 'protoKeys') {
    // JSON text, so the key is an own property on the wire (an object literal would set the prototype).
    const payload =
      hostile.key === '__proto__' ? '{"isAdmin":true,"status":"confirmed"}' : '{"prototype":{"polluted":1}}';
    const inner = text && text.startsWith('{') && text !== '{}' ? `,${text.slice(1)}` : '}';
    text = `{"${hostile.key}":${payload}${inner}`;
  }
  if (hostile?.kind === 'deep') text = nested(hostile.depth, hostile.shape);
  if (text !== undefined) {
    headers['content-type'] = 'application/json';
    request.body = text;
  }
  if (hostile?.kind === 'raw') {
    headers['content-type'] = hostile.contentType ?? 'application/json';
    if (hostile.contentEncoding) headers['content-encoding'] = hostile.contentEncoding;
    request.body =
      hostile.label === 'invalid UTF-8'
        ? rawBody(text ?? '{"a":"b"}', hostile.body)
        : hostile.contentEncoding
          ? new TextEncoder().encode(text ?? '{}')
          : hostile.body;
    request.label = hostile.label;
  }
  if (hostile?.kind === 'contentType') {
    if (hostile.contentType === null) delete headers['content-type'];
    else headers['content-type'] = hostile.contentType;
    request.body ??= '{}';
    request.label = `content-type ${hostile.contentType}`;
  }
  return request;
}

export interface HttpAnswer {
  status: number;
  contentType: string;
  text: string;
  json: unknown;
}

export async function send(baseUrl: string, request: HttpRequest): Promise<HttpAnswer> {
  const response = await fetch(`${baseUrl}${request.path}`, {
    method: request.method,
    headers: request.headers,
    body: request.body,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: response.status, contentType: response.headers.get('content-type') ?? '', text, json };
}

/**
 * What every answer must be: 2xx or 4xx, never 5xx; a success as the route's contract says (JSON
 * parsing with its response schema, or an HTML page); an error in the one error shape. Answers the
 * problem, or null.
 */
export function answerProblem(route: ApiRoute, answer: HttpAnswer): string | null {
  const { status } = answer;
  if (status >= 500) return `server error ${status}`;
  if (status >= 200 && status < 300) {
    const expected = [route.successStatus ?? 200, ...(route.alsoStatuses ?? [])];
    if (!expected.includes(status as 200))
      return `success status ${status}, expected one of ${expected.join(', ')}`;
    if (status === 204) return null;
    if (route.responseType === 'html') {
      return answer.contentType.startsWith('text/html') ? null : `HTML route answered ${answer.contentType}`;
    }
    if (!answer.contentType.includes('application/json')) return `JSON route answered ${answer.contentType}`;
    const parsed = route.response.safeParse(answer.json);
    return parsed.success
      ? null
      : `answer does not match the response schema: ${parsed.error.message.slice(0, 600)}`;
  }
  if (status >= 400 && status < 500) {
    // Node's HTTP parser refuses a request line over 16 KiB before the app sees it: a bare 431.
    if (status === 431) return null;
    if (!answer.contentType.includes('application/json')) return `error answered ${answer.contentType}`;
    const parsed = errorBodySchema.safeParse(answer.json);
    return parsed.success ? null : `error body not in the error shape: ${parsed.error.message.slice(0, 300)}`;
  }
  return `status ${status} is neither 2xx nor 4xx`;
}
