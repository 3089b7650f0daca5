import type { RouteArea } from '../app-context';
import { renderApiDocsPage } from './api-docs-page';
import { buildOpenApiDocument } from './openapi-document';

/** The page has no scripts and loads nothing from elsewhere; the policy says so to the browser. */
const DOCS_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

interface ApiReference {
  serverUrl: string;
  json: string;
  page: string;
}

/** The last reference built: every app of a process, and most of a test run's, has the same address. */
let lastBuilt: ApiReference | null = null;

/**
 * The document and its page for a server address, built when first asked for: generating the
 * schemas of the whole catalogue takes 30-80 ms, which every app composed (each test's) paid before.
 */
function apiReference(serverUrl: string): ApiReference {
  if (lastBuilt?.serverUrl !== serverUrl) {
    const document = buildOpenApiDocument({ serverUrl });
    lastBuilt = { serverUrl, json: JSON.stringify(document), page: renderApiDocsPage(document) };
  }
  return lastBuilt;
}

/**
 * `GET /api/openapi.json` (OpenAPI 3.1, generated from protocol's catalogue) and `GET /api/docs`
 * (the same document as a readable page).
 */
export const apiReferenceArea: RouteArea = {
  name: 'api-reference',
  routes(router, { env }) {
    router.get('/api/openapi.json', (_req, res) => {
      res.type('application/json').send(apiReference(env.publicUrl).json);
    });
    router.get('/api/docs', (_req, res) => {
      res.setHeader('Content-Security-Policy', DOCS_PAGE_POLICY);
      res.type('html').send(apiReference(env.publicUrl).page);
    });
  },
};
