// /api/users: a user's points and rank, the leaderboard, the caller's preferences, a user's page.
import { Hono } from 'hono';
import { z } from 'zod';
import { CruxError } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { preferencesSchema } from '../../../shared/schemas/users.js';
import type { DomainContext } from '../domain/context.js';
import { leaderboardJson, preferences, setPreferences, userProfile, userScore } from '../domain/users.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { keptJson } from '../http/compression.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { readJson, readQuery } from '../http/validate.js';

/**
 * `?include=persuasion` adds the persuasion points (issue 13) to each leaderboard entry, or to a
 * user's score (the leaderboard's own row outside the top 100); without it, SPEC.md §7's shape.
 */
export const includeQuery = z.object({
  include: z.enum(['persuasion'], { error: 'include can only be "persuasion".' }).optional(),
});

/**
 * `?missing=null`: an unknown user is answered 200 with `null` instead of 404 (issue 24 #9). The web
 * app asks this way: a browser logs every 404 it fetches as a console error, and a link to a
 * removed account is an expected answer, not a failure. Without it, the 404 of DESIGN.md §3.
 */
export const profileQuery = z.object({
  missing: z.enum(['null'], { error: 'missing can only be "null".' }).optional(),
});

export function usersRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  return (
    new Hono<AppEnv>()
      .get('/leaderboard', async (c) => {
        const { include } = readQuery(c, includeQuery);
        // Ready JSON bytes, kept between changes (leaderboardJson): the same bytes c.json would send,
        // compressed (when large enough and asked for) once per kept answer, not per request.
        return keptJson(c, await leaderboardJson(ctx, { persuasion: include === 'persuasion' }));
      })
      .get('/preferences', async (c) => {
        const user = requireUser(c, MSG.loginToManagePreferences);
        return c.json(await preferences(ctx, user.uid));
      })
      .post('/preferences', async (c) => {
        const user = requireUser(c, MSG.loginToUpdatePreferences);
        return c.json(await setPreferences(ctx, user.uid, await readJson(c, preferencesSchema)));
      })
      .get('/:uid/score', async (c) => {
        requireUser(c, MSG.loginToSeeScore);
        const { include } = readQuery(c, includeQuery);
        return c.json(await userScore(ctx, c.req.param('uid'), { persuasion: include === 'persuasion' }));
      })
      // A user's public page (no token needed, like the leaderboard): an expensive read.
      .get('/:uid', async (c) => {
        const { missing } = readQuery(c, profileQuery);
        await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
        try {
          return c.json(await userProfile(ctx, c.req.param('uid')));
        } catch (error) {
          if (missing === 'null' && error instanceof CruxError && error.code === 'not-found') return c.json(null);
          throw error;
        }
      })
  );
}
