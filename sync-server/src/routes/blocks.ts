// /api/blocks (issue 23): the caller's blocked users (GET), block one (PUT) and unblock (DELETE).
// Only the caller ever reads their list; nothing here answers anyone else.
import { Hono } from 'hono';
import { MSG } from '../../../shared/messages.js';
import { listBlocks, setBlock, toBlockedUser } from '../domain/blocks.js';
import type { DomainContext } from '../domain/context.js';
import { requireUser, type AppEnv } from '../http/auth.js';

export function blocksRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .get('/', async (c) => {
      const user = requireUser(c, MSG.loginToBlock);
      return c.json(await listBlocks(ctx, user));
    })
    .put('/:uid', async (c) => {
      const user = requireUser(c, MSG.loginToBlock);
      const { row } = await setBlock(ctx, user, c.req.param('uid'), true);
      return c.json(toBlockedUser(row!), 200);
    })
    .delete('/:uid', async (c) => {
      const user = requireUser(c, MSG.loginToBlock);
      await setBlock(ctx, user, c.req.param('uid'), false);
      return c.body(null, 204);
    });
}
