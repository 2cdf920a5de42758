// /api/follows (issue 26 #3): the topics the caller follows (GET), follow one (PUT) and unfollow
// (DELETE). Only the caller ever reads their list; nothing here answers anyone else.
import { Hono } from 'hono';
import { MSG } from '../../../shared/messages.js';
import { listFollows, setFollow, toFollowedTopic } from '../domain/follows.js';
import type { DomainContext } from '../domain/context.js';
import { requireUser, type AppEnv } from '../http/auth.js';

export function followsRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const user = requireUser(c, MSG.loginToFollow);
      return c.json(await listFollows(ctx, user));
    })
    .put('/:topic_id', async (c) => {
      const user = requireUser(c, MSG.loginToFollow);
      const { row } = await setFollow(ctx, user, c.req.param('topic_id'), true);
      return c.json(toFollowedTopic(row!), 200);
    })
    .delete('/:topic_id', async (c) => {
      const user = requireUser(c, MSG.loginToFollow);
      await setFollow(ctx, user, c.req.param('topic_id'), false);
      return c.body(null, 204);
    });
}
