// /api/users: a user's points and rank, the leaderboard, the caller's preferences, a user's page.
import { Hono } from 'hono';
import { MSG } from '../../../shared/messages.js';
import { preferencesSchema } from '../../../shared/schemas/users.js';
import type { DomainContext } from '../domain/context.js';
import { leaderboard, preferences, setPreferences, userProfile, userScore } from '../domain/users.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { readJson } from '../http/validate.js';

export function usersRoutes(ctx: DomainContext) {
  return (
    new Hono<AppEnv>()
      .get('/leaderboard', (c) => c.json(leaderboard(ctx)))
      .get('/preferences', (c) => {
        const user = requireUser(c, MSG.loginToManagePreferences);
        return c.json(preferences(ctx, user.uid));
      })
      .post('/preferences', async (c) => {
        const user = requireUser(c, MSG.loginToUpdatePreferences);
        return c.json(setPreferences(ctx, user.uid, await readJson(c, preferencesSchema)));
      })
      .get('/:uid/score', (c) => {
        requireUser(c, MSG.loginToSeeScore);
        return c.json(userScore(ctx, c.req.param('uid')));
      })
      // A user's public page (no token needed, like the leaderboard).
      .get('/:uid', (c) => c.json(userProfile(ctx, c.req.param('uid'))))
  );
}
