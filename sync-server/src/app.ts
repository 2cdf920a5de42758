// Builds the Hono app from its dependencies, apart from any listener, so tests
// and benchmarks run exactly what production runs (app.request() or a port).
import { OpenAPIHono } from '@hono/zod-openapi';
import { LIMITS } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { newId as defaultNewId } from '../../shared/ids.js';
import type { TokenVerifier } from './auth/verifier.js';
import { createChangeFeed, type ChangeFeed } from './domain/change-feed.js';
import type { DomainContext } from './domain/context.js';
import type { ModerationLimits } from './domain/limits.js';
import { readModerationLimits } from './config.js';
import { authenticate, type AppEnv } from './http/auth.js';
import { limitBody } from './http/body-limit.js';
import { compressText } from './http/compression.js';
import { errorResponse } from './http/errors.js';
import { securityHeaderRecord, securityHeaders } from './http/security-headers.js';
import { createFastReads, type FastNodeRead } from './http/fast-reads.js';
import { createRateLimits, readRateLimits, type RateLimitConfig } from './http/rate-limit.js';
import type { LimitBackend } from './http/limit-backend.js';
import type { ClientConfig } from '../../shared/client-config.js';
import { blocksRoutes } from './routes/blocks.js';
import { followsRoutes } from './routes/follows.js';
import { configRoutes, readClientConfig } from './routes/config.js';
import { notificationsRoutes } from './routes/notifications.js';
import { responsesRoutes } from './routes/responses.js';
import { sourcesRoutes } from './routes/sources.js';
import { siteFilesRoutes } from './routes/site-files.js';
import { embedApiRoutes, embedSiteRoutes, readEmbedFrameAncestors, type EmbedOptions } from './routes/embed.js';
import { createTopicSummaries } from './domain/topic-summary.js';
import { stancesRoutes } from './routes/stances.js';
import { topicsRoutes } from './routes/topics.js';
import { unsubscribeRoutes } from './routes/unsubscribe.js';
import { upvotesRoutes } from './routes/upvotes.js';
import { opinionVoteRoutes } from './routes/opinion-votes.js';
import { usersRoutes } from './routes/users.js';
import { moderationRoutes, roleRoutes } from './routes/moderation.js';
import { reportsRoutes } from './routes/reports.js';
import { pushRoutes, type PushSetup } from './routes/push.js';
import { NO_ROLE_ADMIN, type RoleAdmin } from './auth/roles.js';
import { accountRoutes } from './routes/account.js';
import { buildOpenApiDocument, type OpenApiDocument } from './openapi/document.js';
import { serviceRoutes } from './routes/service.js';
import { requireCurrentSyncProtocol, syncRoutes } from './sync/routes.js';
import type { Store } from './store/types.js';
import { createReadiness, type Readiness } from './http/readiness.js';
import { observeRequests, requestLog } from './observe/request.js';
import { mountMetrics } from './observe/metrics-access.js';
import { logger, type Logger } from './observe/logger.js';
import { afterReplica } from './sync/replica-feed.js';

/** How much of a too-large body is read and dropped before the 413; past it the connection closes. */
const DISCARD_BYTES = 16 * LIMITS.bodyBytes;

export interface AppDeps {
  store: Store;
  verifier: TokenVerifier;
  clock?: () => Date;
  newId?: () => string;
  changes?: ChangeFeed;
  /** Where an unexpected error is reported; default: the request's log line at level error (observe/request.ts). */
  log?: (message: string, error?: unknown) => void;
  /** The logger behind the request lines; default: the process's (observe/logger.ts, LOG_LEVEL). */
  logger?: Logger;
  clientConfig?: ClientConfig;
  /** Signs and checks the weekly mail's one-click unsubscribe tokens (mail/signing-key.ts); without it the endpoint answers 503. */
  mailSigningKey?: Buffer;
  /** Default: from the environment (RATE_LIMIT_*, RATE_LIMITS=off; http/rate-limit.ts). */
  rateLimits?: RateLimitConfig;
  /** PUBLIC_URL (no trailing slash): the origin robots.txt and sitemap.xml link to; unset: the server's own address. */
  publicUrl?: string;
  /** Where the rate limits keep their counts; default: this process's memory (http/limit-backend.ts). */
  limitBackend?: LimitBackend;
  /** GET /api/ready's state, and the signal that ends live streams on shutdown (main.ts); default: serving. */
  readiness?: Readiness;
  /** New-account limits and the spam check (domain/limits.ts); default: from the environment (MODERATION_LIMITS=off, NEW_USER_*, SPAM_*). */
  moderation?: ModerationLimits;
  /** Sets the crux_role claim for PUT /api/users/{uid}/role (auth/roles.ts); default: refused (503). */
  roleAdmin?: RoleAdmin;
  /** METRICS_TOKEN: GET /metrics on this app for a bearer of it; unset: 404 (observe/metrics-access.ts). */
  metricsToken?: string;
  /** Web Push's public VAPID key and endpoint policy (push/); without it /api/push answers 503. */
  push?: PushSetup;
  /** EMBED_FRAME_ANCESTORS: who may frame a topic's embed page (a CSP source list); default from the environment, else `*`. */
  embedFrameAncestors?: string;
  /** false: every request goes the middleware's way, none the fast reads' (http/fast-reads.ts; tests compare the two). Default true. */
  fastReads?: boolean;
}

export function createApp(deps: AppDeps) {
  const ctx: DomainContext = {
    store: deps.store,
    clock: deps.clock ?? (() => new Date()),
    newId: deps.newId ?? defaultNewId,
    changes: deps.changes ?? createChangeFeed(),
    moderation: deps.moderation ?? readModerationLimits(),
  };
  const clientConfig = deps.clientConfig ?? readClientConfig();
  const limits = createRateLimits(deps.rateLimits ?? readRateLimits(), deps.limitBackend);
  const readiness = deps.readiness ?? createReadiness();
  // A read replica (PostgreSQL, READ_DATABASE_URL; store/pg/replica.ts) serves the reads of GET
  // requests and sync pulls; everything else, and a caller's reads until the replica has their
  // own writes, reads the primary. Without one, nothing here does anything.
  const reads = deps.store.requests;
  const replicaCaughtUp = deps.store.replicaCaughtUp?.bind(deps.store);
  const replicaLog = deps.log ?? ((message: string, err?: unknown) => (deps.logger ?? logger).error({ err }, message));
  const streamCtx = replicaCaughtUp ? { ...ctx, changes: afterReplica(ctx.changes, replicaCaughtUp, replicaLog) } : ctx;
  const isRead = (method: string, path: string) =>
    method === 'GET' || method === 'HEAD' || (method === 'POST' && path === '/api/sync/responses/pull');

  // Every route of the API is declared once with its description (openapi/route.ts); the sub-apps'
  // declarations gather in the app's OpenAPI registry, which this document is generated from.
  const app = new OpenAPIHono<AppEnv>();
  let document: OpenApiDocument | undefined;
  const describe = () => (document ??= buildOpenApiDocument(app));

  // Share cards, their image, the embed and oEmbed read a topic through one small cache (domain/topic-summary.ts).
  const summaries = createTopicSummaries(ctx);
  const embed: EmbedOptions = {
    publicUrl: deps.publicUrl,
    frameAncestors: deps.embedFrameAncestors ?? readEmbedFrameAncestors(),
  };

  const api = new OpenAPIHono<AppEnv>()
    .use(
      limitBody(LIMITS.bodyBytes, DISCARD_BYTES, (c, headers) =>
        c.json({ error: MSG.bodyTooLarge, code: 'resource-exhausted' }, 413, headers),
      ),
    )
    .route('/', serviceRoutes(readiness, describe))
    .route('/config', configRoutes(clientConfig))
    .route('/', embedApiRoutes(summaries, embed))
    // Before authenticate: the one-click POST carries no session, only the mail's signed token.
    .route('/unsubscribe', unsubscribeRoutes(ctx, deps.mailSigningKey, limits))
    .use('/sync/*', requireCurrentSyncProtocol)
    .use(authenticate(deps.verifier, ctx))
    .use(async (c, next) => {
      reads?.setCaller(c.get('user')?.uid ?? null);
      if (isRead(c.req.method, c.req.path)) reads?.allowReplica();
      await next();
    })
    // REST writes count one row each; a sync push counts its rows (sync/routes.ts).
    .use(async (c, next) => {
      if (!['GET', 'HEAD', 'OPTIONS'].includes(c.req.method) && !c.req.path.startsWith('/api/sync/'))
        await limits.writes(c, c.get('user'), 1);
      await next();
    })
    .route('/topics', stancesRoutes(ctx, limits))
    .route('/topics', topicsRoutes(ctx, limits))
    .route('/responses', responsesRoutes(ctx, limits))
    .route('/sources', sourcesRoutes(ctx, limits))
    .route('/upvotes', upvotesRoutes(ctx))
    .route('/downvotes', opinionVoteRoutes(ctx, 'disagree'))
    .route('/passes', opinionVoteRoutes(ctx, 'pass'))
    .route('/users', roleRoutes(ctx, deps.roleAdmin ?? NO_ROLE_ADMIN))
    .route('/me', accountRoutes(ctx, deps.roleAdmin ?? NO_ROLE_ADMIN))
    .route('/users', usersRoutes(ctx, limits))
    .route('/reports', reportsRoutes(ctx))
    .route('/moderation', moderationRoutes(ctx, limits))
    .route('/notifications', notificationsRoutes(ctx))
    .route('/blocks', blocksRoutes(ctx))
    .route('/follows', followsRoutes(ctx))
    .route('/push', pushRoutes(ctx, deps.push))
    .route('/sync', syncRoutes(streamCtx, { limits, shutdown: readiness.draining }));

  // First: the request's id, its log line and its metrics cover everything below, errors included.
  app.use('*', observeRequests({ trustProxy: limits.config.trustProxy, ...(deps.logger ? { logger: deps.logger } : {}) }));
  if (reads)
    app.use('*', (c, next) =>
      reads.scope(async () => {
        // The site's own pages (no session): a GET reads the replica from the start; the API's, once its caller is known.
        if (!c.req.path.startsWith('/api/') && isRead(c.req.method, c.req.path)) reads.allowReplica();
        await next();
      }),
    );
  app.use('*', securityHeaders(clientConfig));
  // Text answers the build did not precompress (large JSON, robots, sitemap, sw.js): br or gzip on the fly.
  app.use('*', compressText());
  app.route('/api', api);
  // Before the site's routes, which would answer the app's page for any other path.
  mountMetrics(app, deps.metricsToken);
  app.route('/', embedSiteRoutes(summaries, embed));
  app.route('/', siteFilesRoutes(ctx, limits, deps.publicUrl));
  app.all('/api/*', (c) => c.json({ error: MSG.notFound, code: 'not-found' }, 404));
  app.onError((error, c) => errorResponse(c, error, deps.log ?? ((message, err) => requestLog(c).error({ err }, message))));
  // The hottest reads, answered from their kept bytes in front of @hono/node-server (http/fast-reads.ts);
  // not beside a read replica, whose routing by caller lives in the middleware.
  /** The fast reads for Node's request, in front of @hono/node-server (serve.ts; http/fast-reads.ts). */
  const fastNode: FastNodeRead | undefined =
    !reads && deps.fastReads !== false
      ? createFastReads({
          ctx,
          verifier: deps.verifier,
          headers: securityHeaderRecord(clientConfig),
          trustProxy: limits.config.trustProxy,
          readLimits: limits.config.enabled,
          logger: deps.logger ?? logger,
        })
      : undefined;
  return { app, ctx, limits, fastNode };
}
