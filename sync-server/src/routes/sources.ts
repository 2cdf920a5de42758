// /api/sources: the sources page list, or a search by name, URL and description.
import { Hono } from 'hono';
import { z } from 'zod';
import { ftsQuery } from '../../../shared/rules/search-words.js';
import type { DomainContext } from '../domain/context.js';
import type { AppEnv } from '../http/auth.js';
import { readQuery } from '../http/validate.js';

const SEARCH_LIMIT = 20;
const PAGE_LIMIT = 500;
const query = z.object({ q: z.string().max(500, 'q is too long.').optional() });

export function sourcesRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>().get('/', (c) => {
    const { q } = readQuery(c, query);
    if (q === undefined) return c.json(ctx.store.sources.all(PAGE_LIMIT));
    const match = ftsQuery(q);
    return c.json(match === null ? [] : ctx.store.sources.search(match, SEARCH_LIMIT));
  });
}
