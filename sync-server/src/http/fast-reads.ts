// The hottest reads answered without the app's middleware chain (issue 28 #2): a GET /api/topics
// page (a list, or a search when no read limit applies) and the leaderboard are kept JSON bytes,
// the same for every signed-out reader (and for each signed-in one) until the data changes
// (domain/topics.ts listTopicsJson, domain/users.ts leaderboardJson). Through Hono each still built a context, ran eight middleware
// and copied its headers through undici's Headers twice; the profile of the compiled server put
// Hono and the Headers work at a fifth of the hot list's CPU. Here such a request is answered
// straight from the kept bytes, with the headers every answer carries precomputed (the security
// headers, the content type) and the same request id, log line and metrics as observeRequests
// gives every request. A bearer token is verified and its user remembered as authenticate does
// (http/auth.ts), and the answer is marked private as security-headers.ts marks it. Anything else,
// or anything unusual about the request (a token that does not verify, a body, a repeated or
// undecodable query parameter, a query the schema refuses, a read limit to take, a
// read replica to route to, a compressed answer to make), goes the app's full way, as does any
// request whose read fails (the app then answers its error as it always has).
import type { IncomingMessage } from 'node:http';
import { LIMITS } from '../../../shared/constants.js';
import { listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import type { TokenVerifier } from '../auth/verifier.js';
import type { DomainContext } from '../domain/context.js';
import { listTopicsJson } from '../domain/topics.js';
import { leaderboardJson, rememberUser } from '../domain/users.js';
import type { Logger } from '../observe/logger.js';
import { recordRequest, requestIdOf } from '../observe/request.js';
import { API_THRESHOLD, chooseEncoding } from './compression.js';

export interface FastReadOptions {
  ctx: DomainContext;
  verifier: TokenVerifier;
  /** The headers every answer carries (security-headers.ts securityHeaderRecord). */
  headers: Record<string, string>;
  trustProxy: boolean;
  /** Whether read limits are taken (rate-limit.ts): a search or a later page then goes the full way, which takes them. */
  readLimits: boolean;
  logger: Logger;
}

/** The answer to a request the fast way, or undefined for the app to answer it. */
export type FastRead = (request: Request, env: unknown) => Promise<Response | undefined> | undefined;

type Query = Record<string, string>;
interface Route {
  /** The route pattern the app's own line and metrics name (routePath). */
  pattern: string;
  /**
   * How to read the kept bytes for a viewer, or undefined when this request is not one the fast way
   * answers; the read answers undefined when the full way must answer after all.
   */
  reader(
    query: Query,
    accepts: () => string | undefined,
  ): ((viewer: string | null) => Promise<Uint8Array<ArrayBuffer> | undefined>) | undefined;
  /** Its headers signed out and signed in (the leaderboard is a compressible answer: Vary: Accept-Encoding, as compression.ts sets). */
  headers: { signedOut: Record<string, string>; signedIn: Record<string, string> };
}

/** `?a=1&b=x+y` as an object, decoded as Hono decodes a query; undefined if a name repeats or a part is odd. */
export function parseQuery(search: string): Query | undefined {
  const query: Query = {};
  if (search === '') return query;
  for (const part of search.split('&')) {
    const equals = part.indexOf('=');
    if (equals <= 0) return undefined;
    const name = decodePart(part.slice(0, equals));
    const value = decodePart(part.slice(equals + 1));
    if (name === undefined || value === undefined || Object.hasOwn(query, name)) return undefined;
    query[name] = value;
  }
  return query;
}

function decodePart(part: string): string | undefined {
  if (!/[%+]/.test(part)) return part;
  try {
    return decodeURIComponent(part.replace(/\+/g, ' '));
  } catch {
    return undefined;
  }
}

export function createFastReads(options: FastReadOptions): FastRead {
  const { ctx } = options;
  const json = { 'Content-Type': 'application/json', ...options.headers };
  // A signed-in caller's answer: never kept by a shared or disk cache (security-headers.ts).
  const both = (headers: Record<string, string>) => ({
    signedOut: headers,
    signedIn: { ...headers, 'Cache-Control': 'no-store', Vary: headers.Vary ? `${headers.Vary}, Authorization` : 'Authorization' },
  });
  const routes = new Map<string, Route>([
    [
      '/api/topics',
      {
        pattern: '/api/topics',
        headers: both(json),
        reader(query) {
          const parsed = listTopicsQuerySchema.safeParse(query);
          if (!parsed.success) return undefined;
          // The route takes a read for these (routes/topics.ts): the full way takes it.
          if (options.readLimits && (parsed.data.search !== undefined || parsed.data.offset > 0)) return undefined;
          return (viewer) => listTopicsJson(ctx, parsed.data, viewer);
        },
      },
    ],
    [
      '/api/users/leaderboard',
      {
        pattern: '/api/users/leaderboard',
        headers: both({ ...json, Vary: 'Accept-Encoding' }),
        reader(query, accepts) {
          const names = Object.keys(query);
          if (names.length > 1 || (names.length === 1 && query.include !== 'persuasion')) return undefined;
          return async () => {
            const bytes = await leaderboardJson(ctx, { persuasion: query.include === 'persuasion' });
            // A large answer a client takes compressed: the full way compresses it (compression.ts).
            return bytes.byteLength >= API_THRESHOLD && chooseEncoding(accepts()) !== null ? undefined : bytes;
          };
        },
      },
    ],
  ]);

  return (request, env) => {
    if (request.method !== 'GET') return undefined;
    // The path and query from the URL string (no URL object: this is per request).
    const url = request.url;
    const pathStart = url.indexOf('/', url.indexOf('//') + 2);
    if (pathStart < 0) return undefined;
    const queryStart = url.indexOf('?', pathStart);
    const route = routes.get(queryStart < 0 ? url.slice(pathStart) : url.slice(pathStart, queryStart));
    if (!route) return undefined;
    // Node's own parsed headers when served by @hono/node-server (cheaper than the Request's Headers).
    const incoming = (env as { incoming?: IncomingMessage } | undefined)?.incoming;
    const header = incoming ? (name: string) => firstOf(incoming.headers[name]) : (name: string) => request.headers.get(name) ?? undefined;
    if (header('transfer-encoding') !== undefined) return undefined;
    const length = header('content-length');
    if (length !== undefined && !(Number(length) <= LIMITS.bodyBytes)) return undefined;
    const query = parseQuery(queryStart < 0 ? '' : url.slice(queryStart + 1));
    if (!query) return undefined;
    const authorization = header('authorization');
    // The token as authenticate reads it (anything else is its 401 to answer).
    const token = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (authorization !== undefined && token === undefined) return undefined;
    const read = route.reader(query, () => header('accept-encoding'));
    if (!read) return undefined;
    const start = performance.now();
    return (async (): Promise<Response | undefined> => {
      let uid: string | undefined;
      if (token !== undefined) {
        const user = await options.verifier.verify(token);
        await rememberUser(ctx, user);
        uid = user.uid;
      }
      const bytes = await read(uid ?? null);
      if (!bytes) return undefined;
      const requestId = requestIdOf(header('x-request-id'), options.trustProxy);
      const response = new Response(bytes, {
        status: 200,
        headers: {
          ...(uid === undefined ? route.headers.signedOut : route.headers.signedIn),
          'X-Request-Id': requestId,
          'Content-Length': String(bytes.byteLength),
        },
      });
      recordRequest(options.logger, { requestId, method: 'GET', route: route.pattern, status: 200, start, uid, ownLine: true });
      return response;
    })().catch(
      // The full way verifies and reads again and answers the error as the app does (a 401, errors.ts), logged and counted there.
      () => undefined,
    );
  };
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
