// /api/topics/{id}/stance(s) and /common-ground: the caller's own stance (read and recorded), the
// topic's public aggregate and its responses ranked by common ground.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { MAX_PAGE_SIZE } from '../../../shared/constants.js';
import { MSG } from '../../../shared/messages.js';
import { commonGroundEntrySchema, myStanceSchema, topicStancesSchema } from '../../../shared/schemas/answers.js';
import { wholeNumberParam } from '../../../shared/schemas/common.js';
import { stanceSchema } from '../../../shared/schemas/stances.js';
import { commonGround, topicStances } from '../domain/common-ground.js';
import type { DomainContext } from '../domain/context.js';
import { myStance, recordStance } from '../domain/stances.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { apiRoute, serve } from '../openapi/route.js';
import { topicIdParams } from './topics.js';

export const COMMON_GROUND_DEFAULT_LIMIT = 20;

export const commonGroundQuery = z.object({
  limit: z
    .string()
    .regex(/^\d+$/, 'limit must be a whole number.')
    .transform(Number)
    .refine((n) => n >= 1 && n <= MAX_PAGE_SIZE, `limit must be between 1 and ${MAX_PAGE_SIZE}.`)
    .meta(wholeNumberParam(1, MAX_PAGE_SIZE, COMMON_GROUND_DEFAULT_LIMIT))
    .optional(),
});

const mine = apiRoute({
  method: 'get',
  path: '/{id}/stance',
  tag: 'Stances',
  summary: "The caller's own stance on a topic",
  description: "There is no call that reads another user's stance.",
  auth: 'required',
  params: topicIdParams,
  answers: { 200: { description: "The caller's stance.", schema: myStanceSchema } },
  errors: ['not-found'],
});

const record = apiRoute({
  method: 'put',
  path: '/{id}/stance',
  tag: 'Stances',
  summary: "Record the caller's stance",
  description:
    'A stance other than the current one is a change (kept in `history`, starts a new list of credits); `credits` (Δ) replaces the ' +
    "latest change's list: at most 3, responses of this topic written before that change, not your own, only after a change. " +
    'A Δ earns its author persuasion points only from a creditor with standing, once per creditor and topic (docs/COMMON-GROUND.md).',
  auth: 'required',
  params: topicIdParams,
  body: { schema: stanceSchema, required: true, example: { stance: 'agree', credits: ['R1'] } },
  answers: { 200: { description: "The caller's stance.", schema: myStanceSchema } },
  errors: ['invalid-argument', 'permission-denied', 'not-found'],
});

const totals = apiRoute({
  method: 'get',
  path: '/{id}/stances',
  tag: 'Stances',
  summary: "A topic's public stance totals",
  description: 'No individual stance is ever served to anyone but its owner. An expensive read.',
  auth: 'optional',
  params: topicIdParams,
  answers: { 200: { description: 'The totals.', schema: topicStancesSchema } },
  errors: ['not-found'],
  limited: true,
});

const ranking = apiRoute({
  method: 'get',
  path: '/{id}/common-ground',
  tag: 'Stances',
  summary: "A topic's responses ranked by common ground",
  description: 'Best common-ground score first ([formula](COMMON-GROUND.md)). An expensive read.',
  auth: 'optional',
  params: topicIdParams,
  query: commonGroundQuery,
  queryExample: '?limit=20',
  answers: { 200: { description: 'The ranking.', schema: z.array(commonGroundEntrySchema) } },
  errors: ['invalid-argument', 'not-found'],
  limited: true,
});

export function stancesRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  // The caller's own stance only: there is no call that reads another user's.
  serve(app, mine, async (c, read) => {
    const user = requireUser(c, MSG.loginToRecordStance);
    return c.json(await myStance(ctx, user.uid, read.params().id));
  });
  serve(app, record, async (c, read) => {
    const user = requireUser(c, MSG.loginToRecordStance);
    const input = await read.json();
    return c.json(await recordStance(ctx, user.uid, read.params().id, input));
  });
  serve(app, totals, async (c, read) => {
    // Stored totals (O(1)), but public and unauthenticated: counted as an expensive read.
    await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
    return c.json(await topicStances(ctx, read.params().id));
  });
  serve(app, ranking, async (c, read) => {
    const { limit } = read.query();
    // Scores every live response of the topic: an expensive read.
    await limits.read(c, c.get('user'), RATE_LIMIT_MSG.requests);
    return c.json(await commonGround(ctx, read.params().id, limit ?? COMMON_GROUND_DEFAULT_LIMIT));
  });
  return app;
}
