// /api/blocks: the caller's blocked users (GET), block one (PUT) and unblock (DELETE).
// Only the caller ever reads their list; nothing here answers anyone else.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { blockedUserSchema } from '../../../shared/schemas/answers.js';
import { listBlocks, setBlock, toBlockedUser } from '../domain/blocks.js';
import type { DomainContext } from '../domain/context.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';
import { uidParams } from './users.js';

const list = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Blocks',
  summary: 'The users the caller blocked',
  description:
    "Most recently blocked first. Private: nobody else ever reads a user's blocks, and nothing tells the blocked user. Their replies " +
    'no longer notify the caller; the app collapses their topics and responses. Also replicated as the `blocks` collection.',
  auth: 'required',
  answers: { 200: { description: 'The blocked users.', schema: z.array(blockedUserSchema) } },
});

const block = apiRoute({
  method: 'put',
  path: '/{uid}',
  tag: 'Blocks',
  summary: 'Block a user',
  description: 'No body. Blocking again changes nothing. Yourself: `400`; a user the server does not know: `404`.',
  auth: 'required',
  params: uidParams,
  answers: { 200: { description: 'Blocked.', schema: blockedUserSchema } },
  errors: ['invalid-argument', 'not-found'],
});

const unblock = apiRoute({
  method: 'delete',
  path: '/{uid}',
  tag: 'Blocks',
  summary: 'Unblock a user',
  description: 'No body. `204` also when the user was not blocked.',
  auth: 'required',
  params: uidParams,
  answers: { 204: { description: 'Unblocked (or was not blocked).' } },
  errors: ['invalid-argument', 'not-found'],
});

export function blocksRoutes(ctx: DomainContext) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, list, async (c) => {
    const user = requireUser(c, MSG.loginToBlock);
    return c.json(await listBlocks(ctx, user));
  });
  serve(app, block, async (c, read) => {
    const user = requireUser(c, MSG.loginToBlock);
    const { row } = await setBlock(ctx, user, read.params().uid, true);
    return c.json(toBlockedUser(row!), 200);
  });
  serve(app, unblock, async (c, read) => {
    const user = requireUser(c, MSG.loginToBlock);
    await setBlock(ctx, user, read.params().uid, false);
    return c.body(null, 204);
  });
  return app;
}
