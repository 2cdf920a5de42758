// /api/me: the caller's own account. DELETE erases it (domain/account.ts), suspended or not.
import { OpenAPIHono } from '@hono/zod-openapi';
import { MSG } from '../../../shared/messages.js';
import { deleteAccountSchema } from '../../../shared/schemas/account.js';
import type { RoleAdmin } from '../auth/roles.js';
import { deleteAccount } from '../domain/account.js';
import type { DomainContext } from '../domain/context.js';
import { requireUser, type AppEnv } from '../http/auth.js';
import { apiRoute, serve } from '../openapi/route.js';

const remove = apiRoute({
  method: 'delete',
  path: '/',
  tag: 'Users',
  summary: "Delete the caller's account",
  description:
    '`content`: `delete` erases the text of every topic and response of theirs (each keeps its place, as a removal does, so replies and quotes stay), `anonymise` keeps them under the name "deleted user". Either way their votes, stances, follows, blocks, reports, push devices, notifications, e-mail address and preferences go, the points their votes gave others are taken back, and the sign-in account is deleted. Allowed to a suspended account. `503` when the sign-in account could not be removed: the data is gone already and the same call again finishes.',
  auth: 'required',
  body: { schema: deleteAccountSchema, required: true, example: { content: 'anonymise' } },
  answers: { 204: { description: 'Deleted.' } },
  errors: ['invalid-argument', 'unavailable'],
});

export function accountRoutes(ctx: DomainContext, accounts: RoleAdmin) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, remove, async (c, read) => {
    const user = requireUser(c, MSG.loginToDeleteAccount);
    await deleteAccount(ctx, accounts, user, (await read.json()).content);
    return c.body(null, 204);
  });
  return app;
}
