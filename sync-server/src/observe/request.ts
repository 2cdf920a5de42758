// Every request's id, log line and metrics. The id is the trusted proxy's
// X-Request-Id when TRUST_PROXY=true (the same rule as for the client's address: behind our own
// proxy its headers are ours, otherwise anyone's), else a new UUID; it is on the answer and in every
// log line of the request (handlers log through requestLog(c)). One line per request: method, route
// pattern, status, duration, id, and the uid when signed in; never a token or an address.
import { randomUUID } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { routePath } from 'hono/route';
import { logger as rootLogger, type Logger } from './logger.js';
import { metrics } from './metrics.js';

/** What a proxy's id may look like: short, and nothing that could forge or break a log line. */
const PROXY_ID = /^[\w.:@/+=-]{1,128}$/;

/** `log`: the child carrying the request's id, made on first use by requestLog (most requests log one line only); `logBase`: its parent when not the process's. */
export type ObserveVariables = { requestId: string; log: Logger; logBase: Logger };

/** The request's id: the trusted proxy's, when it gave a sensible one, else a new one. */
export function requestIdOf(header: string | undefined, trustProxy: boolean): string {
  return trustProxy && header && PROXY_ID.test(header) ? header : randomUUID();
}

/** The request's logger (its lines carry its id); the process's outside a request or in an app built without observeRequests. */
export function requestLog(c: Context): Logger {
  const made = c.get('log') as Logger | undefined;
  if (made) return made;
  const requestId = c.get('requestId') as string | undefined;
  const base = (c.get('logBase') as Logger | undefined) ?? rootLogger;
  if (!requestId) return base;
  const log = base.child({ reqId: requestId });
  c.set('log', log);
  return log;
}

export function observeRequests(options: { trustProxy: boolean; logger?: Logger }): MiddlewareHandler<{ Variables: ObserveVariables }> {
  const base = options.logger ?? rootLogger;
  return async (c, next) => {
    const start = performance.now();
    const requestId = requestIdOf(c.req.header('x-request-id'), options.trustProxy);
    c.set('requestId', requestId);
    if (base !== rootLogger) c.set('logBase', base);
    c.header('X-Request-Id', requestId);
    try {
      await next();
    } finally {
      // An answer built outside the context (a static file) gets the header here.
      if (c.res.headers.get('X-Request-Id') !== requestId) {
        try {
          c.res.headers.set('X-Request-Id', requestId);
        } catch {
          // immutable headers: nothing to add to
        }
      }
      // The pattern of the route that answered (`/api/topics/:id`), never the path: few series, no ids.
      const user = (c.get as (key: string) => { uid: string } | null | undefined)('user');
      // The handlers' child if one logged, else the id on the line itself (no child made for one line).
      recordRequest(c.get('log') ?? base, {
        requestId,
        method: c.req.method,
        route: routePath(c) || 'unmatched',
        status: c.res.status,
        start,
        uid: user?.uid,
        ownLine: c.get('log') === undefined,
      });
    }
  };
}

/**
 * A request's metrics and its one log line, once it has been answered: observeRequests' end, and
 * the fast reads' (http/fast-reads.ts), which answer without the app's middleware. `ownLine`: the
 * line carries the request's id itself (`log` is not the request's child logger).
 */
export function recordRequest(
  log: Logger,
  request: { requestId: string; method: string; route: string; status: number; start: number; uid?: string | undefined; ownLine: boolean },
): void {
  const seconds = (performance.now() - request.start) / 1000;
  const labels = { method: request.method, route: request.route, status: String(request.status) };
  metrics.requests.inc(labels);
  metrics.requestSeconds.observe(labels, seconds);
  const line = {
    method: request.method,
    route: request.route,
    status: request.status,
    ms: Math.round(seconds * 10_000) / 10,
    ...(request.uid ? { uid: request.uid } : {}),
  };
  if (request.ownLine) log.info({ reqId: request.requestId, ...line }, 'request');
  else log.info(line, 'request');
}
