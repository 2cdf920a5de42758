// /api/unsubscribe: the one-click unsubscribe of the weekly summary (RFC 8058). A mail client
// POSTs `List-Unsubscribe=One-Click` to the URL of the mail's List-Unsubscribe header, and the
// /unsubscribe page POSTs the token of the mail's link: no sign-in, no cookie; the signed token
// is the proof. A GET of that URL (opened in a browser) is sent on to the /unsubscribe page,
// which confirms with the POST. It turns the preference off through the same operation as the profile push, so
// the user's row gets a new seq and every device of theirs pulls the change.
import { OpenAPIHono } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { z } from 'zod';
import { unsubscribedSchema } from '../../../shared/schemas/answers.js';
import { setPreferences } from '../domain/users.js';
import type { DomainContext } from '../domain/context.js';
import type { AppEnv } from '../http/auth.js';
import { NO_RATE_LIMITS, RATE_LIMIT_MSG, type RateLimits } from '../http/rate-limit.js';
import { readJsonBody } from '../http/validate.js';
import { issuedBefore, verifyUnsubscribeToken } from '../mail/token.js';
import { apiRoute, serve } from '../openapi/route.js';

export const UNSUBSCRIBE_MSG = {
  invalid: 'This unsubscribe link is not valid. Sign in and open Email Subscriptions to change your preference.',
  expired: 'This unsubscribe link has expired. Sign in and open Email Subscriptions to change your preference.',
  unavailable: 'One-click unsubscribe is not set up on this server.',
} as const;

async function tokenOf(c: Context): Promise<string | undefined> {
  const inQuery = c.req.query('token');
  if (inQuery) return inQuery;
  const type = c.req.header('content-type') ?? '';
  if (type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')) {
    const value = (await c.req.parseBody())['token'];
    return typeof value === 'string' ? value : undefined;
  }
  if (type.startsWith('application/json')) {
    const body = await readJsonBody(c);
    const value = body && typeof body === 'object' ? (body as Record<string, unknown>)['token'] : undefined;
    return typeof value === 'string' ? value : undefined;
  }
  return undefined;
}

const tokenQuery = z.object({ token: z.string().optional().describe("The mail's signed token.") });

const confirm = apiRoute({
  method: 'post',
  path: '/',
  tag: 'Weekly mail',
  summary: 'One-click unsubscribe from the weekly summary (RFC 8058)',
  description:
    "No sign-in: the mail's signed token is the proof, in `?token=` or as `token` in a form or JSON body. `503` when the server has " +
    'no mail signing key. Counted as an expensive read per address.',
  auth: 'none',
  query: tokenQuery,
  body: { schema: z.object({ token: z.string().describe("The mail's signed token.") }), required: false, formToo: true },
  answers: { 200: { description: 'Unsubscribed.', schema: unsubscribedSchema } },
  errors: ['invalid-argument', 'link-expired'],
  limited: true,
});

const opened = apiRoute({
  method: 'get',
  path: '/',
  tag: 'Weekly mail',
  summary: 'The unsubscribe link opened in a browser',
  description: 'Changes nothing: sends the browser on to the page that confirms with the POST.',
  auth: 'none',
  query: tokenQuery,
  answers: { 303: { description: 'To `/unsubscribe?token=…`.', headers: { Location: 'The confirming page.' } } },
});

export function unsubscribeRoutes(ctx: DomainContext, signingKey: Buffer | undefined, limits: RateLimits = NO_RATE_LIMITS) {
  const app = new OpenAPIHono<AppEnv>();
  serve(app, opened, (c) => {
    // The List-Unsubscribe URL opened in a browser (a mail client that does not POST it, a person
    // copying it): the confirming page, never a change on a GET (link checkers follow GETs).
    const token = c.req.query('token');
    const query = token ? `?${new URLSearchParams({ token }).toString()}` : '';
    return c.redirect(`/unsubscribe${query}`, 303);
  });
  // The token is read where a mail client or the page puts it (tokenOf): the query, a form or JSON.
  serve(app, confirm, async (c) => {
    if (!signingKey) return c.json({ error: UNSUBSCRIBE_MSG.unavailable, code: 'unavailable' }, 503);
    // No sign-in: counted per address, as an expensive read (a signature check and a write).
    await limits.read(c, null, RATE_LIMIT_MSG.requests);
    const token = await tokenOf(c);
    const check = token ? verifyUnsubscribeToken(signingKey, token, ctx.clock()) : ({ ok: false, reason: 'invalid' } as const);
    if (!check.ok) {
      return check.reason === 'expired'
        ? c.json({ error: UNSUBSCRIBE_MSG.expired, code: 'link-expired' }, 410)
        : c.json({ error: UNSUBSCRIBE_MSG.invalid, code: 'invalid-argument' }, 400);
    }
    // A link mailed before the user subscribed again is dead: it answers as any invalid link.
    if (issuedBefore(token!, await ctx.store.users.weeklySummarySince(check.uid))) {
      return c.json({ error: UNSUBSCRIBE_MSG.invalid, code: 'invalid-argument' }, 400);
    }
    const preferences = await setPreferences(ctx, check.uid, { receive_weekly_summary: false });
    return c.json({ ok: true, ...preferences });
  });
  return app;
}
