import { html, type TrustedHtml } from '../payments/html';
import {
  ADMIN_SECURITY_SCHEME,
  type JsonSchema,
  type OpenApiDocument,
  type OpenApiOperation,
  type OpenApiParameter,
  type OpenApiResponse,
} from './openapi-document';

// The API reference as one self-contained page, rendered from the OpenAPI document on the server:
// no scripts, no fonts or stylesheets from elsewhere, readable in any browser and in `curl`.

const METHOD_ORDER = ['get', 'post', 'put', 'patch', 'delete'] as const;

interface PageOperation {
  method: (typeof METHOD_ORDER)[number];
  path: string;
  operation: OpenApiOperation;
}

/** Text with `backtick` spans shown as code, everything escaped. */
function prose(text: string): TrustedHtml {
  return html`${text.split('`').map((part, index) => (index % 2 === 1 ? html`<code>${part}</code>` : part))}`;
}

const anchorOf = (operation: OpenApiOperation) =>
  `op-${operation.operationId.replace(/[^A-Za-z0-9_-]/g, '-')}`;

/** One line saying what a schema is, so a closed schema block still tells the reader something. */
function schemaGist(schema: JsonSchema): string {
  if (Array.isArray(schema.anyOf)) return `one of ${schema.anyOf.length} shapes`;
  if (schema.type === 'object') {
    const count = Object.keys((schema.properties ?? {}) as object).length;
    return count > 0 ? `object, ${count} field${count === 1 ? '' : 's'}` : 'object';
  }
  if (schema.type === 'array') return 'array';
  if (typeof schema.type === 'string') return schema.type;
  if (typeof schema.$ref === 'string') return schema.$ref.split('/').pop() ?? 'schema';
  return 'any JSON';
}

function schemaBlock(title: string, schema: JsonSchema, open = false): TrustedHtml {
  return html`<details class="schema" ${open ? html`open` : ''}>
    <summary>${title} <span class="gist">${schemaGist(schema)}</span></summary>
    <pre><code>${JSON.stringify(schema, null, 2)}</code></pre>
  </details>`;
}

function parameterRow(parameter: OpenApiParameter): TrustedHtml {
  const { type, ...constraints } = parameter.schema;
  const shown = Object.entries(constraints)
    .map(([key, value]) => `${key}: ${JSON.stringify(value)}`)
    .join(', ');
  return html`<tr>
    <td><code>${parameter.name}</code></td>
    <td>${parameter.in}</td>
    <td>${parameter.required ? 'yes' : 'no'}</td>
    <td>
      <code>${typeof type === 'string' ? type : 'any'}</code
      >${shown ? html` <span class="gist">${shown}</span>` : ''}
    </td>
  </tr>`;
}

function responseBlocks(status: string, response: OpenApiResponse | { $ref: string }): TrustedHtml {
  if ('$ref' in response) {
    return html`<p class="status">
      <span class="code">${status}</span> error body
      <a href="#errors"><code>{ error: { code, message } }</code></a>
    </p>`;
  }
  const contents = Object.entries(response.content ?? {});
  return html`<p class="status"><span class="code">${status}</span> ${response.description}</p>
    ${contents.map(([mediaType, { schema }]) => schemaBlock(`Response ${mediaType}`, schema))}`;
}

function operationSection({ method, path, operation }: PageOperation): TrustedHtml {
  const admin = operation.security?.some((requirement) => ADMIN_SECURITY_SCHEME in requirement) ?? false;
  const body = operation.requestBody?.content['application/json'].schema;
  return html`<section class="operation" id="${anchorOf(operation)}">
    <h3><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${path}</code></h3>
    <p class="summary">${prose(operation.summary)}</p>
    <p class="meta">
      ${
        admin
          ? html`<span class="auth admin">Admin: <code>Authorization: Bearer &lt;token&gt;</code></span>`
          : html`<span class="auth public">Public</span>`
      }
      <span class="opid">operationId <code>${operation.operationId}</code></span>
    </p>
    ${
      operation.parameters?.length
        ? table(
            ['Parameter', 'In', 'Required', 'Schema'],
            operation.parameters.map(parameterRow),
            'parameters',
          )
        : ''
    }
    ${body ? schemaBlock('Request body application/json', body, true) : ''}
    ${Object.entries(operation.responses).map(([status, response]) => responseBlocks(status, response))}
  </section>`;
}

function errorTable(errorCodes: JsonSchema | undefined): TrustedHtml | '' {
  const errors = errorCodes?.['x-errors'] as Record<string, { status: number; message: string }> | undefined;
  if (!errors) return '';
  return table(
    ['Code', 'Status', 'Default message'],
    Object.entries(errors).map(
      ([code, { status, message }]) =>
        html`<tr>
          <td><code>${code}</code></td>
          <td>${status}</td>
          <td>${message}</td>
        </tr>`,
    ),
  );
}

/** A table with these column headings over `rows`. */
function table(headings: string[], rows: TrustedHtml[], className?: string): TrustedHtml {
  return html`<table${className ? html` class="${className}"` : ''}>
    <thead>
      <tr>
        ${headings.map((heading) => html`<th>${heading}</th>`)}
      </tr>
    </thead>
    <tbody>
      ${rows}
    </tbody>
  </table>`;
}

const STYLE = `
  :root { color-scheme: light dark; --fg: #1d2330; --muted: #5b6475; --line: #d9dde5; --bg: #fff; --card: #f6f7f9;
    --get: #1f6feb; --post: #1a7f37; --put: #9a6700; --patch: #8250df; --delete: #cf222e; }
  @media (prefers-color-scheme: dark) { :root { --fg: #e6e8ec; --muted: #9aa3b2; --line: #30363d; --bg: #0d1117; --card: #161b22; } }
  * { box-sizing: border-box; }
  body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--fg); background: var(--bg); }
  code, pre { font: 13px/1.45 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; }
  a { color: var(--get); }
  .layout { display: grid; grid-template-columns: 300px 1fr; min-height: 100vh; }
  nav { position: sticky; top: 0; height: 100vh; overflow: auto; padding: 20px; border-right: 1px solid var(--line); background: var(--card); }
  nav h2 { font-size: 12px; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 18px 0 6px; }
  nav ul { list-style: none; margin: 0; padding: 0; }
  nav li a { display: block; padding: 2px 0; text-decoration: none; color: var(--fg); font-size: 13px; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; }
  nav li a .method { font-size: 10px; min-width: 44px; }
  main { padding: 24px 40px 80px; max-width: 1100px; }
  header p { color: var(--muted); max-width: 75ch; }
  h2.area { margin-top: 40px; padding-bottom: 4px; border-bottom: 1px solid var(--line); text-transform: capitalize; }
  h2.area + p { color: var(--muted); margin-top: 4px; }
  .operation { border: 1px solid var(--line); border-radius: 8px; padding: 12px 18px; margin: 16px 0; background: var(--card); }
  .operation h3 { margin: 0; font-size: 16px; display: flex; gap: 10px; align-items: center; flex-wrap: wrap; }
  .method { display: inline-block; min-width: 60px; text-align: center; border-radius: 4px; padding: 1px 6px; color: #fff; font: 600 12px/1.6 ui-monospace, monospace; }
  .method.get { background: var(--get); } .method.post { background: var(--post); } .method.put { background: var(--put); }
  .method.patch { background: var(--patch); } .method.delete { background: var(--delete); }
  .summary { margin: 6px 0; }
  .meta { display: flex; gap: 16px; flex-wrap: wrap; font-size: 13px; color: var(--muted); margin: 4px 0 8px; }
  .auth.admin { color: var(--delete); } .auth.public { color: var(--post); }
  table { border-collapse: collapse; width: 100%; margin: 8px 0; font-size: 13px; }
  th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
  .gist { color: var(--muted); font-size: 12px; }
  details.schema { margin: 6px 0; }
  details.schema summary { cursor: pointer; font-size: 13px; font-weight: 600; }
  pre { margin: 6px 0; padding: 10px 12px; background: var(--bg); border: 1px solid var(--line); border-radius: 6px; overflow: auto; max-height: 480px; }
  .status { margin: 8px 0 2px; font-size: 13px; }
  .status .code { display: inline-block; min-width: 36px; font-weight: 700; }
  @media (max-width: 900px) { .layout { grid-template-columns: 1fr; } nav { position: static; height: auto; } main { padding: 16px; } }
`;

/** The whole reference page for a document. */
export function renderApiDocsPage(document: OpenApiDocument): string {
  const operations: PageOperation[] = Object.entries(document.paths).flatMap(([path, item]) =>
    METHOD_ORDER.flatMap((method) => {
      const operation = item[method];
      return operation ? [{ method, path, operation }] : [];
    }),
  );
  const areas = document.tags.map((tag) => ({
    ...tag,
    operations: operations
      .filter(({ operation }) => operation.tags[0] === tag.name)
      .sort(
        (a, b) =>
          a.path.localeCompare(b.path) || METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method),
      ),
  }));
  const errorCodes = document.components.schemas.ErrorCode;
  const errorBody = document.components.schemas.ErrorBody;

  const page = html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>${document.info.title} reference</title>
        <style>
          ${STYLE}
        </style>
      </head>
      <body>
        <div class="layout">
          <nav aria-label="Operations">
            <strong>${document.info.title}</strong>
            ${areas.map(
              (area) =>
                html`<h2><a href="#area-${area.name}">${area.name}</a></h2>
                  <ul>
                    ${area.operations.map(
                      ({ method, path, operation }) =>
                        html`<li>
                          <a href="#${anchorOf(operation)}" title="${operation.summary}"
                            ><span class="method ${method}">${method.toUpperCase()}</span> ${path}</a
                          >
                        </li>`,
                    )}
                  </ul>`,
            )}
            <h2><a href="#errors">Errors</a></h2>
          </nav>
          <main>
            <header>
              <h1>
                ${document.info.title}
                <span class="gist">version ${document.info.version}, OpenAPI ${document.openapi}</span>
              </h1>
              <p>${prose(document.info.description)}</p>
              <p>
                Machine-readable: <a href="/api/openapi.json"><code>/api/openapi.json</code></a
                >.
              </p>
            </header>
            ${areas.map(
              (area) =>
                html`<h2 class="area" id="area-${area.name}">${area.name}</h2>
                  <p>${area.description}</p>
                  ${area.operations.map(operationSection)}`,
            )}
            <h2 class="area" id="errors">Errors</h2>
            <p>
              Every 4xx and 5xx answer has this body; <code>error.code</code> is stable and says what went
              wrong.
            </p>
            ${errorBody ? schemaBlock('Error body', errorBody, true) : ''} ${errorTable(errorCodes)}
          </main>
        </div>
      </body>
    </html>`;
  return page.toString();
}
