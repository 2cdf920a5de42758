// One serving process: opens the database (SQLite, or PostgreSQL with DATABASE_URL: backend.ts),
// seeds demo debates on first run, serves the API and the PWA build, and drains on SIGINT/SIGTERM
// (docs/OPERATIONS.md "Shutdown and readiness"). It listens first, so GET /api/ready answers 503
// while the database opens and migrates; the "listening" line is printed once it serves. main.ts
// runs it alone (SERVER_PROCESSES=1) or as one of N under cluster/primary.ts (`serverProcess`).
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { createApp } from './app.js';
import { createFirebaseVerifier } from './auth/verifier.js';
import { createFirebaseRoleAdmin } from './auth/roles.js';
import type { Config } from './config.js';
import { seedDemoIfEmpty } from './seed/demo.js';
import { mountSite } from './routes/site-files.js';
import { limitedFirstPage } from './routes/first-page.js';
import { backupDatabase, openBackend, type Backend } from './backend.js';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { withFastReads, type FastNodeRead } from './http/fast-reads.js';
import { startMailScheduler, type MailScheduler } from './mail/scheduler.js';
import { createMailer } from './mail/setup.js';
import { loadSigningKey } from './mail/signing-key.js';
import { startBackupSchedule, type BackupSchedule } from './backup/schedule.js';
import { createReadiness, readyAnswer } from './http/readiness.js';
import { loadVapidKeys } from './push/vapid.js';
import { startPushSender, type PushSender } from './push/sender.js';
import { logger } from './observe/logger.js';
import { startMetricsServer } from './observe/metrics-access.js';
import { announce } from './observe/announce.js';
import { randomUUID } from 'node:crypto';
import { startGroupingJob, type GroupingJob } from './domain/opinion-groups.js';
import { PROCESS_HEADER, type ServerProcessRole } from './cluster/worker.js';

type Bindings = HttpBindings | Http2Bindings;

/**
 * Serves until SIGINT/SIGTERM. `serverProcess`: one of SERVER_PROCESSES=N (cluster/worker.ts); only
 * its index 0 runs the background work (seed, mail, pushes, opinion groups, backups).
 */
export async function serveProcess(config: Config, serverProcess?: ServerProcessRole): Promise<void> {
  const owner = !serverProcess || serverProcess.index === 0;
  const readiness = createReadiness('starting');

  // Requests the app is answering (a write is answered after its COMMIT): drained before the store closes.
  let inFlight = 0;
  let drained: (() => void) | undefined;
  let appFetch: ((request: Request, env: Bindings) => Response | Promise<Response>) | undefined;

  // Answers before the app takes requests (starting, draining) carry a request id too (observe/request.ts makes the app's).
  const json = (body: unknown, status: number, headers: Record<string, string> = {}) =>
    new Response(JSON.stringify(body), {
      status,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store', 'X-Request-Id': randomUUID(), ...headers },
    });

  // False once a SIGTERM's SHUTDOWN_DELAY_MS is over: from then on nothing new is taken.
  let accepting = true;

  // Tests of SERVER_PROCESSES only (CRUX_TEST_PROCESS_HEADER=1): which process answered.
  const processHeader = serverProcess && process.env.CRUX_TEST_PROCESS_HEADER === '1' ? String(serverProcess.index) : undefined;

  async function handle(request: Request, env: Bindings): Promise<Response> {
    const state = readiness.state();
    if (state !== 'serving' || !appFetch) {
      const path = new URL(request.url).pathname;
      if (path === '/api/ready') {
        const { body, status } = readyAnswer(state);
        return json(body, status, state === 'draining' && !accepting ? { Connection: 'close' } : {});
      }
      // Starting: nothing yet. Draining: what SHUTDOWN_DELAY_MS still lets in, and /api/health (as it was).
      const taken = appFetch && state === 'draining' && (accepting || path === '/api/health');
      if (!taken)
        return json({ error: 'The server is not serving (starting or shutting down): try again.', code: 'unavailable' }, 503, {
          'Retry-After': '1',
          ...(state === 'draining' ? { Connection: 'close' } : {}),
        });
    }
    inFlight++;
    try {
      const response = await appFetch!(request, env);
      if (processHeader) response.headers.set(PROCESS_HEADER, processHeader);
      return response;
    } finally {
      inFlight--;
      if (inFlight === 0) drained?.();
    }
  }

  // The hottest reads (http/fast-reads.ts), answered from bytes at hand before @hono/node-server
  // builds a Request and a Response for them: only while serving, as `handle` would.
  let fastNode: FastNodeRead | undefined;
  const processHeaders = processHeader ? { [PROCESS_HEADER]: processHeader } : undefined;
  const createServer = withFastReads(() => (accepting && readiness.state() === 'serving' ? fastNode : undefined), processHeaders);
  const server = serve({ fetch: handle, port: config.port, hostname: config.host, createServer }) as Server;
  // Idle keep-alive connections stay open longer than a client or a load balancer keeps them (60 s
  // is common): with Node's 5 s, a request sent on a connection the server is just closing was reset.
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });

  let backend: Backend | undefined;
  let mailScheduler: MailScheduler | undefined;
  let backups: BackupSchedule | undefined;
  let pushSender: PushSender | undefined;
  let groupingJob: GroupingJob | undefined;
  let stopping = false;

  async function stop() {
    if (stopping) return;
    stopping = true;
    readiness.set('draining'); // /api/ready 503
    // Bounded: whatever still runs after SHUTDOWN_TIMEOUT_MS is cut short (a write not yet
    // committed is not acknowledged either; the mail run resumes at the next start, mail/weekly.ts).
    const deadline = setTimeout(() => {
      logger.error({ inFlight }, `Shutdown: still busy after ${config.shutdownTimeoutMs} ms (${inFlight} requests); exiting anyway.`);
      process.exit(1);
    }, config.shutdownTimeoutMs);
    deadline.unref();
    // Behind a load balancer that polls /api/ready: still serving while it notices (default 0).
    if (config.shutdownDelayMs > 0 && appFetch) await new Promise((resolve) => setTimeout(resolve, config.shutdownDelayMs));
    accepting = false; // new requests 503
    readiness.endStreams(); // live streams end; their clients reconnect (elsewhere)
    server.close(); // no new connections
    server.closeIdleConnections();
    if (inFlight > 0) await new Promise<void>((resolve) => (drained = resolve));
    // The weekly mail's step under way and a backup under way finish; then the store closes (the
    // SQLite group commit has answered everyone above, so nothing waits for a COMMIT).
    // The pushes being sent finish; the rest stay queued in the database for the next start.
    await Promise.all([mailScheduler?.stop(), backups?.stop(), pushSender?.stop(), groupingJob?.stop()]);
    await backend?.close().catch(() => {});
    server.closeAllConnections();
    logger.info('Shutdown: drained.');
    process.exit(0);
  }
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());

  try {
    readiness.set('migrating');
    backend = await openBackend(config, serverProcess ? { sharedFile: serverProcess.sharedFile } : {});
    readiness.set('starting');
    const { store } = backend;
    const verifier = createFirebaseVerifier(config.firebaseProjectId, config.serviceAccountJson, {
      statusCacheMs: config.authStatusCacheMs,
    });
    // Warns at start when the key is generated but PUBLIC_URL is a public address (docs/OPERATIONS.md "Weekly mail").
    // (Several processes: the primary made the file before they started; only index 0 warns.)
    const mailSigningKey = loadSigningKey({
      configured: config.mail.signingKey,
      dataDir: config.dataDir,
      publicUrl: config.mail.publicUrl,
      ...(owner ? {} : { warn: () => {} }),
    });
    // Web Push (docs/OPERATIONS.md "Push"): VAPID_* in production, else a pair generated once into the database.
    const vapid = await loadVapidKeys(store, config.push.vapid, config.mail.publicUrl);
    const {
      app,
      ctx,
      limits,
      fastNode: fast,
    } = createApp({
      store,
      verifier,
      mailSigningKey,
      rateLimits: config.rateLimits,
      changes: backend.changes,
      limitBackend: backend.limits,
      readiness,
      publicUrl: config.mail.publicUrl,
      moderation: config.moderation,
      roleAdmin: createFirebaseRoleAdmin(config.firebaseProjectId, config.serviceAccountJson),
      push: { publicKey: vapid.publicKey, allowLoopback: config.push.allowLoopback, serviceHosts: config.push.serviceHosts },
      ...(config.metrics.token ? { metricsToken: config.metrics.token } : {}),
    });

    if (owner && config.seedDemo && (await seedDemoIfEmpty(ctx))) logger.info('Seeded demo debates.');

    mountSite(app, config.staticDir, limitedFirstPage(ctx, limits), config.mail.publicUrl);
    const port = (server.address() as AddressInfo).port;

    // The weekly summary e-mail on its schedule (docs/OPERATIONS.md "Weekly mail"); with MAIL_SCHEDULER=off
    // another process runs it (npm run mail:scheduler). Links default to this server's own address.
    // Several processes: the background work below runs in process 0 alone, once, not N times (it hears
    // every process's changes through the primary, cluster/ipc-feed.ts).
    if (owner && config.mail.schedulerEnabled) {
      const mailer = createMailer({ config, store, port, signingKey: mailSigningKey });
      mailScheduler = startMailScheduler({ ...mailer.deps, schedule: mailer.schedule });
    }

    // Every process sends queued pushes; each claims rows before sending (push/sender.ts), so none goes twice.
    if (owner)
      pushSender = startPushSender({
        store,
        changes: ctx.changes,
        vapid,
        allowLoopback: config.push.allowLoopback,
        serviceHosts: config.push.serviceHosts,
      });

    // Opinion groups: recomputed in the background, at most every OPINION_GROUPS_GAP_SECONDS per topic.
    if (owner) groupingJob = startGroupingJob(ctx, { ...config.groups, log: (line) => console.error(line) });

    // Scheduled backups (docs/OPERATIONS.md "Backups"): BACKUP_DIR set, every BACKUP_EVERY_HOURS.
    const backupDir = config.backup.dir;
    if (owner && backupDir) {
      backups = startBackupSchedule({
        config: { ...config.backup, dir: backupDir },
        extension: config.databaseUrl ? 'dump' : 'sqlite',
        backup: (target) => backupDatabase(config, target),
      });
    }

    // GET /metrics on a port of its own, on loopback unless METRICS_HOST says otherwise (docs/OPERATIONS.md "Metrics").
    // Several processes: the primary serves it, summed over them all (cluster/primary.ts).
    if (!serverProcess && config.metrics.port !== undefined) {
      const metricsServer = await startMetricsServer(config.metrics.port, config.metrics.host);
      metricsServer.server.unref();
      announce(`Metrics on http://${config.metrics.host}:${metricsServer.port}/metrics`, { metricsPort: metricsServer.port });
    }

    if (!stopping) {
      appFetch = (request, env) => app.fetch(request, env);
      fastNode = fast;
      readiness.set('serving');
      // Tests read this line to learn the port when PORT=0 (several processes: the primary prints it once all serve).
      if (serverProcess) serverProcess.serving(port);
      else announce(`Crux server listening on http://${config.host}:${port}`, { port });
    }
  } catch (error) {
    logger.fatal({ err: error }, 'The server could not start');
    // The reason is also on stderr whatever LOG_LEVEL says: a server that will not start must say why.
    if (!logger.isLevelEnabled('fatal')) console.error('The server could not start:', error);
    process.exit(1);
  }
}
