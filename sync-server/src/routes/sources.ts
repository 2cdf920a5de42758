// /api/sources: the sources page list (paged, filtered), a search by name, URL and
// description (?q=, the composer's suggestions), and the responses citing a source.
// Lists stay JSON arrays, as the API promises; what is left is said in headers, never cut silently:
// X-Total-Count, X-Next-Offset (absent on the last page) and Link rel="next".
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import { notFound } from '../../../shared/errors.js';
import type { DomainContext } from '../domain/context.js';
import type { AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, type RateLimits } from '../http/rate-limit.js';
import { apiRoute, serve } from '../openapi/route.js';
import { sourceCitationSchema, sourceListingSchema, sourceSchema } from '../../../shared/schemas/answers.js';
import { wholeNumberParam } from '../../../shared/schemas/common.js';

const SEARCH_LIMIT = 20;
export const SOURCES_DEFAULT_LIMIT = 100;
export const SOURCES_MAX_LIMIT = 500;

const whole = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${name} must be a whole number.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}.`)
    .meta(wholeNumberParam(min, max, fallback));

const paging = {
  limit: whole('limit', 1, SOURCES_MAX_LIMIT, SOURCES_DEFAULT_LIMIT).optional(),
  offset: whole('offset', 0, 1_000_000_000, 0).optional(),
};

export const sourcesListQuery = z
  .object({
    q: z.string().max(500, 'q is too long.').optional().describe('A search (name, URL, description): the 20 best, unpaged.'),
    filter: z
      .string()
      .max(500, 'filter is too long.')
      .optional()
      .describe('Narrows the pages to sources whose name, URL or description contains it.'),
    include: z.enum(['citations'], { message: 'include must be "citations".' }).optional(),
    ...paging,
  })
  .strict();
export const sourceCitationsQuery = z.object(paging).strict();

function pageHeaders(c: Context, offset: number, shown: number, total: number) {
  c.header('X-Total-Count', String(total));
  if (shown > 0 && offset + shown < total) {
    const next = new URL(c.req.url);
    next.searchParams.set('offset', String(offset + shown));
    c.header('X-Next-Offset', String(offset + shown));
    c.header('Link', `<${next.pathname}${next.search}>; rel="next"`);
  }
}

const PAGE_HEADERS_OFFSET = {
  'X-Total-Count': 'How many items the whole list has.',
  'X-Next-Offset': 'Present when more follow: the offset of the next page.',
  Link: 'Present when more follow: `<address of the next page>; rel="next"`.',
};

const list = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Sources',
  summary: 'The sources catalogue by page, or a search',
  description:
    'Without `q`: sources by page (`limit` 1–500, default 100, `offset`), optionally narrowed by `filter`; `include=citations` adds ' +
    '`cited_by` (5 newest) and `cited_count`. With `q`: the sources matching name, URL or description, the 20 best (the ' +
    "composer's suggestions), unpaged. An expensive read.",
  auth: 'optional',
  query: sourcesListQuery,
  queryExample: '?limit=100&offset=0&filter=who&include=citations',
  answers: {
    200: {
      description: 'The sources (`SourceListing` with `include=citations`).',
      schema: z.union([z.array(sourceSchema), z.array(sourceListingSchema)]),
      headers: PAGE_HEADERS_OFFSET,
    },
  },
  errors: ['invalid-argument'],
  limited: true,
});

const citing = apiRoute({
  method: 'get',
  path: '/{id}/responses',
  tag: 'Sources',
  summary: 'The live responses citing a source',
  description: '[Paged](#paging) by `limit` (1–500, default 100) and `offset`. An expensive read.',
  auth: 'optional',
  params: z.object({ id: z.string().describe("The source's id.") }),
  query: sourceCitationsQuery,
  answers: { 200: { description: 'The citing responses.', schema: z.array(sourceCitationSchema), headers: PAGE_HEADERS_OFFSET } },
  errors: ['invalid-argument', 'not-found'],
  limited: true,
});

export function sourcesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, list, async (c, read) => {
    const { q, filter, include, limit = SOURCES_DEFAULT_LIMIT, offset = 0 } = read.query();
    await limits.read(c, c.get('user'));
    if (q !== undefined) {
      const match = ftsQuery(q);
      return c.json(match === null ? [] : await ctx.store.sources.searchCited(match, SEARCH_LIMIT));
    }
    const { items, total } = await ctx.store.sources.page({
      filter: filter?.trim() || null,
      limit,
      offset,
      citations: include === 'citations',
    });
    pageHeaders(c, offset, items.length, total);
    return c.json(items);
  });
  serve(app, citing, async (c, read) => {
    const { limit = SOURCES_DEFAULT_LIMIT, offset = 0 } = read.query();
    await limits.read(c, c.get('user'));
    const found = await ctx.store.sources.citations(read.params().id, limit, offset);
    if (!found) throw notFound('Source not found.');
    pageHeaders(c, offset, found.items.length, found.total);
    return c.json(found.items);
  });
  return app;
}
