// /api/responses: a topic's roots or a response's replies, mappings, search, one,
// create, inline edit and subtree delete.
// The lists are paged (docs/API.md "Paging"): the body stays the product's plain
// array, at most `limit` (default and maximum RESPONSES_MAX_LIMIT) and RESPONSES_ANSWER_MAX long; when more
// follow, `X-Next-Cursor` holds an opaque cursor and `Link: <…>; rel="next"` the
// address of the next page. Never cut silently.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { createResponseSchema, updateResponseSchema } from '../../../shared/schemas/responses.js';
import type { DomainContext } from '../domain/context.js';
import {
  createResponse,
  deleteResponse,
  getResponse,
  mappingsPage,
  repliesPageText,
  rootResponsesPageText,
  type ResponsePageText,
  searchResponses,
  updateResponse,
} from '../domain/responses.js';
import { requireUser, viewerOf, type AppEnv } from '../http/auth.js';
import { keptJson } from '../http/compression.js';
import { fewLargePagesAtOnce } from '../domain/turns.js';
import { badRequest } from '../../../shared/errors.js';
import { NO_RATE_LIMITS, type RateLimits } from '../http/rate-limit.js';
import { apiRoute, serve } from '../openapi/route.js';
import { responseMappingSchema, responseSchema } from '../../../shared/schemas/answers.js';
import { wholeNumberParam } from '../../../shared/schemas/common.js';
import type { ResponsePosition } from '../store/rows.js';
import { PULL_ANSWER_MAX } from '../../../shared/sync-protocol.js';

/** The largest `limit` a call may ask (also the default). */
export const RESPONSES_MAX_LIMIT = 1000;
/**
 * The most responses one answer carries, whatever `limit` asked, as a sync pull (PULL_ANSWER_MAX): a
 * page of 1,000 roots is 650 KB and about 6.5 ms of the event loop, and under 50 such readers at once
 * each waited for the others' pages (p99 0.7-1.3 s, docs/BENCHMARKS.md); the cursor gives the rest.
 */
export const RESPONSES_ANSWER_MAX = PULL_ANSWER_MAX;

export const responsesListQuery = z.object({
  topic_id: z.string().optional().describe('The topic whose roots to list (`404` if there is no such topic).'),
  parent_id: z.string().optional().describe('The response whose direct replies to list (`404` if there is no such response).'),
  limit: z
    .string()
    .regex(/^\d{1,10}$/, 'limit must be a whole number.')
    .transform(Number)
    .refine((n) => n >= 1 && n <= RESPONSES_MAX_LIMIT, `limit must be between 1 and ${RESPONSES_MAX_LIMIT}.`)
    .meta(wholeNumberParam(1, RESPONSES_MAX_LIMIT, RESPONSES_MAX_LIMIT))
    .optional(),
  cursor: z
    .string()
    .max(400, 'cursor is not valid.')
    .optional()
    .describe("An earlier answer's `X-Next-Cursor` (one the server did not make is `400`)."),
});

/** Opaque to clients: the last item's order keys, base64url JSON. */
export function encodeCursor(position: ResponsePosition): string {
  return Buffer.from(JSON.stringify([position.created_at, position.id])).toString('base64url');
}

export function decodeCursor(cursor: string): ResponsePosition {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string' && part.length <= 200)) {
      return { created_at: value[0] as string, id: value[1] as string };
    }
  } catch {
    // not base64url JSON
  }
  throw badRequest('cursor is not valid.');
}

/** The most (id, parent) pairs one mappings answer carries (also its default page). */
export const MAPPINGS_MAX_LIMIT = 5000;

export const mappingsQuery = z.object({
  topic_id: z.string({ error: 'topic_id is required.' }).min(1, 'topic_id is required.'),
  limit: z
    .string()
    .regex(/^\d{1,10}$/, 'limit must be a whole number.')
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAPPINGS_MAX_LIMIT, `limit must be between 1 and ${MAPPINGS_MAX_LIMIT}.`)
    .meta(wholeNumberParam(1, MAPPINGS_MAX_LIMIT, MAPPINGS_MAX_LIMIT))
    .optional(),
  cursor: z.string().max(400, 'cursor is not valid.').optional().describe("An earlier answer's `X-Next-Cursor`."),
});

/** A page already serialised (the same bytes c.json would send), with X-Next-Cursor and Link rel="next" when more follow. */
function sendPageText(c: Context, found: ResponsePageText, limit: number) {
  setNextPage(c, found.next, limit);
  return keptJson(c, found.json);
}

function setNextPage(c: Context, next: ResponsePosition | null, limit: number) {
  if (next) {
    const cursor = encodeCursor(next);
    const url = new URL(c.req.url);
    url.searchParams.set('limit', String(limit));
    url.searchParams.set('cursor', cursor);
    c.header('X-Next-Cursor', cursor);
    c.header('Link', `<${url.pathname}${url.search}>; rel="next"`);
  }
}
const topicQuery = z.object({ topic_id: z.string({ error: 'topic_id is required.' }).min(1, 'topic_id is required.') });
export const responsesSearchQuery = topicQuery.extend({
  q: z.string({ error: 'q is required.' }).max(500, 'q is too long.'),
});

const PAGE_HEADERS_CURSOR = {
  'X-Next-Cursor': 'Present when more follow: the cursor of the next page.',
  Link: 'Present when more follow: `<address of the next page>; rel="next"`.',
};

const responseIdParams = z.object({ id: z.string().describe('The id.') });

const list = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Responses',
  summary: "A topic's root responses, or a response's direct replies",
  description:
    'Give `topic_id` (the roots) or `parent_id` (the direct replies), oldest first, [paged](#paging) by cursor: `limit` 1–1000 ' +
    '(default 1000), at most 200 answered. An expensive read.',
  auth: 'optional',
  query: responsesListQuery,
  queryExample: '?topic_id=T&limit=1000&cursor=…',
  answers: {
    200: { description: 'The responses (`[]` if none).', schema: z.array(responseSchema), headers: PAGE_HEADERS_CURSOR },
  },
  errors: ['invalid-argument', 'not-found'],
  limited: true,
});

const mappings = apiRoute({
  method: 'get',
  path: '/mappings',
  tag: 'Responses',
  summary: "Every `{id, parent_response_id}` of a topic's responses",
  description: '[Paged](#paging) by cursor: `limit` 1–5000 (default 5000). An expensive read.',
  auth: 'optional',
  query: mappingsQuery,
  answers: { 200: { description: 'The pairs.', schema: z.array(responseMappingSchema), headers: PAGE_HEADERS_CURSOR } },
  errors: ['invalid-argument', 'not-found'],
  limited: true,
});

const search = apiRoute({
  method: 'get',
  path: '/search',
  tag: 'Responses',
  summary: "A topic's responses whose content matches",
  description: 'The 20 best. An expensive read.',
  auth: 'optional',
  query: responsesSearchQuery,
  queryExample: '?topic_id=T&q=budget',
  answers: { 200: { description: 'The matches.', schema: z.array(responseSchema) } },
  errors: ['invalid-argument', 'not-found'],
  limited: true,
});

const one = apiRoute({
  method: 'get',
  path: '/{id}',
  tag: 'Responses',
  summary: 'One response',
  auth: 'optional',
  params: responseIdParams,
  answers: { 200: { description: 'The response.', schema: responseSchema } },
  errors: ['not-found'],
});

const create = apiRoute({
  method: 'post',
  path: '/',
  tag: 'Responses',
  summary: 'Post a response or a reply',
  description:
    'A `topic_id` makes a root response, a `parent_response_id` alone is enough for a reply. A quote must be in the same topic. ' +
    'A client may send its own `id` (a retried create answers `201` with what landed the first time). ' +
    'A new account (docs/MODERATION.md) citing more than NEW_USER_LINKS links (sources and links in the Markdown text), or the same content posted more than SPAM_REPEATS times in SPAM_WINDOW_MINUTES, is `400`.',
  auth: 'required',
  body: {
    schema: createResponseSchema,
    required: true,
    example: {
      content: '…',
      type: 'for',
      topic_id: 'T',
      parent_response_id: null,
      quoted_response_id: null,
      sources: [{ url: 'https://example.org/report', name: 'A report', description: 'Where the figure comes from' }],
    },
  },
  answers: { 201: { description: 'The new response.', schema: responseSchema } },
  errors: ['invalid-argument', 'not-found', 'already-exists'],
});

const edit = apiRoute({
  method: 'put',
  path: '/{id}',
  tag: 'Responses',
  summary: 'Edit a response (creator only)',
  description:
    'Content, quote and sources only; a field left out stays as it was, `null`/`[]` clear. A new account citing more than NEW_USER_LINKS links (sources and links in the Markdown text) is `400`.',
  auth: 'required',
  params: responseIdParams,
  body: { schema: updateResponseSchema, required: true, example: { content: '…', quoted_response_id: null, sources: [] } },
  answers: { 200: { description: 'The response as edited.', schema: responseSchema } },
  errors: ['invalid-argument', 'permission-denied', 'not-found'],
});

const remove = apiRoute({
  method: 'delete',
  path: '/{id}',
  tag: 'Responses',
  summary: 'Delete a response and its whole subtree (creator only)',
  auth: 'required',
  params: responseIdParams,
  answers: { 204: { description: 'Deleted.' } },
  errors: ['permission-denied', 'not-found'],
});

export function responsesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, list, async (c, read) => {
    const query = read.query();
    const viewer = viewerOf(c);
    const limit = query.limit ?? RESPONSES_MAX_LIMIT;
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    if (!query.topic_id && !query.parent_id) throw badRequest('Give topic_id or parent_id.');
    await limits.read(c, c.get('user'));
    // A page of up to RESPONSES_ANSWER_MAX responses: one SQLite statement of about a millisecond (store/sqlite/response-json.ts), a few at once (domain/turns.ts).
    return fewLargePagesAtOnce(async () => {
      const answered = Math.min(limit, RESPONSES_ANSWER_MAX);
      if (query.topic_id) return sendPageText(c, await rootResponsesPageText(ctx, query.topic_id, viewer, after, answered), limit);
      return sendPageText(c, await repliesPageText(ctx, query.parent_id!, viewer, after, answered), limit);
    });
  });
  serve(app, mappings, async (c, read) => {
    const query = read.query();
    const limit = query.limit ?? MAPPINGS_MAX_LIMIT;
    const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
    await limits.read(c, c.get('user'));
    // One short call serialises the page (store: mappingsPage), but 50 of them in one pass of the loop
    // would still hold it for 50 pages: the gate lets a few through a turn, first come, first served.
    return fewLargePagesAtOnce(async () => {
      const found = await mappingsPage(ctx, query.topic_id, after, limit);
      setNextPage(c, found.next, limit);
      return c.body(found.json, 200, { 'Content-Type': 'application/json' });
    });
  });
  serve(app, search, async (c, read) => {
    const query = read.query();
    await limits.read(c, c.get('user'));
    return c.json(await searchResponses(ctx, query.topic_id, query.q, viewerOf(c)));
  });
  serve(app, one, async (c, read) => c.json(await getResponse(ctx, read.params().id, viewerOf(c))));
  serve(app, create, async (c, read) => {
    const user = requireUser(c, MSG.loginToPostResponse);
    return c.json(await createResponse(ctx, user, await read.json()), 201);
  });
  serve(app, edit, async (c, read) => {
    const user = requireUser(c, MSG.loginToEditResponse);
    return c.json(await updateResponse(ctx, user, read.params().id, await read.json()));
  });
  serve(app, remove, async (c, read) => {
    const user = requireUser(c, MSG.loginToDeleteResponse);
    await deleteResponse(ctx, user, read.params().id);
    return c.body(null, 204);
  });
  return app;
}
