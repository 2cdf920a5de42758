// /api/moderation: the moderators' queue, their actions, the log, and an item's original text (its
// author may read it too); and PUT /api/users/{uid}/role for admins.
// Signed out: 401; members: 403 (the domain checks the role again).
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { forbidden } from '../../../shared/errors.js';
import { MSG } from '../../../shared/messages.js';
import {
  moderatedOriginalSchema,
  moderatedUserSchema,
  moderationLogEntrySchema,
  moderationLogPageSchema,
  moderationQueuePageSchema,
  roleChangeSchema,
} from '../../../shared/schemas/moderation-answers.js';
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
  moderatedUser,
  moderationLog,
  moderationQueue,
  setUserRole,
} from '../domain/moderation.js';
import type { RoleAdmin } from '../auth/roles.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, type RateLimits } from '../http/rate-limit.js';
import { apiRoute, serve } from '../openapi/route.js';
import { uidParams } from './users.js';

const moderator = (c: Context<AppEnv>) => {
  const user = requireUser(c, MSG.loginToModerate);
  assertModerator(user);
  return user;
};

const queue = apiRoute({
  method: 'get',
  path: '/reports',
  tag: 'Moderation',
  summary: "The moderators' queue: reported targets, grouped",
  description:
    "Targets with open reports (`status=open`, the default) or whose reports are all handled (`status=handled`): hidden ones first, then most distinct reporters, then the oldest first report. Each carries the author's own text (even when removed), every report with its reporter, and `total`. Moderators and admins only (`403`, also for a suspended moderator). An expensive read.",
  auth: 'required',
  query: moderationQueueQuerySchema,
  queryExample: '?status=open&limit=20&offset=0',
  answers: { 200: { description: 'A page of the queue.', schema: moderationQueuePageSchema } },
  errors: ['invalid-argument', 'permission-denied'],
  limited: true,
});

const act = apiRoute({
  method: 'post',
  path: '/actions',
  tag: 'Moderation',
  summary: 'Act on a reported target',
  description:
    "`remove` / `restore` (topics, responses), `dismiss` (the reports; un-hides a hidden item), `lock` / `unlock` (topics), `suspend` (users: `days`, or for good without) / `unsuspend`. One transaction, logged; remove, restore, dismiss, lock and suspend mark the target's open reports handled. `400` for an action that does not fit the target, `403` for members and for a moderator acting on an admin's item, `404` for a missing target.",
  auth: 'required',
  body: {
    schema: moderationActionSchema,
    required: true,
    example: { action: 'remove', target_type: 'response', target_id: 'R', reason: 'Personal attack' },
  },
  answers: { 200: { description: 'The log entry of the action.', schema: moderationLogEntrySchema } },
  errors: ['invalid-argument', 'permission-denied', 'not-found'],
});

const log = apiRoute({
  method: 'get',
  path: '/log',
  tag: 'Moderation',
  summary: 'The moderation log, newest first',
  description:
    "Every action (who, what, target, reason, days, when); `moderator_uid` null is the server itself: the automatic `hide`, and the `alert` that an item's reporters' accounts were made close together. Moderators and admins only (a suspended moderator: `403`).",
  auth: 'required',
  query: moderationLogQuerySchema,
  answers: { 200: { description: 'A page of the log.', schema: moderationLogPageSchema } },
  errors: ['invalid-argument', 'permission-denied'],
});

const original = apiRoute({
  method: 'get',
  path: '/original/{target_type}/{id}',
  tag: 'Moderation',
  summary: "A removed or hidden item's own text, for its author and moderators",
  description:
    "The author's text, sources and quote as they were before the removal; for an item not moderated, its current text with `moderation` null. `403` for anyone but the author and moderators.",
  auth: 'required',
  params: z.object({
    target_type: z.enum(['topic', 'response'], { error: 'target_type must be topic or response.' }).describe('`topic` or `response`.'),
    id: z.string().describe("The item's id."),
  }),
  answers: { 200: { description: 'The original.', schema: moderatedOriginalSchema } },
  errors: ['invalid-argument', 'permission-denied', 'not-found'],
});

const user = apiRoute({
  method: 'get',
  path: '/users/{uid}',
  tag: 'Moderation',
  summary: "A user's role and running suspension, for moderators",
  description:
    "What a moderator acting from a user's page needs: `suspended_until` and `suspension_reason` of the suspension running now (both null when none runs). Moderators and admins only (`403`, also for a suspended moderator); `404` for an unknown user.",
  auth: 'required',
  params: uidParams,
  answers: { 200: { description: "The user's standing.", schema: moderatedUserSchema } },
  errors: ['permission-denied', 'not-found'],
});

export function moderationRoutes(ctx: DomainContext, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, queue, async (c, read) => {
    const user = moderator(c);
    const query = read.query();
    await limits.read(c, user);
    return c.json(await moderationQueue(ctx, user, query));
  });
  serve(app, act, async (c, read) => {
    const user = moderator(c);
    return c.json(await moderate(ctx, user, await read.json()));
  });
  serve(app, log, async (c, read) => {
    const user = moderator(c);
    return c.json(await moderationLog(ctx, user, read.query()));
  });
  serve(app, user, async (c, read) => {
    const actor = moderator(c);
    return c.json(await moderatedUser(ctx, actor, read.params().uid));
  });
  // The author and moderators only: the domain answers 403 to anyone else.
  serve(app, original, async (c, read) => {
    const user = requireUser(c, MSG.loginToModerate);
    const params = read.params();
    return c.json(await moderatedOriginal(ctx, user, params.target_type, params.id));
  });
  return app;
}

const setRole = apiRoute({
  method: 'put',
  path: '/{uid}/role',
  tag: 'Moderation',
  summary: "Grant or revoke a user's moderator role (admins)",
  description:
    "Sets the `crux_role` custom claim (firebase-admin) and the user's stored role; logged as `role`. `403` for anyone but an admin, and for a user who is an admin (admins are made with `npm run users:role`).",
  auth: 'required',
  params: uidParams,
  body: { schema: setRoleSchema, required: true, example: { role: 'moderator' } },
  answers: { 200: { description: 'The role now.', schema: roleChangeSchema } },
  errors: ['invalid-argument', 'permission-denied', 'not-found'],
});

/** PUT /api/users/{uid}/role {role: member|moderator}: admins only. */
export function roleRoutes(ctx: DomainContext, roles: RoleAdmin) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, setRole, async (c, read) => {
    const user = requireUser(c, MSG.loginToModerate);
    if (user.role !== 'admin') throw forbidden(MSG.adminsOnly);
    const { role } = await read.json();
    return c.json(await setUserRole(ctx, roles, user, read.params().uid, role));
  });
  return app;
}
