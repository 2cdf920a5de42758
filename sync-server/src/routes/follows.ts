// /api/follows: the topics the caller follows (GET), follow one (PUT) and unfollow (DELETE).
// Only the caller ever reads their list; nothing here answers anyone else.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { followedTopicSchema } from '../../../shared/schemas/answers.js';
import { listFollows, setFollow, toFollowedTopic } from '../domain/follows.js';
import type { DomainContext } from '../domain/context.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

const topicParams = z.object({ topic_id: z.string().describe("The topic's id.") });

const list = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Follows',
  summary: 'The topics the caller follows',
  description:
    'Live topics only, most recently followed first. Private: nobody else ever reads them. A follower is notified ' +
    '(`reply_in_followed_topic`) of new root responses, at most 3 per topic and hour. Also replicated as the `follows` collection.',
  auth: 'required',
  answers: { 200: { description: 'The followed topics.', schema: z.array(followedTopicSchema) } },
});

const follow = apiRoute({
  method: 'put',
  path: '/{topic_id}',
  tag: 'Follows',
  summary: 'Follow a topic',
  description: 'No body. Following again changes nothing. A topic that does not exist or was deleted: `404`.',
  auth: 'required',
  params: topicParams,
  answers: { 200: { description: 'Followed.', schema: followedTopicSchema } },
  errors: ['not-found'],
});

const unfollow = apiRoute({
  method: 'delete',
  path: '/{topic_id}',
  tag: 'Follows',
  summary: 'Unfollow a topic',
  description:
    'No body. `204` also when the topic was not followed. The unfollow is kept: creating or replying in the topic later does not follow it again.',
  auth: 'required',
  params: topicParams,
  answers: { 204: { description: 'Unfollowed (or was not followed).' } },
});

export function followsRoutes(ctx: DomainContext) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, list, async (c) => {
    const user = requireUser(c, MSG.loginToFollow);
    return c.json(await listFollows(ctx, user));
  });
  serve(app, follow, async (c, read) => {
    const user = requireUser(c, MSG.loginToFollow);
    const { row } = await setFollow(ctx, user, read.params().topic_id, true);
    return c.json(toFollowedTopic(row!), 200);
  });
  serve(app, unfollow, async (c, read) => {
    const user = requireUser(c, MSG.loginToFollow);
    await setFollow(ctx, user, read.params().topic_id, false);
    return c.body(null, 204);
  });
  return app;
}
