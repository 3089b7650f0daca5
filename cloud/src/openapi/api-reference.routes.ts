import type { RouteArea } from '../app-context';
import { renderApiDocsPage } from './api-docs-page';
import { buildOpenApiDocument } from './openapi-document';

/** The page has no scripts and loads nothing from elsewhere; the policy says so to the browser. */
const DOCS_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/**
 * `GET /api/openapi.json` (OpenAPI 3.1, generated from protocol's catalogue) and `GET /api/docs`
 * (the same document as a readable page). Both are built once, when the app is composed.
 */
export const apiReferenceArea: RouteArea = {
  name: 'api-reference',
  routes(router, { env }) {
    const document = buildOpenApiDocument({ serverUrl: env.publicUrl });
    const json = JSON.stringify(document);
    const page = renderApiDocsPage(document);
    router.get('/api/openapi.json', (_req, res) => {
      res.type('application/json').send(json);
    });
    router.get('/api/docs', (_req, res) => {
      res.setHeader('Content-Security-Policy', DOCS_PAGE_POLICY);
      res.type('html').send(page);
    });
  },
};
