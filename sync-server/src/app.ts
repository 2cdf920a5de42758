// Builds the Hono app from its dependencies, apart from any listener, so tests
// and benchmarks run exactly what production runs (app.request() or a port).
import { Hono } from 'hono';
import { LIMITS } from '../../shared/constants.js';
import { MSG } from '../../shared/messages.js';
import { newId as defaultNewId } from '../../shared/ids.js';
import type { TokenVerifier } from './auth/verifier.js';
import { createChangeFeed, type ChangeFeed } from './domain/change-feed.js';
import type { DomainContext } from './domain/context.js';
import { authenticate, type AppEnv } from './http/auth.js';
import { limitBody } from './http/body-limit.js';
import { errorResponse } from './http/errors.js';
import { configRoutes, readClientConfig, type ClientConfig } from './routes/config.js';
import { notificationsRoutes } from './routes/notifications.js';
import { responsesRoutes } from './routes/responses.js';
import { sourcesRoutes } from './routes/sources.js';
import { siteFilesRoutes } from './routes/site-files.js';
import { topicsRoutes } from './routes/topics.js';
import { upvotesRoutes } from './routes/upvotes.js';
import { usersRoutes } from './routes/users.js';
import { requireCurrentSyncProtocol } from './sync/protocol-version.js';
import { syncRoutes } from './sync/routes.js';
import type { Store } from './store/types.js';

/** How much of a too-large body is read and dropped before the 413; past it the connection closes. */
const DISCARD_BYTES = 16 * LIMITS.bodyBytes;

export interface AppDeps {
  store: Store;
  verifier: TokenVerifier;
  clock?: () => Date;
  newId?: () => string;
  changes?: ChangeFeed;
  log?: (message: string, error?: unknown) => void;
  clientConfig?: ClientConfig;
}

export function createApp(deps: AppDeps) {
  const ctx: DomainContext = {
    store: deps.store,
    clock: deps.clock ?? (() => new Date()),
    newId: deps.newId ?? defaultNewId,
    changes: deps.changes ?? createChangeFeed(),
  };
  const log = deps.log ?? ((message, error) => console.error(message, error));

  const api = new Hono<AppEnv>()
    .use(
      limitBody(LIMITS.bodyBytes, DISCARD_BYTES, (c, headers) =>
        c.json({ error: MSG.bodyTooLarge, code: 'resource-exhausted' }, 413, headers),
      ),
    )
    .get('/health', (c) => c.json({ ok: true }))
    .route('/config', configRoutes(deps.clientConfig ?? readClientConfig()))
    .use('/sync/*', requireCurrentSyncProtocol)
    .use(authenticate(deps.verifier, ctx))
    .route('/topics', topicsRoutes(ctx))
    .route('/responses', responsesRoutes(ctx))
    .route('/sources', sourcesRoutes(ctx))
    .route('/upvotes', upvotesRoutes(ctx))
    .route('/users', usersRoutes(ctx))
    .route('/notifications', notificationsRoutes(ctx))
    .route('/sync', syncRoutes(ctx));

  const app = new Hono<AppEnv>();
  app.route('/api', api);
  app.route('/', siteFilesRoutes(ctx));
  app.all('/api/*', (c) => c.json({ error: MSG.notFound, code: 'not-found' }, 404));
  app.onError((error, c) => errorResponse(c, error, log));
  return { app, ctx };
}
