// /api/upvotes: add (POST) and remove (DELETE with a JSON body) the caller's vote.
import { Hono } from 'hono';
import { MSG } from '../../../shared/messages.js';
import { upvoteSchema } from '../../../shared/schemas/upvotes.js';
import type { DomainContext } from '../domain/context.js';
import { setVote } from '../domain/votes.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { readJson } from '../http/validate.js';

export function upvotesRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .post('/', async (c) => {
      const user = requireUser(c, MSG.loginToVote);
      const input = await readJson(c, upvoteSchema);
      const { result, changed } = await setVote(ctx, user, input.target_type, input.target_id, true);
      return c.json(result, changed ? 201 : 200);
    })
    .delete('/', async (c) => {
      const user = requireUser(c, MSG.loginToVote);
      const input = await readJson(c, upvoteSchema);
      await setVote(ctx, user, input.target_type, input.target_id, false);
      return c.body(null, 204);
    });
}
