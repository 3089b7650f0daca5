import type { RouteArea } from '../app-context';
import { renderApiDocsPage } from './api-docs-page';
import { buildOpenApiDocument } from './openapi-document';

/** The page has no scripts and loads nothing from elsewhere; the policy says so to the browser. */
const DOCS_PAGE_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'";

/** The document as JSON and as the readable page, for one server address. */
function buildApiReference(serverUrl: string): { json: string; page: string } {
  const document = buildOpenApiDocument({ serverUrl });
  return { json: JSON.stringify(document), page: renderApiDocsPage(document) };
}

/**
 * `GET /api/openapi.json` (OpenAPI 3.1, generated from protocol's catalogue) and `GET /api/docs`
 * (the same document as a readable page).
 */
export const apiReferenceArea: RouteArea = {
  name: 'api-reference',
  routes(router, { env }) {
    // Built when first asked for, not when the app is composed: generating the schemas of the whole
    // catalogue takes 30-80 ms, which every app composed (each test's) paid before.
    let built: { json: string; page: string } | undefined;
    const reference = () => (built ??= buildApiReference(env.publicUrl));
    router.get('/api/openapi.json', (_req, res) => {
      res.type('application/json').send(reference().json);
    });
    router.get('/api/docs', (_req, res) => {
      res.setHeader('Content-Security-Policy', DOCS_PAGE_POLICY);
      res.type('html').send(reference().page);
    });
  },
};
