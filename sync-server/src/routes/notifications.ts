// /api/notifications: the caller's list and marking one read.
import { Hono } from 'hono';
import { z } from 'zod';
import { MSG } from '../../../shared/messages.js';
import type { DomainContext } from '../domain/context.js';
import { listNotifications, markNotificationRead } from '../domain/notifications.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { readQuery } from '../http/validate.js';

const number = (name: string, max: number) =>
  z
    .string()
    .regex(/^\d+$/, `${name} must be a whole number.`)
    .transform(Number)
    .refine((n) => n <= max, `${name} must be at most ${max}.`);
export const notificationsPageQuery = z.object({
  limit: number('limit', 500).default(100),
  offset: number('offset', 1_000_000).default(0),
});

export function notificationsRoutes(ctx: DomainContext) {
  return new Hono<AppEnv>()
    .get('/user/:uid', async (c) => {
      const user = requireUser(c, MSG.loginToSeeNotifications);
      const { limit, offset } = readQuery(c, notificationsPageQuery);
      return c.json(await listNotifications(ctx, user, c.req.param('uid'), limit, offset));
    })
    .put('/:id/read', async (c) => {
      // The body is empty or any JSON (SPEC.md §7): nothing in it is used.
      const user = requireUser(c, MSG.loginToSeeNotifications);
      return c.json(await markNotificationRead(ctx, user, c.req.param('id')));
    });
}
