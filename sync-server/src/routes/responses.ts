// /api/responses: a topic's roots or a response's replies, mappings, search, one,
// create, inline edit and subtree delete.
import { Hono } from 'hono';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { createResponseSchema, updateResponseSchema } from '../../../shared/schemas/responses.js';
import type { DomainContext } from '../domain/context.js';
import {
  createResponse,
  deleteResponse,
  getResponse,
  mappings,
  replies,
  rootResponses,
  searchResponses,
  updateResponse,
} from '../domain/responses.js';
import { requireUser, viewerOf, type AppEnv } from '../http/auth.js';
import { badRequest } from '../../../shared/errors.js';
import { readJson, readQuery } from '../http/validate.js';

const listQuery = z.object({ topic_id: z.string().optional(), parent_id: z.string().optional() });
const topicQuery = z.object({ topic_id: z.string({ error: 'topic_id is required.' }).min(1, 'topic_id is required.') });
const searchQuery = topicQuery.extend({
  q: z.string({ error: 'q is required.' }).max(500, 'q is too long.'),
});

export function responsesRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .get('/', (c) => {
      const query = readQuery(c, listQuery);
      const viewer = viewerOf(c);
      if (query.topic_id) return c.json(rootResponses(ctx, query.topic_id, viewer));
      if (query.parent_id) return c.json(replies(ctx, query.parent_id, viewer));
      throw badRequest('Give topic_id or parent_id.');
    })
    .get('/mappings', (c) => c.json(mappings(ctx, readQuery(c, topicQuery).topic_id)))
    .get('/search', (c) => {
      const query = readQuery(c, searchQuery);
      return c.json(searchResponses(ctx, query.topic_id, query.q, viewerOf(c)));
    })
    .get('/:id', (c) => c.json(getResponse(ctx, c.req.param('id'), viewerOf(c))))
    .post('/', async (c) => {
      const user = requireUser(c, MSG.loginToPostResponse);
      return c.json(createResponse(ctx, user, await readJson(c, createResponseSchema)), 201);
    })
    .put('/:id', async (c) => {
      const user = requireUser(c, MSG.loginToEditResponse);
      return c.json(updateResponse(ctx, user, c.req.param('id'), await readJson(c, updateResponseSchema)));
    })
    .delete('/:id', (c) => {
      const user = requireUser(c, MSG.loginToDeleteResponse);
      deleteResponse(ctx, user, c.req.param('id'));
      return c.body(null, 204);
    });
}
