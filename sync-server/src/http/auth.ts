// Bearer-token middleware: an optional caller on every route, required where a
// handler asks for it with the text a person reads for that action (shared/messages.ts).
import type { Context, MiddlewareHandler } from 'hono';
import type { AuthUser, TokenVerifier } from '../auth/verifier.js';
import { MSG } from '../../../shared/messages.js';
import type { DomainContext } from '../domain/context.js';
import { rememberUser } from '../domain/users.js';
import { unauthorized } from '../../../shared/errors.js';
import type { ObserveVariables } from '../observe/request.js';

/** `requestId` and `log` are set by observeRequests (observe/request.ts) in the app, not in a bare sub-app. */
export type AppEnv = { Variables: { user: AuthUser | null } & Partial<ObserveVariables> };

export function authenticate(verifier: TokenVerifier, ctx: DomainContext): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    if (!header) {
      c.set('user', null);
      return next();
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized(MSG.invalidToken);
    let user: AuthUser;
    try {
      user = await verifier.verify(match[1]!);
    } catch {
      throw unauthorized(MSG.invalidToken);
    }
    await rememberUser(ctx, user);
    c.set('user', user);
    return next();
  };
}

/** The signed-in caller, or a 401 carrying the message for what they tried to do. */
export function requireUser(c: Context<AppEnv>, message: string): AuthUser {
  const user = c.get('user');
  if (!user) throw unauthorized(message);
  return user;
}

export const viewerOf = (c: Context<AppEnv>) => c.get('user')?.uid ?? null;
