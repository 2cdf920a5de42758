// The OpenAPI 3.1 document of the REST API, built from the route list (routes.ts) and the zod schemas:
// zod 4's own z.toJSONSchema() writes each schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect); the
// named ones (`.meta({ id })`) become components. Served at GET /api/openapi.json and rendered into
// docs/API.md (markdown.ts, scripts/api-docs.ts).
import { z } from 'zod';
import { ERROR_STATUS, type ErrorCode } from '../../../shared/errors.js';
import { errorBodySchema } from '../../../shared/schemas/answers.js';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import { ROUTES, type RouteDoc } from './routes.js';

export type JsonSchema = { [key: string]: unknown };

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  jsonSchemaDialect: string;
  tags: { name: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, unknown> };
}

export interface Operation {
  tags: string[];
  summary: string;
  description?: string;
  operationId: string;
  security: Record<string, string[]>[];
  'x-crux-auth': RouteDoc['auth'];
  'x-crux-query-example'?: string;
  parameters?: Parameter[];
  requestBody?: { required: boolean; description?: string; content: Record<string, { schema: JsonSchema; example?: unknown }> };
  responses: Record<string, ResponseObject>;
}

export interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

export interface ResponseObject {
  description: string;
  headers?: Record<string, { description: string; schema: JsonSchema }>;
  content?: Record<string, { schema: JsonSchema }>;
}

const COMPONENTS = '#/components/schemas/';

/** Refusals any route of a kind may give, besides its own list (docs/API.md "Conventions", docs/SECURITY.md "Rate limits"). */
export function commonErrors(route: RouteDoc): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (route.auth === 'required' || route.auth === 'optional') codes.push('unauthenticated');
  if (route.method !== 'get') codes.push('resource-exhausted');
  if (route.path.startsWith('/api/sync/')) codes.push('sync-outdated');
  if (route.method !== 'get' || route.limited) codes.push('rate-limited');
  codes.push('internal', 'unavailable');
  return codes;
}

/** Error texts of the answers, by code. */
const ERROR_TEXT: Record<ErrorCode, string> = {
  'invalid-argument': 'Invalid input (the message names the problem).',
  unauthenticated: 'No valid token: missing where one is required, or sent and expired, revoked or forged.',
  'permission-denied': 'Not yours.',
  'not-found': 'No such item (or it was deleted).',
  'already-exists': 'The id is taken by someone else.',
  'link-expired': 'The link has expired.',
  'resource-exhausted': 'The body is over 1 MiB.',
  'sync-outdated': "The app's `x-crux-sync` protocol version is not the server's: reload.",
  'rate-limited': 'Over a rate limit (`Retry-After` says how many seconds to wait); nothing was applied.',
  internal: 'A fault of the server (never for bad input).',
  unavailable: 'The database stayed busy (`Retry-After: 2`), or the feature is not set up; nothing was written.',
};

/** Hono's `/api/topics/:id` as OpenAPI's `/api/topics/{id}`. */
export const openApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/** One zod schema as JSON Schema; its named parts go to `defs` and are referred to as components. */
function toSchema(schema: z.ZodType, io: 'input' | 'output', defs: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as JsonSchema;
  const { $schema: _dialect, $defs, ...rest } = json;
  const relinked = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', `"${COMPONENTS}`)) as JsonSchema;
  for (const [name, def] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) {
    const fixed = relinked(def);
    const known = defs[name];
    if (known && JSON.stringify(known) !== JSON.stringify(fixed)) throw new Error(`Two different schemas are named ${name}.`);
    defs[name] = fixed;
  }
  return relinked(rest);
}

function parameters(route: RouteDoc, defs: Record<string, JsonSchema>): Parameter[] {
  const found: Parameter[] = [];
  for (const name of route.path.match(/\{([^}]+)\}/g)?.map((part) => part.slice(1, -1)) ?? []) {
    const description = route.params?.[name];
    if (!description) throw new Error(`${route.method.toUpperCase()} ${route.path}: describe the path parameter ${name}.`);
    found.push({ name, in: 'path', required: true, description, schema: { type: 'string' } });
  }
  if (route.query) {
    const query = toSchema(route.query, 'input', defs);
    const properties = (query['properties'] ?? {}) as Record<string, JsonSchema>;
    const required = new Set((query['required'] ?? []) as string[]);
    for (const [name, schema] of Object.entries(properties)) {
      const { description: own, ...rest } = schema;
      const description = [typeof own === 'string' ? own : '', route.queryNotes?.[name] ?? ''].filter(Boolean).join(' ');
      found.push({ name, in: 'query', required: required.has(name), ...(description ? { description } : {}), schema: rest });
    }
    for (const name of Object.keys(route.queryNotes ?? {})) {
      if (!(name in properties))
        throw new Error(`${route.method.toUpperCase()} ${route.path}: a note on ${name}, which is not a parameter.`);
    }
  }
  if (route.path.startsWith('/api/sync/')) {
    found.push({
      name: SYNC_PROTOCOL_HEADER,
      in: 'header',
      required: false,
      description: `The sync protocol the app speaks; another than ${SYNC_PROTOCOL_VERSION} is \`426\` \`sync-outdated\` (no header: accepted).`,
      schema: { type: 'string' },
    });
  }
  return found;
}

function operation(route: RouteDoc, defs: Record<string, JsonSchema>): Operation {
  const responses: Record<string, ResponseObject> = {};
  for (const [status, answer] of Object.entries(route.answers)) {
    responses[status] = {
      description: answer.description,
      ...(answer.headers
        ? {
            headers: Object.fromEntries(
              Object.entries(answer.headers).map(([name, description]) => [name, { description, schema: { type: 'string' } }]),
            ),
          }
        : {}),
      ...(answer.schema
        ? { content: { [answer.contentType ?? 'application/json']: { schema: toSchema(answer.schema, 'output', defs) } } }
        : {}),
    };
  }
  const errorRef = { $ref: `${COMPONENTS}Error` };
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...(route.errors ?? []), ...commonErrors(route)]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_TEXT[code]}`).join(' '),
      ...(status === 429 || status === 503
        ? { headers: { 'Retry-After': { description: 'Seconds to wait.', schema: { type: 'string' } } } }
        : {}),
      content: { 'application/json': { schema: errorRef } },
    };
  }
  const params = parameters(route, defs);
  const body = route.body;
  const bodySchema = body ? toSchema(body.schema, 'input', defs) : undefined;
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    operationId: operationId(route),
    security: route.auth === 'required' ? [{ bearer: [] }] : route.auth === 'optional' ? [{}, { bearer: [] }] : [],
    'x-crux-auth': route.auth,
    ...(route.queryExample ? { 'x-crux-query-example': route.queryExample } : {}),
    ...(params.length > 0 ? { parameters: params } : {}),
    ...(body && bodySchema
      ? {
          requestBody: {
            required: body.required,
            ...(body.description ? { description: body.description } : {}),
            content: {
              'application/json': { schema: bodySchema, ...(body.example === undefined ? {} : { example: body.example }) },
              ...(body.formToo ? { 'application/x-www-form-urlencoded': { schema: bodySchema } } : {}),
            },
          },
        }
      : {}),
    responses,
  };
}

const operationId = (route: RouteDoc) =>
  route.method +
  route.path
    .replace(/^\/api/, '')
    .split(/[/.{}-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

export function buildOpenApiDocument(routes: readonly RouteDoc[] = ROUTES): OpenApiDocument {
  const defs: Record<string, JsonSchema> = {};
  toSchema(errorBodySchema, 'output', defs);
  const paths: OpenApiDocument['paths'] = {};
  for (const route of routes) {
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is described twice.`);
    item[route.method] = operation(route, defs);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Crux REST API',
      version: '1',
      description: 'The REST API of Crux, a structured, offline-first debate site. Prose: docs/API.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: [...new Set(routes.map((route) => route.tag))].map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' } },
    },
  };
}

let built: OpenApiDocument | undefined;
/** The document, built once per process. */
export const openApiDocument = (): OpenApiDocument => (built ??= buildOpenApiDocument());
