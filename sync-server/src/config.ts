// Everything the server reads from the environment, in one place (README lists it).
import { readPushServiceHosts } from './push/endpoint.js';
import { OPINION_GROUPS } from '../../shared/rules/opinion-groups.js';
import { readVapidConfig, type VapidConfig } from './push/vapid.js';
import { resolve } from 'node:path';
import { readRateLimits, type RateLimitConfig } from './http/rate-limit.js';
import type { BackupConfig } from './backup/schedule.js';
import { DEFAULT_MODERATION_LIMITS, type ModerationLimits } from './domain/limits.js';
import { readMetricsConfig, type MetricsConfig } from './observe/metrics-access.js';

/** The server's own address, for links when PUBLIC_URL is not set (works out of the box locally). */
export function localUrl(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseFile: string;
  /** DATABASE_URL=postgres://…: the PostgreSQL store (docs/OPERATIONS.md "PostgreSQL"); unset: SQLite at databaseFile. */
  databaseUrl: string | undefined;
  /**
   * READ_DATABASE_URL=postgres://…: a streaming replica of DATABASE_URL for the reads of GET requests
   * and sync pulls (docs/POSTGRES.md "Read replicas"); unset: every query to DATABASE_URL.
   */
  readDatabaseUrl: string | undefined;
  /** READ_REPLICA_MAX_LAG_SECONDS: past this lag every read goes to the primary (default 30). */
  replicaMaxLagSeconds: number;
  /** PG_POOL_MAX: query connections per process on PostgreSQL (default 10). */
  pgPoolMax: number;
  /** PG_PREPARED_STATEMENTS=off: no named prepared statements (a pooler that cannot keep them; default on). */
  pgPreparedStatements: boolean;
  staticDir: string;
  firebaseProjectId: string;
  serviceAccountJson: string | undefined;
  seedDemo: boolean;
  /** The weekly summary mail (docs/OPERATIONS.md "Weekly mail"). */
  mail: MailConfig;
  /** DB_BUSY_TIMEOUT_MS: how long a write waits for another connection's lock before a 503 (default 5000). */
  dbBusyTimeoutMs: number;
  /** SQLITE_CACHE_MB / SQLITE_MMAP_MB: the SQLite connection's page cache and memory map (store/sqlite/connection.ts; undefined: its defaults). */
  sqliteCacheMb?: number | undefined;
  sqliteMmapMb?: number | undefined;
  /** AUTH_STATUS_CACHE_SECONDS: how long a disabled or revoked account's tokens may still pass (default 30). */
  authStatusCacheMs: number;
  /** RATE_LIMITS=off, RATE_LIMIT_*, TRUST_PROXY (http/rate-limit.ts; docs/SECURITY.md "Rate limits"). */
  rateLimits: RateLimitConfig;
  /** BACKUP_DIR, BACKUP_EVERY_HOURS, BACKUP_KEEP: scheduled backups (backup/schedule.ts; docs/OPERATIONS.md "Backups"). */
  backup: BackupConfig;
  /** SHUTDOWN_TIMEOUT_MS: how long a SIGTERM's drain may take before the process exits anyway (default 10000). */
  shutdownTimeoutMs: number;
  /** SHUTDOWN_DELAY_MS: after a SIGTERM, how long /api/ready says 503 while requests are still taken (default 0). */
  shutdownDelayMs: number;
  /** MODERATION_LIMITS=off, AUTO_HIDE_REPORTS, NEW_USER_*, NEW_ACCOUNT_HOURS, SPAM_*: docs/MODERATION.md (domain/limits.ts). */
  moderation: ModerationLimits;
  /** Web Push (docs/OPERATIONS.md "Push"): VAPID_PUBLIC_KEY/VAPID_PRIVATE_KEY/VAPID_SUBJECT, PUSH_ALLOW_LOOPBACK=on for local push services, PUSH_SERVICE_HOSTS for push services beyond the browsers' own. */
  push: { vapid: VapidConfig; allowLoopback: boolean; serviceHosts: string[] };
  /** METRICS_PORT, METRICS_HOST, METRICS_TOKEN: where GET /metrics is served (observe/metrics-access.ts; docs/OPERATIONS.md "Metrics"). LOG_LEVEL is read by observe/logger.ts. */
  metrics: MetricsConfig;
  /**
   * SERVER_PROCESSES: how many processes serve the SQLite file on this machine (default 1; cluster/primary.ts,
   * docs/OPERATIONS.md "Several processes on one SQLite file"). With DATABASE_URL, run several servers instead.
   */
  serverProcesses: number;
  /** Opinion groups (domain/opinion-groups.ts): OPINION_GROUPS_GAP_SECONDS between two computations of a topic (default 180). */
  groups: { tickMs: number; minGapMs: number };
}

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const dataDir = resolve(env.DATA_DIR ?? 'data');
  return {
    port: Number(env.PORT ?? 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir,
    databaseFile: resolve(dataDir, 'crux.sqlite'),
    databaseUrl: env.DATABASE_URL?.trim() || undefined,
    readDatabaseUrl: env.READ_DATABASE_URL?.trim() || undefined,
    replicaMaxLagSeconds: positive(env.READ_REPLICA_MAX_LAG_SECONDS, 30),
    pgPoolMax: Math.max(1, Math.floor(Number(env.PG_POOL_MAX ?? 10)) || 10),
    pgPreparedStatements: env.PG_PREPARED_STATEMENTS?.trim() !== 'off',
    staticDir: resolve(env.STATIC_DIR ?? 'dist'),
    firebaseProjectId: env.FIREBASE_PROJECT_ID ?? 'demo-crux',
    serviceAccountJson: env.FIREBASE_SERVICE_ACCOUNT,
    seedDemo: (env.SEED_DEMO ?? 'true') !== 'false',
    mail: readMailConfig(env, dataDir),
    push: {
      vapid: readVapidConfig(env),
      allowLoopback: env.PUSH_ALLOW_LOOPBACK === 'on',
      serviceHosts: readPushServiceHosts(env.PUSH_SERVICE_HOSTS),
    },
    rateLimits: readRateLimits(env),
    dbBusyTimeoutMs: Number(env.DB_BUSY_TIMEOUT_MS ?? 5000),
    sqliteCacheMb: env.SQLITE_CACHE_MB?.trim() ? Number(env.SQLITE_CACHE_MB) : undefined,
    sqliteMmapMb: env.SQLITE_MMAP_MB?.trim() ? Number(env.SQLITE_MMAP_MB) : undefined,
    authStatusCacheMs: 1000 * Number(env.AUTH_STATUS_CACHE_SECONDS ?? 30),
    backup: {
      dir: env.BACKUP_DIR?.trim() ? resolve(env.BACKUP_DIR.trim()) : undefined,
      everyHours: positive(env.BACKUP_EVERY_HOURS, 24),
      keep: Math.floor(positive(env.BACKUP_KEEP, 7)),
    },
    shutdownTimeoutMs: positive(env.SHUTDOWN_TIMEOUT_MS, 10_000),
    shutdownDelayMs: positive(env.SHUTDOWN_DELAY_MS, 0),
    moderation: readModerationLimits(env),
    metrics: readMetricsConfig(env),
    groups: readGroupsConfig(env),
    serverProcesses: readServerProcesses(env),
  };
}

/** At most this many serving processes (a machine with more cores than this runs PostgreSQL's way). */
export const MAX_SERVER_PROCESSES = 64;

function readServerProcesses(env: NodeJS.ProcessEnv): number {
  const raw = env.SERVER_PROCESSES?.trim();
  if (!raw) return 1;
  const count = Number(raw);
  if (!Number.isInteger(count) || count < 1 || count > MAX_SERVER_PROCESSES)
    throw new Error(`SERVER_PROCESSES must be a whole number from 1 to ${MAX_SERVER_PROCESSES} (got "${raw}").`);
  if (count > 1 && env.DATABASE_URL?.trim())
    throw new Error(
      'SERVER_PROCESSES is for the SQLite file; with DATABASE_URL (PostgreSQL) start several servers instead (docs/OPERATIONS.md "PostgreSQL").',
    );
  return count;
}

/** The grouping job looks at marked topics every 10 s, or as often as the gap when that is shorter. */
function readGroupsConfig(env: NodeJS.ProcessEnv): Config['groups'] {
  const minGapMs = 1000 * positive(env.OPINION_GROUPS_GAP_SECONDS, OPINION_GROUPS.RECOMPUTE_MS / 1000);
  return { minGapMs, tickMs: Math.max(100, Math.min(10_000, minGapMs)) };
}

/** The environment variables of the moderation limits, with the field each sets (docs/MODERATION.md lists them). */
export const MODERATION_ENV = {
  AUTO_HIDE_REPORTS: 'autoHideReports',
  NEW_USER_TOPICS_PER_DAY: 'newUserTopicsPerDay',
  NEW_USER_LINKS: 'newUserLinks',
  NEW_ACCOUNT_HOURS: 'newAccountHours',
  SPAM_REPEATS: 'spamRepeats',
  SPAM_WINDOW_MINUTES: 'spamWindowMinutes',
} as const;

/**
 * The new-account limits and the spam check (unset or invalid variables keep MODERATION_DEFAULTS;
 * 0 is allowed: NEW_USER_LINKS=0, no source for new accounts). MODERATION_LIMITS=off turns the
 * new-account limits and the spam check off (load tests, test servers).
 */
export function readModerationLimits(env: NodeJS.ProcessEnv = process.env): ModerationLimits {
  const limits: ModerationLimits = { ...DEFAULT_MODERATION_LIMITS };
  limits.enabled = !['off', 'false', '0'].includes((env.MODERATION_LIMITS ?? '').trim().toLowerCase());
  for (const [name, field] of Object.entries(MODERATION_ENV)) {
    const value = Number(env[name]?.trim() || NaN);
    if (Number.isFinite(value) && value >= 0) limits[field] = field === 'newAccountHours' ? value : Math.floor(value);
  }
  return limits;
}

/** A positive number, or `fallback` when unset or not one. */
function positive(value: string | undefined, fallback: number): number {
  const number = Number(value?.trim() || NaN);
  return Number.isFinite(number) && number > 0 ? number : fallback;
}

export interface MailConfig {
  /** PUBLIC_URL, where links in mails, robots.txt and sitemap.xml point, no trailing slash; unset: the server's own local address (mail/setup.ts). */
  publicUrl: string | undefined;
  /** SMTP_URL (e.g. smtps://user:pass@smtp.example.com); unset: .eml files under outboxDir. */
  smtpUrl: string | undefined;
  outboxDir: string;
  /** MAIL_SCHEDULE, "<DAY> <HH:MM>" in UTC (default "MON 08:00"). */
  schedule: string;
  /** MAIL_SCHEDULER=off leaves the schedule to another process (npm run mail:scheduler). */
  schedulerEnabled: boolean;
  /** MAIL_SIGNING_KEY; unset: generated once into DATA_DIR/mail-signing.key. */
  signingKey: string | undefined;
  /** MAIL_FROM (default "Crux <no-reply@<PUBLIC_URL's host>>"). */
  from: string;
}

function readMailConfig(env: NodeJS.ProcessEnv, dataDir: string): MailConfig {
  const publicUrl = env.PUBLIC_URL?.trim().replace(/\/+$/, '') || undefined;
  return {
    publicUrl,
    smtpUrl: env.SMTP_URL?.trim() || undefined,
    outboxDir: resolve(dataDir, 'outbox'),
    schedule: env.MAIL_SCHEDULE?.trim() || 'MON 08:00',
    schedulerEnabled: !['off', 'false', '0'].includes((env.MAIL_SCHEDULER ?? 'on').trim().toLowerCase()),
    signingKey: env.MAIL_SIGNING_KEY,
    from: env.MAIL_FROM?.trim() || `Crux <no-reply@${publicUrl ? new URL(publicUrl).hostname : 'localhost'}>`,
  };
}
