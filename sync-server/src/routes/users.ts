// /api/users: a user's points and rank, the leaderboard, the caller's preferences, a user's page.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { CruxError } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import { leaderboardEntrySchema, preferencesAnswerSchema, userProfileSchema, userScoreSchema } from '../../../shared/schemas/answers.js';
import { preferencesSchema } from '../../../shared/schemas/users.js';
import type { DomainContext } from '../domain/context.js';
import { leaderboardJson, preferences, setPreferences, userProfile, userScore } from '../domain/users.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { keptJson } from '../http/compression.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { apiRoute, serve } from '../openapi/route.js';

/**
 * `?include=persuasion` adds the persuasion points to each leaderboard entry, or to a user's score
 * (the leaderboard's own row outside the top 100); without it, the plain shape.
 */
export const includeQuery = z.object({
  include: z.enum(['persuasion'], { error: 'include can only be "persuasion".' }).optional(),
});

/**
 * `?missing=null`: an unknown user is answered 200 with `null` instead of 404. The web app asks this
 * way: a browser logs every 404 it fetches as a console error, and a link to a removed account is an
 * expected answer, not a failure. Without it, the 404 of docs/API.md "Conventions".
 */
export const profileQuery = z.object({
  missing: z.enum(['null'], { error: 'missing can only be "null".' }).optional(),
});

export const uidParams = z.object({ uid: z.string().describe("The user's uid.") });

const leaderboard = apiRoute({
  method: 'get',
  path: '/leaderboard',
  tag: 'Users',
  summary: 'The leaderboard',
  description:
    "Users with points > 0, best first, 100 at most; `include=persuasion` adds each one's `persuasion_points` (the part of `points` earned by Δ).",
  auth: 'optional',
  query: includeQuery,
  queryExample: '?include=persuasion',
  answers: { 200: { description: 'The entries.', schema: z.array(leaderboardEntrySchema) } },
  errors: ['invalid-argument'],
});

const ownPreferences = apiRoute({
  method: 'get',
  path: '/preferences',
  tag: 'Users',
  summary: "The caller's mail preferences",
  auth: 'required',
  answers: { 200: { description: 'The preferences.', schema: preferencesAnswerSchema } },
});

const changePreferences = apiRoute({
  method: 'post',
  path: '/preferences',
  tag: 'Users',
  summary: "Change the caller's mail preferences",
  auth: 'required',
  body: { schema: preferencesSchema, required: true, example: { receive_weekly_summary: false } },
  answers: { 200: { description: 'The new preferences.', schema: preferencesAnswerSchema } },
  errors: ['invalid-argument'],
});

const score = apiRoute({
  method: 'get',
  path: '/{uid}/score',
  tag: 'Users',
  summary: "A user's points and rank",
  description: "`include=persuasion` adds `persuasion_points` (the leaderboard's own row outside the top 100).",
  auth: 'required',
  params: uidParams,
  query: includeQuery,
  answers: { 200: { description: 'The score.', schema: userScoreSchema } },
  errors: ['invalid-argument', 'not-found'],
});

const profile = apiRoute({
  method: 'get',
  path: '/{uid}',
  tag: 'Users',
  summary: "A user's public page",
  description:
    'Points, rank and the latest 50 topics and responses (beyond the product specification, for user pages). An expensive read. `missing=null` answers an unknown user with `200` and `null` instead of `404` (the web app asks this way: browsers log every 404 as an error).',
  auth: 'optional',
  params: uidParams,
  query: profileQuery,
  queryExample: '?missing=null',
  answers: {
    200: { description: 'The page (or null: an unknown user asked with `missing=null`).', schema: userProfileSchema.nullable() },
  },
  errors: ['not-found'],
  limited: true,
});

export function usersRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, leaderboard, async (c, read) => {
    const { include } = read.query();
    // Ready JSON bytes, kept between changes (leaderboardJson): the same bytes c.json would send,
    // compressed (when large enough and asked for) once per kept answer, not per request.
    return keptJson(c, await leaderboardJson(ctx, { persuasion: include === 'persuasion' }));
  });
  serve(app, ownPreferences, async (c) => {
    const user = requireUser(c, MSG.loginToManagePreferences);
    return c.json(await preferences(ctx, user.uid));
  });
  serve(app, changePreferences, async (c, read) => {
    const user = requireUser(c, MSG.loginToUpdatePreferences);
    return c.json(await setPreferences(ctx, user.uid, await read.json()));
  });
  serve(app, score, async (c, read) => {
    requireUser(c, MSG.loginToSeeScore);
    const { include } = read.query();
    return c.json(await userScore(ctx, read.params().uid, { persuasion: include === 'persuasion' }));
  });
  // A user's public page (no token needed, like the leaderboard): an expensive read.
  serve(app, profile, async (c, read) => {
    const { missing } = read.query();
    await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
    try {
      return c.json(await userProfile(ctx, read.params().uid));
    } catch (error) {
      if (missing === 'null' && error instanceof CruxError && error.code === 'not-found') return c.json(null);
      throw error;
    }
  });
  return app;
}
