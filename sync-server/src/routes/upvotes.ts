// /api/upvotes: add (POST) and remove (DELETE with a JSON body) the caller's vote.
import { OpenAPIHono } from '@hono/zod-openapi';
import { MSG } from '../../../shared/messages.js';
import { upvoteResultSchema } from '../../../shared/schemas/answers.js';
import { upvoteSchema } from '../../../shared/schemas/upvotes.js';
import type { DomainContext } from '../domain/context.js';
import { setVote } from '../domain/votes.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

const add = apiRoute({
  method: 'post',
  path: '/',
  tag: 'Votes',
  summary: "Add the caller's upvote",
  description: '`201` when added, `200` when it already was. `target_creator_uid` is accepted and ignored (the real creator is used).',
  auth: 'required',
  body: { schema: upvoteSchema, required: true, example: { target_type: 'topic', target_id: 'T', target_creator_uid: 'U' } },
  answers: {
    201: { description: 'Added.', schema: upvoteResultSchema },
    200: { description: 'It already was.', schema: upvoteResultSchema },
  },
  errors: ['invalid-argument', 'not-found'],
});

const remove = apiRoute({
  method: 'delete',
  path: '/',
  tag: 'Votes',
  summary: "Remove the caller's upvote",
  description: 'The target travels in the JSON body.',
  auth: 'required',
  body: { schema: upvoteSchema, required: true, example: { target_type: 'response', target_id: 'R' } },
  answers: { 204: { description: 'Removed (or there was none).' } },
  errors: ['invalid-argument', 'not-found'],
});

export function upvotesRoutes(ctx: DomainContext) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, add, async (c, read) => {
    const user = requireUser(c, MSG.loginToVote);
    const input = await read.json();
    const { result, changed } = await setVote(ctx, user, input.target_type, input.target_id, true);
    return c.json(result, changed ? 201 : 200);
  });
  serve(app, remove, async (c, read) => {
    const user = requireUser(c, MSG.loginToVote);
    const input = await read.json();
    await setVote(ctx, user, input.target_type, input.target_id, false);
    return c.body(null, 204);
  });
  return app;
}
