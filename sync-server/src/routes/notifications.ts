// /api/notifications: the caller's list and marking one read.
import { OpenAPIHono } from '@hono/zod-openapi';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import { notificationSchema } from '../../../shared/schemas/answers.js';
import { wholeNumberParam } from '../../../shared/schemas/common.js';
import type { DomainContext } from '../domain/context.js';
import { listNotifications, markNotificationRead } from '../domain/notifications.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

const number = (name: string, max: number, fallback: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number.`)
    .transform(Number)
    .refine((n) => n <= max, `${name} must be at most ${max}.`)
    .meta(wholeNumberParam(0, max, fallback))
    .default(fallback);
export const notificationsPageQuery = z.object({
  limit: number('limit', 500, 100),
  offset: number('offset', 1_000_000, 0),
});

const list = apiRoute({
  method: 'get',
  path: '/user/{uid}',
  tag: 'Notifications',
  summary: "The caller's notifications, newest first",
  description: "`limit` ≤ 500 (default 100) and `offset`. Only the caller's own uid (`403` for another).",
  auth: 'required',
  params: z.object({ uid: z.string().describe("The caller's uid.") }),
  query: notificationsPageQuery,
  queryExample: '?limit=100&offset=0',
  answers: { 200: { description: 'The notifications.', schema: z.array(notificationSchema) } },
  errors: ['invalid-argument', 'permission-denied'],
});

const markRead = apiRoute({
  method: 'put',
  path: '/{id}/read',
  tag: 'Notifications',
  summary: 'Mark a notification read',
  description: 'The body is empty or any JSON: nothing in it is used.',
  auth: 'required',
  params: z.object({ id: z.string().describe("The notification's id.") }),
  answers: { 200: { description: 'The notification, now read.', schema: notificationSchema } },
  errors: ['permission-denied', 'not-found'],
});

export function notificationsRoutes(ctx: DomainContext) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, list, async (c, read) => {
    const user = requireUser(c, MSG.loginToSeeNotifications);
    const { limit, offset } = read.query();
    return c.json(await listNotifications(ctx, user, read.params().uid, limit, offset));
  });
  serve(app, markRead, async (c, read) => {
    // The body is empty or any JSON: nothing in it is used.
    const user = requireUser(c, MSG.loginToSeeNotifications);
    return c.json(await markNotificationRead(ctx, user, read.params().id));
  });
  return app;
}
