// The Node listener: opens the database (SQLite, or PostgreSQL with DATABASE_URL: backend.ts),
// seeds demo debates on first run, serves the API and the PWA build, and stops cleanly on
// SIGINT/SIGTERM.
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import { createFirebaseVerifier } from './auth/verifier.js';
import { readConfig } from './config.js';
import { seedDemoIfEmpty } from './seed/demo.js';
import { mountSite } from './routes/site-files.js';
import { limitedFirstPage } from './routes/first-page.js';
import { openBackend } from './backend.js';
import type { AddressInfo } from 'node:net';
import { startMailScheduler, type MailScheduler } from './mail/scheduler.js';
import { createMailer } from './mail/setup.js';
import { loadSigningKey } from './mail/signing-key.js';
import { startBackupSchedule, type BackupSchedule } from './backup/schedule.js';
import { backupSqlite } from './backup/sqlite.js';
import { backupPostgres } from './backup/postgres.js';

const config = readConfig();
const backend = await openBackend(config);
const { store } = backend;
const verifier = createFirebaseVerifier(config.firebaseProjectId, config.serviceAccountJson, {
  statusCacheMs: config.authStatusCacheMs,
});
// Warns at start when the key is generated but PUBLIC_URL is a public address (docs/OPERATIONS.md "Weekly mail").
const mailSigningKey = loadSigningKey({ configured: config.mail.signingKey, dataDir: config.dataDir, publicUrl: config.mail.publicUrl });
const { app, ctx, limits } = createApp({
  store,
  verifier,
  mailSigningKey,
  rateLimits: config.rateLimits,
  changes: backend.changes,
  limitBackend: backend.limits,
});

if (config.seedDemo && (await seedDemoIfEmpty(ctx))) console.log('Seeded demo debates.');

mountSite(app, config.staticDir, limitedFirstPage(ctx, limits));

const server = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, (info) => {
  // Tests read this line to learn the port when PORT=0.
  console.log(`Crux server listening on http://${config.host}:${info.port}`);
});
// Idle keep-alive connections stay open longer than a client or a load balancer keeps them (60 s
// is common): with Node's 5 s, a request sent on a connection the server is just closing was reset.
if ('keepAliveTimeout' in server) {
  server.keepAliveTimeout = 65_000;
  server.headersTimeout = 66_000;
}

// The weekly summary e-mail on its schedule (docs/OPERATIONS.md "Weekly mail"); with MAIL_SCHEDULER=off
// another process runs it (npm run mail:scheduler). Links default to this server's own address.
let mailScheduler: MailScheduler | undefined;
if (config.mail.schedulerEnabled) {
  server.once('listening', () => {
    const mailer = createMailer({ config, store, port: (server.address() as AddressInfo).port, signingKey: mailSigningKey });
    mailScheduler = startMailScheduler({ ...mailer.deps, schedule: mailer.schedule });
  });
}

// Scheduled backups (docs/OPERATIONS.md "Backups"): BACKUP_DIR set, every BACKUP_EVERY_HOURS.
let backups: BackupSchedule | undefined;
const backupDir = config.backup.dir;
if (backupDir) {
  const { databaseUrl } = config;
  backups = startBackupSchedule({
    config: { ...config.backup, dir: backupDir },
    extension: databaseUrl ? 'dump' : 'sqlite',
    backup: (target) =>
      databaseUrl
        ? backupPostgres(databaseUrl, target)
        : backupSqlite(config.databaseFile, target, { busyTimeoutMs: config.dbBusyTimeoutMs }),
  });
}

async function stop() {
  // A run cut short here is resumed at the next start (mail/weekly.ts). A mail in flight gets two
  // seconds to finish, so the weekly lease is given back rather than left to expire.
  server.close();
  await Promise.race([Promise.all([mailScheduler?.stop(), backups?.stop()]), new Promise((resolve) => setTimeout(resolve, 2000))]);
  await backend.close().catch(() => {});
  process.exit(0);
}
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
