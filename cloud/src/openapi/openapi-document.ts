import {
  API_AREAS,
  ERROR_CODES,
  apiRouteGroups,
  apiRoutes,
  errorBodySchema,
  type ApiArea,
  type ApiRoute,
} from '@deposito/protocol';
import { z } from 'zod';

// The OpenAPI 3.1 description of the HTTP API, built from protocol's catalogue and schemas at
// start-up, so the reference cannot drift from what the server parses and answers.

export type JsonSchema = Record<string, unknown>;

export interface OpenApiParameter {
  name: string;
  in: 'path' | 'query';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface OpenApiResponse {
  description: string;
  content?: Record<string, { schema: JsonSchema }>;
}

export interface OpenApiOperation {
  operationId: string;
  summary: string;
  tags: [ApiArea];
  security?: Array<Record<string, string[]>>;
  parameters?: OpenApiParameter[];
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, OpenApiResponse | { $ref: string }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  jsonSchemaDialect: string;
  info: { title: string; version: string; description: string };
  servers?: Array<{ url: string }>;
  tags: Array<{ name: ApiArea; description: string }>;
  paths: Record<string, Partial<Record<Lowercase<ApiRoute['method']>, OpenApiOperation>>>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, OpenApiResponse>;
  };
}

export const ADMIN_SECURITY_SCHEME = 'adminToken';
const ERROR_RESPONSE = 'Error';
const ERROR_BODY_SCHEMA = 'ErrorBody';

const AREA_DESCRIPTIONS: Record<ApiArea, string> = {
  auth: 'Administrator log-in and log-out',
  users: 'Administrator accounts',
  locations: 'Locations, their lockers, prices and settings',
  lockers: 'Locker states and commands sent to the locker controllers',
  bookings: 'Daytime bookings: fast track, holds, scheduled bookings, read-back and changes',
  availability: 'Free lockers per day and time',
  night: 'Night bookings',
  payments: 'Card payments through the payment provider',
  discounts: 'Discount codes',
  settings: 'System settings and front-end overrides',
  cleanup: 'Removing old bookings',
  logs: 'Error log and process log',
  takings: 'Monthly takings and totem payments',
  system: 'Operator tools: test bookings, the morning scheduler',
  locales: 'Translations of the web interface',
};

/** `/api/bookings/:transactionId` → `/api/bookings/{transactionId}`. */
export function openApiPath(expressPath: string): string {
  return expressPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** `bookings.save` for `apiRouteGroups.bookings.save`: stable, and what the web's code calls it. */
function operationIds(): Map<ApiRoute, string> {
  const ids = new Map<ApiRoute, string>();
  for (const [group, routes] of Object.entries(apiRouteGroups)) {
    for (const [name, route] of Object.entries(routes)) ids.set(route as ApiRoute, `${group}.${name}`);
  }
  return ids;
}

/**
 * Converts a schema with zod's own converter. Schemas zod extracts as `$defs` (ids, cycles) move
 * to `components.schemas` under a prefix, with their references rewritten, so every `$ref`
 * resolves inside the one document.
 */
function schemaConverter(components: Record<string, JsonSchema>) {
  return (schema: z.ZodType, io: 'input' | 'output', prefix: string): JsonSchema => {
    const {
      $schema: _dialect,
      $defs,
      ...json
    } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as {
      $schema?: string;
      $defs?: Record<string, JsonSchema>;
    } & JsonSchema;
    if (!$defs) return json;
    const rewrite = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(rewrite);
      if (typeof value !== 'object' || value === null) return value;
      return Object.fromEntries(
        Object.entries(value).map(([key, inner]) => [
          key,
          key === '$ref' && typeof inner === 'string' && inner.startsWith('#/$defs/')
            ? `#/components/schemas/${prefix}.${inner.slice('#/$defs/'.length)}`
            : rewrite(inner),
        ]),
      );
    };
    for (const [name, definition] of Object.entries($defs)) {
      components[`${prefix}.${name}`] = rewrite(definition) as JsonSchema;
    }
    return rewrite(json) as JsonSchema;
  };
}

function parametersOf(schema: JsonSchema, location: 'path' | 'query'): OpenApiParameter[] {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...propertySchema } = property;
    return {
      name,
      in: location,
      required: location === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: propertySchema,
    };
  });
}

/** Splits a page-or-JSON answer (payments) into its `text/html` and `application/json` forms. */
function successContent(route: ApiRoute, schema: JsonSchema): Record<string, { schema: JsonSchema }> {
  if (route.responseType !== 'html') return { 'application/json': { schema } };
  const variants = Array.isArray(schema.anyOf) ? (schema.anyOf as JsonSchema[]) : [schema];
  const pages = variants.filter((variant) => variant.type === 'string');
  const json = variants.filter((variant) => variant.type !== 'string');
  const one = (list: JsonSchema[]) => (list.length === 1 ? list[0] : { anyOf: list });
  return {
    ...(pages.length > 0 ? { 'text/html': { schema: one(pages) } } : {}),
    ...(json.length > 0 ? { 'application/json': { schema: one(json) } } : {}),
  };
}

export interface OpenApiOptions {
  /** Where the API is served, e.g. PUBLIC_URL. */
  serverUrl?: string;
  version?: string;
  routes?: readonly ApiRoute[];
}

export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const routes = options.routes ?? apiRoutes;
  const schemas: Record<string, JsonSchema> = {};
  const convert = schemaConverter(schemas);
  const ids = operationIds();
  schemas[ERROR_BODY_SCHEMA] = {
    ...convert(errorBodySchema, 'output', ERROR_BODY_SCHEMA),
    description: 'Every error answer. `error.code` is one of ErrorCode.',
  };
  schemas.ErrorCode = {
    type: 'string',
    enum: Object.keys(ERROR_CODES),
    description: "Stable error codes; `x-errors` gives each one's HTTP status and default message.",
    'x-errors': ERROR_CODES,
  };

  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const id = ids.get(route) ?? `${route.method.toLowerCase()} ${route.path}`;
    const { params, query, body } = route.request;
    const parameters = [
      ...(params ? parametersOf(convert(params, 'input', `${id}.params`), 'path') : []),
      ...(query ? parametersOf(convert(query, 'input', `${id}.query`), 'query') : []),
    ];
    const status = String(route.successStatus ?? 200);
    const responseSchema = convert(route.response, 'output', `${id}.response`);
    const operation: OpenApiOperation = {
      operationId: id,
      summary: route.summary,
      tags: [route.area],
      ...(route.auth === 'admin' ? { security: [{ [ADMIN_SECURITY_SCHEME]: [] }] } : {}),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(body
        ? {
            requestBody: {
              required: true,
              content: { 'application/json': { schema: convert(body, 'input', `${id}.body`) } },
            },
          }
        : {}),
      responses: {
        [status]:
          status === '204'
            ? { description: 'Done, nothing to send back' }
            : { description: 'Success', content: successContent(route, responseSchema) },
        ...Object.fromEntries(
          (route.alsoStatuses ?? []).map((other) => [
            String(other),
            { description: 'Accepted: the same answer', content: successContent(route, responseSchema) },
          ]),
        ),
        '4XX': { $ref: `#/components/responses/${ERROR_RESPONSE}` },
        '5XX': { $ref: `#/components/responses/${ERROR_RESPONSE}` },
      },
    };
    const path = openApiPath(route.path);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }

  const usedAreas = new Set(routes.map((route) => route.area));
  return {
    openapi: '3.1.0',
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    info: {
      title: 'Deposito API',
      version: options.version ?? '1',
      description:
        'Book and pay luggage lockers, and run the business from the admin area. Bodies and answers ' +
        'are JSON; errors are `{ "error": { "code", "message" } }` with a stable code. Admin calls need ' +
        '`Authorization: Bearer <token>` from `POST /api/admin/login`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    tags: API_AREAS.filter((area) => usedAreas.has(area)).map((name) => ({
      name,
      description: AREA_DESCRIPTIONS[name],
    })),
    paths,
    components: {
      securitySchemes: {
        [ADMIN_SECURITY_SCHEME]: {
          type: 'http',
          scheme: 'bearer',
          description: 'The token `POST /api/admin/login` answers with.',
        },
      },
      schemas,
      responses: {
        [ERROR_RESPONSE]: {
          description: 'The request failed; the code says why',
          content: { 'application/json': { schema: { $ref: `#/components/schemas/${ERROR_BODY_SCHEMA}` } } },
        },
      },
    },
  };
}
