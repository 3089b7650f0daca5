import { API_AREAS, apiRoutes, ERROR_CODES } from '@deposito/protocol';
import { describe, expect, it } from 'vitest';
import { startTestApp, useTestApp } from '../../test/test-app';
import { escapeHtml } from '../payments/html';
import { renderApiDocsPage } from './api-docs-page';
import {
  ADMIN_SECURITY_SCHEME,
  buildOpenApiDocument,
  openApiPath,
  type OpenApiDocument,
  type OpenApiOperation,
} from './openapi-document';

const operationOf = (document: OpenApiDocument, method: string, path: string): OpenApiOperation | undefined =>
  document.paths[openApiPath(path)]?.[method.toLowerCase() as 'get'];

/** Every `$ref` in the document, wherever it sits. */
function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, inner]) =>
    key === '$ref' && typeof inner === 'string' ? [inner] : refsIn(inner),
  );
}

function resolves(document: OpenApiDocument, ref: string): boolean {
  if (!ref.startsWith('#/')) return false;
  let node: unknown = document;
  for (const segment of ref.slice(2).split('/')) {
    if (typeof node !== 'object' || node === null || !(segment in node)) return false;
    node = (node as Record<string, unknown>)[segment];
  }
  return node !== undefined;
}

describe('the OpenAPI document', () => {
  const document = buildOpenApiDocument({ serverUrl: 'https://deposito.example' });

  it('is OpenAPI 3.1 with info, servers and the admin bearer scheme', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('Deposito API');
    expect(document.servers).toEqual([{ url: 'https://deposito.example' }]);
    expect(document.components.securitySchemes[ADMIN_SECURITY_SCHEME]).toMatchObject({
      type: 'http',
      scheme: 'bearer',
    });
  });

  it('has one operation per catalogue route, at its path in {param} form', () => {
    const operations = Object.values(document.paths).flatMap((item) => Object.keys(item));
    expect(operations).toHaveLength(apiRoutes.length);
    for (const route of apiRoutes) {
      const path = openApiPath(route.path);
      expect(path).not.toContain(':');
      const operation = operationOf(document, route.method, route.path);
      expect(operation, `${route.method} ${route.path}`).toBeDefined();
      expect(operation?.summary).toBe(route.summary);
      expect(operation?.tags).toEqual([route.area]);
    }
    expect(document.paths['/api/bookings/{transactionId}']).toHaveProperty('get');
    expect(document.paths['/api/bookings/{transactionId}']).toHaveProperty('patch');
  });

  it('names each operation after its catalogue entry, uniquely', () => {
    const ids = Object.values(document.paths).flatMap((item) =>
      Object.values(item).map((operation) => operation.operationId),
    );
    expect(new Set(ids).size).toBe(ids.length);
    expect(operationOf(document, 'POST', '/api/bookings/save')?.operationId).toBe('bookings.save');
  });

  it('asks for the admin token exactly on admin routes', () => {
    for (const route of apiRoutes) {
      const operation = operationOf(document, route.method, route.path);
      if (route.auth === 'admin') expect(operation?.security).toEqual([{ [ADMIN_SECURITY_SCHEME]: [] }]);
      else expect(operation?.security).toBeUndefined();
    }
  });

  it('describes path and query parameters from the request schemas', () => {
    const read = operationOf(document, 'GET', '/api/bookings/:transactionId');
    expect(read?.parameters).toEqual([
      expect.objectContaining({ name: 'transactionId', in: 'path', required: true }),
    ]);
    // A query field with a default is optional for the caller (the input side of the schema).
    const immediate = operationOf(document, 'POST', '/api/bookings/immediate');
    expect(immediate?.parameters).toEqual([
      expect.objectContaining({ name: 'location', in: 'query', required: false }),
    ]);
    expect(immediate?.parameters?.[0].schema).toMatchObject({ type: 'string', default: 'vicolo' });
  });

  it('carries request bodies and success answers as JSON schemas', () => {
    for (const route of apiRoutes) {
      const operation = operationOf(document, route.method, route.path);
      if (route.request.body) {
        expect(operation?.requestBody?.content['application/json'].schema).toBeTypeOf('object');
      } else {
        expect(operation?.requestBody).toBeUndefined();
      }
      const status = String(route.successStatus ?? 200);
      expect(operation?.responses[status], `${route.method} ${route.path}`).toBeDefined();
      for (const other of route.alsoStatuses ?? []) {
        expect(operation?.responses[String(other)], `${route.method} ${route.path} ${other}`).toBeDefined();
      }
    }
    // A locker action the bridge will run later answers 202 with the same body.
    expect(operationOf(document, 'POST', '/api/lockers/open')?.responses['202']).toBeDefined();
    const login = operationOf(document, 'POST', '/api/admin/login');
    expect(login?.requestBody?.content['application/json'].schema).toMatchObject({
      type: 'object',
      properties: { email: expect.any(Object), password: expect.any(Object) },
    });
  });

  it('splits the payment page from its JSON answer', () => {
    const pay = operationOf(document, 'POST', '/api/payments/create-payment');
    const success = pay?.responses['200'];
    expect(success && 'content' in success ? Object.keys(success.content ?? {}) : []).toEqual([
      'text/html',
      'application/json',
    ]);
  });

  it('answers errors with the shared error body and lists every error code', () => {
    for (const route of apiRoutes) {
      const operation = operationOf(document, route.method, route.path);
      expect(operation?.responses['4XX']).toEqual({ $ref: '#/components/responses/Error' });
    }
    expect(document.components.schemas.ErrorBody).toMatchObject({
      type: 'object',
      required: ['error'],
    });
    expect(document.components.schemas.ErrorCode.enum).toEqual(Object.keys(ERROR_CODES));
  });

  it('groups operations by area, in the catalogue order of areas', () => {
    const tags = document.tags.map((tag) => tag.name);
    expect(tags).toEqual(API_AREAS.filter((area) => apiRoutes.some((route) => route.area === area)));
    expect(document.tags.every((tag) => tag.description.length > 0)).toBe(true);
  });

  it('has every $ref resolving inside the document, and no JSON Schema $schema inside it', () => {
    for (const ref of refsIn(document)) expect(resolves(document, ref), ref).toBe(true);
    expect(JSON.stringify(document.paths)).not.toContain('"$schema"');
  });
});

describe('the API docs page', () => {
  const document = buildOpenApiDocument();
  const page = renderApiDocsPage(document);

  it('shows every operation with its path, method and summary', () => {
    for (const route of apiRoutes) {
      expect(page).toContain(`<code class="path">${openApiPath(route.path)}</code>`);
      expect(page).toContain(escapeHtml(route.summary));
    }
  });

  it('loads nothing from elsewhere', () => {
    expect(page).not.toMatch(/<script|<link|src=|@import|url\(/i);
  });
});

describe('the API reference over HTTP', () => {
  const { test: app } = useTestApp(() => startTestApp());

  it('serves the OpenAPI document at /api/openapi.json', async () => {
    const response = await fetch(`${app.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/json/);
    const served = (await response.json()) as OpenApiDocument;
    expect(served.openapi).toBe('3.1.0');
    expect(Object.keys(served.paths)).toEqual(Object.keys(buildOpenApiDocument().paths));
  });

  it('serves a readable HTML page at /api/docs naming every path', async () => {
    const response = await fetch(`${app.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(response.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await response.text();
    expect(page).toMatch(/^<!doctype html>/);
    for (const route of apiRoutes) expect(page).toContain(openApiPath(route.path));
  });
});
