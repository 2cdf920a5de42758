// /api/moderation (issue 23 #3): the moderators' queue, their actions, the log, and an item's
// original text (its author may read it too); and PUT /api/users/{uid}/role for admins.
// Signed out: 401; members: 403 (the domain checks the role again).
import { Hono, type Context } from 'hono';
import { z } from 'zod';
import { forbidden } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import {
  moderationActionSchema,
  moderationLogQuerySchema,
  moderationQueueQuerySchema,
  setRoleSchema,
} from '../../../shared/schemas/moderation.js';
import type { DomainContext } from '../domain/context.js';
import {
  assertModerator,
  moderate,
  moderatedOriginal,
  moderationLog,
  moderationQueue,
  setUserRole,
  type RoleAdmin,
} from '../domain/moderation.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, type RateLimits } from '../http/rate-limit.js';
import { parse, readJson, readQuery } from '../http/validate.js';

const moderator = (c: Context<AppEnv>) => {
  const user = requireUser(c, MSG.loginToModerate);
  assertModerator(user);
  return user;
};

const originalParams = z.object({
  target_type: z.enum(['topic', 'response'], { error: 'target_type must be topic or response.' }),
  id: z.string(),
});

export function moderationRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  return (
    new Hono<AppEnv>()
      .get('/reports', async (c) => {
        const user = moderator(c);
        const query = readQuery(c, moderationQueueQuerySchema);
        await limits.read(c, user);
        return c.json(await moderationQueue(ctx, user, query));
      })
      .post('/actions', async (c) => {
        const user = moderator(c);
        return c.json(await moderate(ctx, user, await readJson(c, moderationActionSchema)));
      })
      .get('/log', async (c) => {
        const user = moderator(c);
        return c.json(await moderationLog(ctx, user, readQuery(c, moderationLogQuerySchema)));
      })
      // The author and moderators only: the domain answers 403 to anyone else.
      .get('/original/:target_type/:id', async (c) => {
        const user = requireUser(c, MSG.loginToModerate);
        const params = parse(originalParams, { target_type: c.req.param('target_type'), id: c.req.param('id') });
        return c.json(await moderatedOriginal(ctx, user, params.target_type, params.id));
      })
  );
}

/** PUT /api/users/{uid}/role {role: member|moderator}: admins only. */
export function roleRoutes(ctx: DomainContext, roles: RoleAdmin) {
  return new Hono<AppEnv>().put('/:uid/role', async (c) => {
    const user = requireUser(c, MSG.loginToModerate);
    if (user.role !== 'admin') throw forbidden(MSG.adminsOnly);
    const { role } = await readJson(c, setRoleSchema);
    return c.json(await setUserRole(ctx, roles, user, c.req.param('uid'), role));
  });
}
