// /api/downvotes and /api/passes: the caller's disagree and pass on a response, beside the upvote
// (/api/upvotes, the agree). One vote per person and response: casting one replaces the other two;
// DELETE takes back only a vote of its own kind. Neither moves a score or anyone's points.
import { OpenAPIHono } from '@hono/zod-openapi';
import { VOTE_VALUES, type VoteKind } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { voteResultSchema } from '../../../shared/schemas/answers.js';
import { responseVoteSchema } from '../../../shared/schemas/upvotes.js';
import type { DomainContext } from '../domain/context.js';
import { castVote } from '../domain/votes.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

const WORDS: Record<Exclude<VoteKind, 'agree'>, { name: string; meaning: string }> = {
  disagree: { name: 'disagree (downvote)', meaning: 'The caller disagrees with the response.' },
  pass: { name: 'pass', meaning: 'The caller read the response and has no opinion on it.' },
};

function routesFor(kind: Exclude<VoteKind, 'agree'>) {
  const { name, meaning } = WORDS[kind];
  const add = apiRoute({
    method: 'post',
    path: '/',
    tag: 'Votes',
    summary: `Cast the caller's ${name} on a response`,
    description:
      `${meaning} It replaces the caller's agree (upvote) or other vote on the response: an agree taken back this way ` +
      "lowers the score and the author's points by one, as DELETE /api/upvotes would; the " +
      `${kind} itself never changes a score or anyone's points. \`201\` when cast or changed, \`200\` when it already was. ` +
      'Only a response takes it (a topic: `400`). `target_creator_uid` is accepted and ignored.',
    auth: 'required',
    body: { schema: responseVoteSchema, required: true, example: { target_type: 'response', target_id: 'R' } },
    answers: {
      201: { description: 'Cast, or changed to it.', schema: voteResultSchema },
      200: { description: 'It already was.', schema: voteResultSchema },
    },
    errors: ['invalid-argument', 'not-found'],
  });
  const remove = apiRoute({
    method: 'delete',
    path: '/',
    tag: 'Votes',
    summary: `Take back the caller's ${name} on a response`,
    description: `The target travels in the JSON body. Only a ${kind} is taken back: another vote of the caller stays.`,
    auth: 'required',
    body: { schema: responseVoteSchema, required: true, example: { target_type: 'response', target_id: 'R' } },
    answers: { 204: { description: 'Taken back (or there was none).' } },
    errors: ['invalid-argument', 'not-found'],
  });
  return { add, remove };
}

/** The routes of one kind of opinion vote, mounted at /api/downvotes (disagree) or /api/passes (pass). */
export function opinionVoteRoutes(ctx: DomainContext, kind: Exclude<VoteKind, 'agree'>) {
  const app = new OpenAPIHono<AppEnv>();
  const { add, remove } = routesFor(kind);
  const value = VOTE_VALUES[kind];
  serve(app, add, async (c, read) => {
    const user = requireUser(c, MSG.loginToVote);
    const input = await read.json();
    const { result, changed } = await castVote(ctx, user, input.target_type, input.target_id, value);
    return c.json(result, changed ? 201 : 200);
  });
  serve(app, remove, async (c, read) => {
    const user = requireUser(c, MSG.loginToVote);
    const input = await read.json();
    await castVote(ctx, user, input.target_type, input.target_id, null, value);
    return c.body(null, 204);
  });
  return app;
}
