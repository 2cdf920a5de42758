// /api/topics: list (sorted, by category, searched), categories, one, create, delete.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { CATEGORIES } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { categoriesSchema, topicSchema } from '../../../shared/schemas/answers.js';
import { createTopicSchema, listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import type { DomainContext } from '../domain/context.js';
import { createTopic, deleteTopic, getTopicJson, listTopicsJson } from '../domain/topics.js';
import { fewSearchesAtOnce } from '../domain/turns.js';
import { requireUser, viewerOf, type AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { apiRoute, serve } from '../openapi/route.js';

export const topicIdParams = z.object({ id: z.string().describe("The topic's id.") });

const list = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Topics',
  summary: 'A page of topics, or a search',
  description:
    '`sort` hot (default), new or top; `limit` 1–100 (default 20), `offset` at most 10,000; `category` one of the fixed list. ' +
    'With `search`, the topics whose title matches (FTS5, prefix per word), in the same `sort`. ' +
    'A search and a page past the first are expensive reads.',
  auth: 'optional',
  query: listTopicsQuerySchema,
  queryExample: '?sort=hot&limit=20&offset=0&category=Science',
  answers: { 200: { description: 'The topics (`[]` if none).', schema: z.array(topicSchema) } },
  errors: ['invalid-argument'],
  limited: true,
});

const categories = apiRoute({
  method: 'get',
  path: '/categories',
  tag: 'Topics',
  summary: 'The fixed category list',
  auth: 'optional',
  answers: { 200: { description: 'The categories.', schema: categoriesSchema } },
});

const one = apiRoute({
  method: 'get',
  path: '/{id}',
  tag: 'Topics',
  summary: 'One topic',
  auth: 'optional',
  params: topicIdParams,
  answers: { 200: { description: 'The topic.', schema: topicSchema } },
  errors: ['not-found'],
});

const create = apiRoute({
  method: 'post',
  path: '/',
  tag: 'Topics',
  summary: 'Create a topic',
  description:
    'A client may send its own `id`; a retried create by the same user answers `201` with the topic that landed the first time. ' +
    'Fields the server computes may be sent back (they are ignored); any other unknown field is refused. ' +
    'A new account (docs/MODERATION.md) past NEW_USER_TOPICS_PER_DAY topics in 24 h is `403`; the same title posted more than SPAM_REPEATS times in SPAM_WINDOW_MINUTES is `400`.',
  auth: 'required',
  body: { schema: createTopicSchema, required: true, example: { title: 'Is tea better?', categories: ['Culture'] } },
  answers: { 201: { description: 'The new topic.', schema: topicSchema } },
  errors: ['invalid-argument', 'permission-denied', 'already-exists'],
});

const remove = apiRoute({
  method: 'delete',
  path: '/{id}',
  tag: 'Topics',
  summary: 'Delete a topic (creator only)',
  description: 'Removes its responses, votes and notifications.',
  auth: 'required',
  params: topicIdParams,
  answers: { 204: { description: 'Deleted.' } },
  errors: ['permission-denied', 'not-found'],
});

export function topicsRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, list, async (c, read) => {
    const query = read.query();
    // A search is an expensive read (writes are limited in app.ts for every route), and so is a
    // page past the first: the database walks every row before the offset.
    if (query.search !== undefined) await limits.read(c, c.get('user'));
    else if (query.offset > 0) await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
    // Ready JSON bytes, kept between changes of the topics (listTopicsJson): what c.json would send.
    const answer = async () => c.body(await listTopicsJson(ctx, query, viewerOf(c)), 200, { 'Content-Type': 'application/json' });
    // A search is a few tenths of a millisecond on SQLite's title index (store/sqlite/title-index.ts): not
    // a large page, but many at once would still make one long pass of the loop; a gate of its own.
    return query.search === undefined ? answer() : fewSearchesAtOnce(answer);
  });
  serve(app, categories, (c) => c.json([...CATEGORIES]));
  // The bytes c.json would send; a signed-out reader's kept until a topic changes (domain/topics.ts).
  serve(app, one, async (c, read) =>
    c.body(await getTopicJson(ctx, read.params().id, viewerOf(c)), 200, { 'Content-Type': 'application/json' }),
  );
  serve(app, create, async (c, read) => {
    const user = requireUser(c, MSG.loginToCreateTopic);
    const input = await read.json();
    return c.json(await createTopic(ctx, user, input), 201);
  });
  serve(app, remove, async (c, read) => {
    const user = requireUser(c, MSG.loginToDeleteTopic);
    await deleteTopic(ctx, user, read.params().id);
    return c.body(null, 204);
  });
  return app;
}
