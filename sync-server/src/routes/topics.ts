// /api/topics: list (sorted, by category, searched), categories, one, create, delete.
import { Hono } from 'hono';
import { CATEGORIES } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { createTopicSchema, listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import type { DomainContext } from '../domain/context.js';
import { createTopic, deleteTopic, getTopic, listTopics } from '../domain/topics.js';
import { requireUser, viewerOf, type AppEnv } from '../http/auth.js';
import { readJson, readQuery } from '../http/validate.js';

export function topicsRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .get('/', (c) => c.json(listTopics(ctx, readQuery(c, listTopicsQuerySchema), viewerOf(c))))
    .get('/categories', (c) => c.json([...CATEGORIES]))
    .get('/:id', (c) => c.json(getTopic(ctx, c.req.param('id'), viewerOf(c))))
    .post('/', async (c) => {
      const user = requireUser(c, MSG.loginToCreateTopic);
      const input = await readJson(c, createTopicSchema);
      return c.json(createTopic(ctx, user, input), 201);
    })
    .delete('/:id', (c) => {
      const user = requireUser(c, MSG.loginToDeleteTopic);
      deleteTopic(ctx, user, c.req.param('id'));
      return c.body(null, 204);
    });
}
