// The OpenAPI 3.1 document of the REST API, from the routes the app registered (route.ts: each route
// is declared once, with its schemas) as @hono/zod-openapi's registry holds them, mounted paths
// included. Each schema is written by zod 4's own z.toJSONSchema() as JSON Schema 2020-12 (OpenAPI
// 3.1's dialect), the named ones (`.meta({ id })`) as components. Not the library's generator
// (zod-to-openapi): it drops `.nullable()` on a named schema, leaves answer objects open where zod's
// output is closed, and writes `.extend()` as an allOf a closed parent refuses; each would make the
// document say other than what the server does. Served at GET /api/openapi.json and rendered into
// docs/API.md (markdown.ts, scripts/api-docs.ts).
import type { OpenAPIHono, RouteConfig } from '@hono/zod-openapi';
import { z } from 'zod';
import { errorBodySchema } from '../../../shared/schemas/answers.js';
import type { Auth } from './route.js';

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
  'x-crux-auth': Auth;
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

/** Hono's `/api/topics/:id` as OpenAPI's `/api/topics/{id}`. */
export const openApiPath = (honoPath: string) => honoPath.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

const COMPONENTS = '#/components/schemas/';

/** One zod schema as JSON Schema; its named parts go to `defs` and are referred to as components. */
function toSchema(schema: z.ZodType, io: 'input' | 'output', defs: Record<string, JsonSchema>): JsonSchema {
  const json = z.toJSONSchema(schema, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    // A whole number read from a query string is described as the integer it stands for
    // (shared/schemas/common.ts, wholeNumberParam): the digits' pattern of its text says nothing more.
    override: ({ jsonSchema }) => {
      if (jsonSchema.type === 'integer') delete jsonSchema.pattern;
    },
  }) as JsonSchema;
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

/** Each field of an object schema (path or query) as a parameter; its `description` says what it is. */
function parametersOf(schema: unknown, where: 'path' | 'query', defs: Record<string, JsonSchema>): Parameter[] {
  if (!schema) return [];
  const json = toSchema(schema as z.ZodType, 'input', defs);
  const required = new Set((json['required'] ?? []) as string[]);
  return Object.entries((json['properties'] ?? {}) as Record<string, JsonSchema>).map(([name, field]) => {
    const { description, ...rest } = field;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      schema: rest,
    };
  });
}

function operation(route: RouteConfig, defs: Record<string, JsonSchema>): Operation {
  const { method: _method, path: _path, request, responses, parameters: headers, ...described } = route;
  const parameters = [
    ...parametersOf(request?.params, 'path', defs),
    ...parametersOf(request?.query, 'query', defs),
    ...((headers ?? []) as Parameter[]),
  ];
  const answers: Record<string, ResponseObject> = {};
  for (const [status, answer] of Object.entries(responses) as [
    string,
    ResponseObject & { content?: Record<string, { schema: z.ZodType }> },
  ][]) {
    answers[status] = {
      description: answer.description,
      ...(answer.headers ? { headers: answer.headers } : {}),
      ...(answer.content
        ? {
            content: Object.fromEntries(
              Object.entries(answer.content).map(([type, { schema }]) => [type, { schema: toSchema(schema, 'output', defs) }]),
            ),
          }
        : {}),
    };
  }
  const body = request?.body as
    { required: boolean; description?: string; content: Record<string, { schema: z.ZodType; example?: unknown }> } | undefined;
  return {
    ...(described as Omit<Operation, 'operationId' | 'responses' | 'parameters' | 'requestBody'>),
    operationId: '',
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: body.required,
            ...(body.description ? { description: body.description } : {}),
            content: Object.fromEntries(
              Object.entries(body.content).map(([type, { schema, example }]) => [
                type,
                { schema: toSchema(schema, 'input', defs), ...(example === undefined ? {} : { example }) },
              ]),
            ),
          },
        }
      : {}),
    responses: answers,
  };
}

const operationId = (method: string, path: string) =>
  method +
  path
    .replace(/^\/api/, '')
    .split(/[/.{}-]+/)
    .filter(Boolean)
    .map((word) => word[0]!.toUpperCase() + word.slice(1))
    .join('');

/** The document of every route `app` (the whole app, mounted at `/`) registered through route.ts's `serve`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- any app's registry: its environment plays no part
export function buildOpenApiDocument(app: OpenAPIHono<any>): OpenApiDocument {
  const defs: Record<string, JsonSchema> = {};
  toSchema(errorBodySchema, 'output', defs);
  const paths: OpenApiDocument['paths'] = {};
  const tags: string[] = [];
  for (const definition of app.openAPIRegistry.definitions) {
    if (definition.type !== 'route') continue;
    const { route } = definition;
    const item = (paths[route.path] ??= {});
    if (item[route.method]) throw new Error(`${route.method.toUpperCase()} ${route.path} is described twice.`);
    const op = operation(route, defs);
    op.operationId = operationId(route.method, route.path);
    item[route.method] = op;
    for (const tag of op.tags) if (!tags.includes(tag)) tags.push(tag);
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Crux REST API',
      version: '1',
      description: 'The REST API of Crux, a structured, offline-first debate site. Prose: docs/API.md.',
    },
    jsonSchemaDialect: 'https://json-schema.org/draft/2020-12/schema',
    tags: tags.map((name) => ({ name })),
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(defs).sort(([a], [b]) => a.localeCompare(b))),
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'Firebase ID token' } },
    },
  };
}
