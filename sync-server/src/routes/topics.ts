// /api/topics: list (sorted, by category, searched), categories, one, create, delete.
import { Hono } from 'hono';
import { CATEGORIES } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { createTopicSchema, listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import type { DomainContext } from '../domain/context.js';
import { createTopic, deleteTopic, getTopic, listTopicsJson } from '../domain/topics.js';
import { requireUser, viewerOf, type AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { readJson, readQuery } from '../http/validate.js';

export function topicsRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const query = readQuery(c, listTopicsQuerySchema);
      // A search is an expensive read (writes are limited in app.ts for every route), and so is a
      // page past the first: the database walks every row before the offset.
      if (query.search !== undefined) await limits.read(c, c.get('user'));
      else if (query.offset > 0) await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
      // Ready JSON bytes, kept between changes of the topics (listTopicsJson): what c.json would send.
      return c.body(await listTopicsJson(ctx, query, viewerOf(c)), 200, { 'Content-Type': 'application/json' });
    })
    .get('/categories', async (c) => c.json([...CATEGORIES]))
    .get('/:id', async (c) => c.json(await getTopic(ctx, c.req.param('id'), viewerOf(c))))
    .post('/', async (c) => {
      const user = requireUser(c, MSG.loginToCreateTopic);
      const input = await readJson(c, createTopicSchema);
      return c.json(await createTopic(ctx, user, input), 201);
    })
    .delete('/:id', async (c) => {
      const user = requireUser(c, MSG.loginToDeleteTopic);
      await deleteTopic(ctx, user, c.req.param('id'));
      return c.body(null, 204);
    });
}
