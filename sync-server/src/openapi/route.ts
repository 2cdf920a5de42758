// One declaration per REST route: method, path, who may call it, the zod schemas of its path, query and
// body (the ones its handler reads with) and of its answers and refusals. `serve` registers the handler
// from it and puts it in the sub-app's OpenAPI registry (@hono/zod-openapi), which the document is
// generated from (document.ts); so a route cannot be served without being described, nor described
// differently from what it checks.
//
// Input is read through the project's own readers (http/validate.ts), not the library's validators: they
// keep SPEC's error texts and statuses (an unreadable body, bytes that are not UTF-8, a half emoji, an
// empty body are each their own 400) and the order a handler checks things in (the sign-in first, then
// the input), so a handler asks `read` for its input (the query, the JSON body) when it wants it.
import { createRoute, type OpenAPIHono, type RouteConfig } from '@hono/zod-openapi';
import type { Context, Handler } from 'hono';
import type { z } from 'zod';
import { ERROR_STATUS, type ErrorCode, notFound } from '../../../shared/errors.js';
import { errorBodySchema } from '../../../shared/schemas/answers.js';
import { SYNC_PROTOCOL_HEADER, SYNC_PROTOCOL_VERSION } from '../../../shared/sync-protocol.js';
import type { AppEnv } from '../http/auth.js';
import { parse, readJson } from '../http/validate.js';

/** none: no token is read; optional: a token that is sent must be valid (else 401); required: 401 without one. */
export type Auth = 'none' | 'optional' | 'required';

export interface AnswerDoc {
  description: string;
  /** The JSON body; absent for an answer without one (204, 303). */
  schema?: z.ZodType;
  /** Default application/json. */
  contentType?: string;
  /** Headers the answer may carry: name → what it says. */
  headers?: Record<string, string>;
}

type Schema = z.ZodType | undefined;

export interface ApiRoute<P extends Schema = Schema, Q extends Schema = Schema, B extends Schema = Schema> {
  method: 'get' | 'post' | 'put' | 'delete';
  /** OpenAPI's form, below the sub-app's mount: `/{id}` (Hono's `/:id`). */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  auth: Auth;
  /** The path parameters, each described; refusing a value is `400` with its message, or `404` (notFoundParam). */
  params?: P;
  query?: Q;
  /** A query string as a caller would send it (`?sort=hot&limit=20`). */
  queryExample?: string;
  body?: { schema: B; required: boolean; description?: string; formToo?: boolean; example?: unknown };
  answers: Record<number, AnswerDoc>;
  /** Refusals this route gives besides those every route of its kind may give (commonErrors). */
  errors?: ErrorCode[];
  /** Counted against a rate limit beyond the writes' (docs/SECURITY.md "Rate limits"): 429 possible on a read. */
  limited?: boolean;
  /** A replication route (/api/sync/...): the protocol header is checked in front of it. */
  sync?: boolean;
}

/** The declared input, parsed with the route's schemas when the handler asks for it. */
export interface RouteInput<R extends ApiRoute> {
  params(): Parsed<R['params']>;
  query(): Parsed<R['query']>;
  json(): Promise<Parsed<NonNullable<R['body']>['schema']>>;
}

type Parsed<S> = NonNullable<S> extends z.ZodType ? z.output<NonNullable<S>> : never;

export type RouteHandler<R extends ApiRoute> = (c: Context<AppEnv>, read: RouteInput<R>) => Response | Promise<Response>;

/** A declaration, typed by its schemas (the identity: it keeps the literal types `serve` infers the input from). */
export const apiRoute = <P extends Schema = undefined, Q extends Schema = undefined, B extends Schema = undefined>(
  route: ApiRoute<P, Q, B>,
) => route;

/** Registers `handler` for `route` on `app` and describes it in the app's OpenAPI registry. */
export function serve<R extends ApiRoute>(app: OpenAPIHono<AppEnv>, route: R, handler: RouteHandler<R>): void {
  app.openAPIRegistry.registerPath(openApiRoute(route));
  const honoPath = route.path.replace(/\{([^}]+)\}/g, ':$1');
  const registered: Handler<AppEnv> = (c) => handler(c, routeInput(c, route));
  app.on(route.method.toUpperCase(), honoPath, registered);
}

function routeInput<R extends ApiRoute>(c: Context<AppEnv>, route: R): RouteInput<R> {
  const need = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${route.method.toUpperCase()} ${route.path} declares no ${what}.`);
    return value;
  };
  return {
    params: () => parseParams(need(route.params, 'path parameters'), c.req.param()),
    query: () => parse(need(route.query, 'query'), c.req.query()),
    json: () => readJson(c, need(route.body?.schema, 'body'), { optional: !route.body?.required }),
  } as RouteInput<R>;
}

/**
 * A path parameter whose refusal is `404` with its message (an unknown collection is no address at
 * all): `.refine(check, notFoundParam(message))`.
 */
export const notFoundParam = (message: string) => ({ message, params: { notFound: true } });

function parseParams<S extends z.ZodType>(schema: S, value: Record<string, string>): z.output<S> {
  // One parse on the way every request takes; the refusal's wording comes from `parse`.
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (issue?.code === 'custom' && (issue.params as { notFound?: boolean } | undefined)?.notFound) throw notFound(issue.message);
  return parse(schema, value);
}

/** Refusals any route of a kind may give, besides its own list (docs/API.md "Conventions", docs/SECURITY.md "Rate limits"). */
export function commonErrors(route: ApiRoute): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (route.auth === 'required' || route.auth === 'optional') codes.push('unauthenticated');
  if (route.method !== 'get') codes.push('resource-exhausted');
  if (route.sync) codes.push('sync-outdated');
  if (route.method !== 'get' || route.limited) codes.push('rate-limited');
  codes.push('internal', 'unavailable');
  return codes;
}

/** What each refusal means, by code (an answer's description). */
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
  'not-implemented': 'That form of the answer is not made (oEmbed: only `format=json`).',
  internal: 'A fault of the server (never for bad input).',
  unavailable: 'The database stayed busy (`Retry-After: 2`), or the feature is not set up; nothing was written.',
};

const textHeader = (description: string) => ({ description, schema: { type: 'string' as const } });

/** The declaration as @hono/zod-openapi's route: what the document says of it. */
export function openApiRoute(route: ApiRoute): RouteConfig {
  const responses: RouteConfig['responses'] = {};
  for (const [status, answer] of Object.entries(route.answers)) {
    responses[status] = {
      description: answer.description,
      ...(answer.headers
        ? { headers: Object.fromEntries(Object.entries(answer.headers).map(([name, text]) => [name, textHeader(text)])) }
        : {}),
      ...(answer.schema ? { content: { [answer.contentType ?? 'application/json']: { schema: answer.schema } } } : {}),
    };
  }
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...(route.errors ?? []), ...commonErrors(route)]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...new Set([...(byStatus.get(status) ?? []), code])]);
  }
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    responses[String(status)] = {
      description: codes.map((code) => `\`${code}\`: ${ERROR_TEXT[code]}`).join(' '),
      ...(status === 429 || status === 503 ? { headers: { 'Retry-After': textHeader('Seconds to wait.') } } : {}),
      content: { 'application/json': { schema: errorBodySchema } },
    };
  }
  const body = route.body;
  return createRoute({
    method: route.method,
    path: route.path,
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    security: route.auth === 'required' ? [{ bearer: [] }] : route.auth === 'optional' ? [{}, { bearer: [] }] : [],
    'x-crux-auth': route.auth,
    ...(route.queryExample ? { 'x-crux-query-example': route.queryExample } : {}),
    ...(route.sync
      ? {
          parameters: [
            {
              name: SYNC_PROTOCOL_HEADER,
              in: 'header',
              required: false,
              description: `The sync protocol the app speaks; another than ${SYNC_PROTOCOL_VERSION} is \`426\` \`sync-outdated\` (no header: accepted).`,
              schema: { type: 'string' },
            },
          ],
        }
      : {}),
    request: {
      ...(route.params ? { params: route.params as never } : {}),
      ...(route.query ? { query: route.query as never } : {}),
      ...(body?.schema
        ? {
            body: {
              required: body.required,
              ...(body.description ? { description: body.description } : {}),
              content: {
                'application/json': { schema: body.schema, ...(body.example === undefined ? {} : { example: body.example }) },
                ...(body.formToo ? { 'application/x-www-form-urlencoded': { schema: body.schema } } : {}),
              },
            },
          }
        : {}),
    },
    responses,
  });
}
