// The hottest reads answered without the app's middleware chain: a GET /api/topics
// page (a list, or a search when no read limit applies) and the leaderboard are kept JSON bytes,
// the same for every signed-out reader (and for each signed-in one) until the data changes
// (domain/topics.ts listTopicsJson, domain/users.ts leaderboardJson). Through Hono each still built a context, ran eight middleware
// and copied its headers through undici's Headers twice; the profile of the compiled server put
// Hono and the Headers work at a fifth of the hot list's CPU. Here such a request is answered
// straight from the kept bytes, with the headers every answer carries precomputed (the security
// headers, the content type) and the same request id, log line and metrics as observeRequests
// gives every request. A bearer token is taken when authenticate (http/auth.ts) has verified it
// before, and the answer is marked private as security-headers.ts marks it. Anything else, or
// anything unusual about the request (a token not verified yet or that does not verify, a body, a
// repeated or undecodable query parameter, a query the schema refuses, a read limit to take, a read
// replica to route to, a compressed answer to make, a page not kept), goes the app's full way.
//
// One way in, in front of @hono/node-server (serve.ts and the test servers, through withFastReads):
// Node's own request, answered only from what is at hand without waiting: the version known in memory
// (store/sqlite/kept-versions.ts), the page kept, a bearer token verified before (verifyNow) and its
// user's stored copy known current. No Request, Response, URL or promise is made for it: on the
// production process those were most of what a kept read cost besides Node's own writing. Anything
// else goes to @hono/node-server and the app, whose routes verify the token and keep the page, so the
// next such request is answered here. Why a second door at all: the framework's way answered these
// reads at a fraction of this one's rate (docs/ARCHITECTURE.md, "The fast reads").
import { createServer, type IncomingMessage, type RequestListener, type ServerOptions, type ServerResponse } from 'node:http';
import { LIMITS } from '../../../shared/constants.js';
import { listTopicsQuerySchema } from '../../../shared/schemas/topics.js';
import type { TokenVerifier } from '../auth/verifier.js';
import type { DomainContext } from '../domain/context.js';
import { keptTopicJson, keptTopicsJson, topicsPageKey } from '../domain/topics.js';
import { keptLeaderboardJson, rememberedNow } from '../domain/users.js';
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

/**
 * A request as Node parsed it (serve.ts, in front of @hono/node-server): true when it was answered
 * here, at once, from bytes at hand; false (nothing written) for the app to answer it. `extraHeaders`: added to the answer.
 */
export type FastNodeRead = (incoming: IncomingMessage, outgoing: ServerResponse, extraHeaders?: Record<string, string>) => boolean;

type Query = Record<string, string>;
type Bytes = Uint8Array<ArrayBuffer>;
/** The request's Accept-Encoding (read only when an answer could be compressed). */
type Accepts = () => string | undefined;
/** A route's kept bytes for a viewer, if at hand (undefined: the full way answers). */
type Reader = (viewer: string | null, accepts: Accepts) => Bytes | undefined;
/** An answer's headers before its request id and length, as Node's flat list of names and values. */
type AnswerHeaders = string[];
interface Route {
  /** The route pattern the app's own line and metrics name (routePath). */
  pattern: string;
  /** How to read the kept bytes for this query, or undefined when it is not one the fast way answers. */
  reader(query: Query): Reader | undefined;
  /** Its headers signed out and signed in (the leaderboard is a compressible answer: Vary: Accept-Encoding, as compression.ts sets). */
  headers: { signedOut: AnswerHeaders; signedIn: AnswerHeaders };
}
/**
 * What a request target (path and query) comes to: the route and the reader of its query, or null
 * (the app's way, which also takes every target @hono/node-server's URL would not keep as it is).
 */
type Target = { route: Route; reader: Reader } | null;

/** A request the fast way may answer: its route and reader, its bearer token if any, and its headers' reader. */
interface Plan {
  route: Route;
  reader: Reader;
  token: string | undefined;
  header(name: string): string | undefined;
}

/** How many request targets' routes and readers are kept (the hot list's few; a search's each). */
const TARGETS_KEPT = 1_000;

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

export function createFastReads(options: FastReadOptions): FastNodeRead {
  const { ctx } = options;
  const json = { 'Content-Type': 'application/json', ...options.headers };
  const headersOf = (record: Record<string, string>): AnswerHeaders => Object.entries(record).flat();
  // A signed-in caller's answer: never kept by a shared or disk cache (security-headers.ts).
  const both = (headers: Record<string, string>) => ({
    signedOut: headersOf(headers),
    signedIn: headersOf({
      ...headers,
      'Cache-Control': 'no-store',
      Vary: headers.Vary ? `${headers.Vary}, Authorization` : 'Authorization',
    }),
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
          const signedOut = topicsPageKey(parsed.data, null);
          return (viewer) => keptTopicsJson(ctx, viewer === null ? signedOut : topicsPageKey(parsed.data, viewer));
        },
      },
    ],
    [
      '/api/users/leaderboard',
      {
        pattern: '/api/users/leaderboard',
        headers: both({ ...json, Vary: 'Accept-Encoding' }),
        reader(query) {
          const names = Object.keys(query);
          if (names.length > 1 || (names.length === 1 && query.include !== 'persuasion')) return undefined;
          const which = { persuasion: query.include === 'persuasion' };
          // A large answer a client takes compressed: the full way compresses it (compression.ts).
          const uncompressed = (bytes: Bytes | undefined, accepts: Accepts) =>
            bytes && bytes.byteLength >= API_THRESHOLD && chooseEncoding(accepts()) !== null ? undefined : bytes;
          return (_, accepts) => uncompressed(keptLeaderboardJson(ctx, which), accepts);
        },
      },
    ],
  ]);

  // GET /api/topics/{id} with no query: a signed-out reader's answer (domain/topics.ts keptTopicJson).
  // A signed-in reader's answer carries their own vote and goes the full way.
  const topicRoute: Route = {
    pattern: '/api/topics/:id',
    headers: both(json),
    // Read by its path (topicTarget below), never by a query: any query goes the app's way.
    reader: () => undefined,
  };
  const topicTarget = (target: string): Target => {
    const id = TOPIC_TARGET.exec(target)?.[1];
    if (id === undefined || id === 'categories') return null;
    return { route: topicRoute, reader: (viewer) => (viewer === null ? keptTopicJson(ctx, id) : undefined) };
  };

  // Each request target's route and reader, worked out once (its query parsed and checked by the schema).
  const targets = new Map<string, Target>();
  function targetOf(target: string): Target {
    let known = targets.get(target);
    if (known !== undefined) return known;
    const queryStart = target.indexOf('?');
    const route = routes.get(queryStart < 0 ? target : target.slice(0, queryStart));
    const query = route && parseQuery(queryStart < 0 ? '' : target.slice(queryStart + 1));
    const reader = query && route.reader(query);
    known = reader && PLAIN_TARGET.test(target) ? { route, reader } : route ? null : topicTarget(target);
    if (targets.size >= TARGETS_KEPT) targets.clear();
    targets.set(target, known);
    return known;
  }

  /** The request's route, reader and token when the fast way may answer it, else undefined. */
  function plan(method: string, target: string, header: (name: string) => string | undefined): Plan | undefined {
    if (method !== 'GET') return undefined;
    const known = targetOf(target);
    if (!known) return undefined;
    if (header('transfer-encoding') !== undefined) return undefined;
    const length = header('content-length');
    if (length !== undefined && !(Number(length) <= LIMITS.bodyBytes)) return undefined;
    const authorization = header('authorization');
    // The token as authenticate reads it (anything else is its 401 to answer).
    const token = authorization === undefined ? undefined : /^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1];
    if (authorization !== undefined && token === undefined) return undefined;
    return { route: known.route, reader: known.reader, token, header };
  }

  /** The answer's bytes and caller when both are at hand (a known token, a kept page), else undefined. */
  function now({ token, reader, header }: Plan): { bytes: Bytes; uid: string | undefined } | undefined {
    let uid: string | undefined;
    if (token !== undefined) {
      const user = options.verifier.verifyNow?.(token);
      // Unknown, or its stored copy to bring up to date: the app's way verifies and remembers.
      if (!user || !rememberedNow(ctx, user)) return undefined;
      uid = user.uid;
    }
    const bytes = reader(uid ?? null, () => header('accept-encoding'));
    return bytes && { bytes, uid };
  }

  function record(plan: Plan, requestId: string, start: number, uid: string | undefined) {
    recordRequest(options.logger, { requestId, method: 'GET', route: plan.route.pattern, status: 200, start, uid, ownLine: true });
  }

  // Host names @hono/node-server accepts (it would refuse the request otherwise), by Host header: a server sees few.
  const hosts = new Map<string, boolean>();
  function hostAccepted(host: string): boolean {
    let accepted = hosts.get(host);
    if (accepted === undefined) {
      accepted = acceptedHost(host);
      if (hosts.size >= 100) hosts.clear();
      hosts.set(host, accepted);
    }
    return accepted;
  }

  function node(incoming: IncomingMessage, outgoing: ServerResponse, extraHeaders?: Record<string, string>): boolean {
    const url = incoming.url;
    // Only a plain target, which @hono/node-server's URL would leave as it is (an absolute form,
    // dot segments, a fragment, characters a URL escapes: the app's way, as ever).
    if (url === undefined || url.charCodeAt(0) !== 0x2f) return false;
    const planned = plan(incoming.method ?? 'GET', url, (name) => firstOf(incoming.headers[name]));
    if (!planned) return false;
    const host = incoming.headers.host;
    if (host === undefined || !hostAccepted(host)) return false;
    const start = performance.now();
    const atHand = now(planned);
    if (!atHand) return false;
    const { bytes, uid } = atHand;
    const requestId = requestIdOf(planned.header('x-request-id'), options.trustProxy);
    const headers = [
      ...(uid === undefined ? planned.route.headers.signedOut : planned.route.headers.signedIn),
      'X-Request-Id',
      requestId,
      'Content-Length',
      String(bytes.byteLength),
    ];
    if (extraHeaders) headers.push(...Object.entries(extraHeaders).flat());
    outgoing.writeHead(200, headers);
    outgoing.end(bytes);
    record(planned, requestId, start, uid);
    return true;
  }

  return node;
}

/**
 * @hono/node-server's `createServer` option with the fast reads in front of its listener: what
 * `current()` answers (undefined: none now, e.g. while not serving) tries each request first
 * (serve.ts; the test servers serve the same way, tests/fixtures/server.ts).
 */
export function withFastReads(current: () => FastNodeRead | undefined, extraHeaders?: Record<string, string>): typeof createServer {
  return ((options: ServerOptions, listener: RequestListener) =>
    createServer(options, (incoming, outgoing) => {
      if (current()?.(incoming, outgoing, extraHeaders)) return;
      listener(incoming, outgoing);
    })) as typeof createServer;
}

/**
 * A request target in characters @hono/node-server's URL keeps as they are (no `#`, `\\`, quote,
 * space or non-ASCII); a dot segment never matches a route's path anyway.
 */
const PLAIN_TARGET = /^[\w\-.~%+=&,:;@!$*()/?]*$/;

/** A topic's own address with an id of plain characters and no query (anything else: the app's way). */
const TOPIC_TARGET = /^\/api\/topics\/([\w-]{1,128})$/;

/** Whether @hono/node-server takes a Host header (its buildUrl: the URL's host name must be the header's, ignoring case). */
function acceptedHost(host: string): boolean {
  try {
    const url = new URL(`http://${host}/`);
    return url.hostname.length === host.length || url.hostname === host.replace(/:\d+$/, '').toLowerCase();
  } catch {
    return false;
  }
}

function firstOf(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
