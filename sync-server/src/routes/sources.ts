// /api/sources: the sources page list (paged, filtered), a search by name, URL and
// description (?q=, the composer's suggestions), and the responses citing a source.
// Lists stay JSON arrays (DESIGN.md); what is left is said in headers, never cut silently:
// X-Total-Count, X-Next-Offset (absent on the last page) and Link rel="next".
import type { Context } from 'hono';
import { Hono } from 'hono';
import { z } from 'zod';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import { notFound } from '../../../shared/errors.js';
import type { DomainContext } from '../domain/context.js';
import type { AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, type RateLimits } from '../http/rate-limit.js';
import { readQuery } from '../http/validate.js';

const SEARCH_LIMIT = 20;
export const SOURCES_DEFAULT_LIMIT = 100;
export const SOURCES_MAX_LIMIT = 500;

const whole = (name: string, min: number, max: number) =>
  z
    .string()
    .regex(/^\d{1,10}$/, `${name} must be a whole number.`)
    .transform(Number)
    .refine((n) => n >= min && n <= max, `${name} must be between ${min} and ${max}.`);

const paging = {
  limit: whole('limit', 1, SOURCES_MAX_LIMIT).optional(),
  offset: whole('offset', 0, 1_000_000_000).optional(),
};

export const sourcesListQuery = z
  .object({
    q: z.string().max(500, 'q is too long.').optional(),
    filter: z.string().max(500, 'filter is too long.').optional(),
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

export function sourcesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const { q, filter, include, limit = SOURCES_DEFAULT_LIMIT, offset = 0 } = readQuery(c, sourcesListQuery);
      await limits.read(c, c.get('user'));
      if (q !== undefined) {
        const match = ftsQuery(q);
        return c.json(match === null ? [] : await ctx.store.sources.search(match, SEARCH_LIMIT));
      }
      const { items, total } = await ctx.store.sources.page({
        filter: filter?.trim() || null,
        limit,
        offset,
        citations: include === 'citations',
      });
      pageHeaders(c, offset, items.length, total);
      return c.json(items);
    })
    .get('/:id/responses', async (c) => {
      const { limit = SOURCES_DEFAULT_LIMIT, offset = 0 } = readQuery(c, sourceCitationsQuery);
      await limits.read(c, c.get('user'));
      const found = await ctx.store.sources.citations(c.req.param('id'), limit, offset);
      if (!found) throw notFound('Source not found.');
      pageHeaders(c, offset, found.items.length, found.total);
      return c.json(found.items);
    });
}
