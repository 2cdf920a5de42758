// /api/topics/{id}/stance(s) and /common-ground (issue 13): the caller's own stance (read and
// recorded), the topic's public aggregate and its responses ranked by common ground.
import { Hono } from 'hono';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { stanceSchema } from '../../../shared/schemas/stances.js';
import { commonGround, topicStances } from '../domain/common-ground.js';
import type { DomainContext } from '../domain/context.js';
import { myStance, recordStance } from '../domain/stances.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { readJson, readQuery } from '../http/validate.js';

export const COMMON_GROUND_DEFAULT_LIMIT = 20;

export const commonGroundQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number.')
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, `limit must be between 1 and ${MAX_PAGE_SIZE}.`)
    .optional(),
});

export function stancesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  return (
    new Hono<AppEnv>()
      // The caller's own stance only: there is no call that reads another user's.
      .get('/:id/stance', async (c) => {
        const user = requireUser(c, MSG.loginToRecordStance);
        return c.json(await myStance(ctx, user.uid, c.req.param('id')));
      })
      .put('/:id/stance', async (c) => {
        const user = requireUser(c, MSG.loginToRecordStance);
        const input = await readJson(c, stanceSchema);
        return c.json(await recordStance(ctx, user.uid, c.req.param('id'), input));
      })
      .get('/:id/stances', async (c) => {
        // Stored totals (O(1)), but public and unauthenticated: counted as an expensive read.
        await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
        return c.json(await topicStances(ctx, c.req.param('id')));
      })
      .get('/:id/common-ground', async (c) => {
        const { limit } = readQuery(c, commonGroundQuery);
        // Scores every live response of the topic: an expensive read.
        await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
        return c.json(await commonGround(ctx, c.req.param('id'), limit ?? COMMON_GROUND_DEFAULT_LIMIT));
      })
  );
}
