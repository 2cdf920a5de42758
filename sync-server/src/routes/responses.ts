// /api/responses: a topic's roots or a response's replies, mappings, search, one,
// create, inline edit and subtree delete.
// The lists are paged (docs/API.md "Paging"): the body stays SPEC.md §7's plain
// array, at most `limit` (default and maximum RESPONSES_MAX_LIMIT) long; when more
// follow, `X-Next-Cursor` holds an opaque cursor and `Link: <…>; rel="next"` the
// address of the next page. Never cut silently.
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { createResponseSchema, updateResponseSchema } from '../../../shared/schemas/responses.js';
import type { DomainContext } from '../domain/context.js';
import {
  createResponse,
  deleteResponse,
  getResponse,
  mappingsPage,
  type MappingPage,
  repliesPage,
  rootResponsesPageText,
  type ResponsePageText,
  searchResponses,
  type ResponsePage,
  updateResponse,
} from '../domain/responses.js';
import { requireUser, viewerOf, type AppEnv } from '../http/auth.js';
import { keptJson } from '../http/compression.js';
import { badRequest } from '../../../shared/errors.js';
import { NO_RATE_LIMITS, type RateLimits } from '../http/rate-limit.js';
import { readJson, readQuery } from '../http/validate.js';
import type { ResponsePosition } from '../store/rows.js';

/** The most responses one answer carries (also the default page). */
export const RESPONSES_MAX_LIMIT = 1000;

export const responsesListQuery = z.object({
  topic_id: z.string().optional(),
  parent_id: z.string().optional(),
  limit: z
    .string()
    .regex(/^\d{1,10}$/, 'limit must be a whole number.')
    .transform(Number)
    .refine((n) => n >= 1 && n <= RESPONSES_MAX_LIMIT, `limit must be between 1 and ${RESPONSES_MAX_LIMIT}.`)
    .optional(),
  cursor: z.string().max(400, 'cursor is not valid.').optional(),
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
    .optional(),
  cursor: z.string().max(400, 'cursor is not valid.').optional(),
});

/** The page's items, with X-Next-Cursor and Link rel="next" when more follow. */
function sendPage(c: Context, found: ResponsePage | MappingPage, limit: number) {
  setNextPage(c, found.next, limit);
  return c.json(found.items);
}

/** The same for a page already serialised (the same bytes c.json would send), compressed once per kept page. */
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

export function responsesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const query = readQuery(c, responsesListQuery);
      const viewer = viewerOf(c);
      const limit = query.limit ?? RESPONSES_MAX_LIMIT;
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      if (!query.topic_id && !query.parent_id) throw badRequest('Give topic_id or parent_id.');
      await limits.read(c, c.get('user'));
      if (query.topic_id) return sendPageText(c, await rootResponsesPageText(ctx, query.topic_id, viewer, after, limit), limit);
      return sendPage(c, await repliesPage(ctx, query.parent_id!, viewer, after, limit), limit);
    })
    .get('/mappings', async (c) => {
      const query = readQuery(c, mappingsQuery);
      const limit = query.limit ?? MAPPINGS_MAX_LIMIT;
      const after = query.cursor === undefined ? null : decodeCursor(query.cursor);
      await limits.read(c, c.get('user'));
      return sendPage(c, await mappingsPage(ctx, query.topic_id, after, limit), limit);
    })
    .get('/search', async (c) => {
      const query = readQuery(c, responsesSearchQuery);
      await limits.read(c, c.get('user'));
      return c.json(await searchResponses(ctx, query.topic_id, query.q, viewerOf(c)));
    })
    .get('/:id', async (c) => c.json(await getResponse(ctx, c.req.param('id'), viewerOf(c))))
    .post('/', async (c) => {
      const user = requireUser(c, MSG.loginToPostResponse);
      return c.json(await createResponse(ctx, user, await readJson(c, createResponseSchema)), 201);
    })
    .put('/:id', async (c) => {
      const user = requireUser(c, MSG.loginToEditResponse);
      return c.json(await updateResponse(ctx, user, c.req.param('id'), await readJson(c, updateResponseSchema)));
    })
    .delete('/:id', async (c) => {
      const user = requireUser(c, MSG.loginToDeleteResponse);
      await deleteResponse(ctx, user, c.req.param('id'));
      return c.body(null, 204);
    });
}
