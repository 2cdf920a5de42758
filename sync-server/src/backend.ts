// What the server runs on, chosen by configuration: SQLite in this process (the
// default: one file, one process; SERVER_PROCESSES=N serves the file from N processes on one
// machine: cluster/primary.ts), or PostgreSQL when DATABASE_URL is set, where several server
// processes share the store, the live stream's change feed (LISTEN/NOTIFY) and the rate-limit
// counts. main.ts, the commands and the two-process tests open it the same way.
import type { Config } from './config.js';
import { createChangeFeed, type ChangeFeed } from './domain/change-feed.js';
import { createMemoryLimitBackend, type LimitBackend } from './http/limit-backend.js';
import { BACKSTOP_AUTOCHECKPOINT_PAGES, DEFAULT_CHECKPOINT_EVERY_MS, startCheckpointer } from './store/sqlite/checkpointer.js';
import { openDatabase } from './store/sqlite/connection.js';
import { createStore, type SqliteStore } from './store/sqlite/store.js';
import type { VersionClockOptions } from './store/sqlite/kept-versions.js';
import { migrateInWorker } from './store/sqlite/migrate-worker.js';

import type { Store, WriteToken } from './store/types.js';
import { closeSync, openSync, readSync } from 'node:fs';
import { backupSqlite, restoreSqlite, SQLITE_MAGIC } from './store/sqlite/backup.js';

// PostgreSQL's modules (the `pg` driver and everything built on it) are imported only when
// DATABASE_URL is set: a SQLite server never loads them, which keeps its start-up short.
const postgres = () => import('./store/pg/backend.js');

export interface Backend {
  store: Store;
  changes: ChangeFeed;
  limits: LimitBackend;
  close(): Promise<void>;
}

/** A PostgreSQL URL is one that says so; anything else in DATABASE_URL is a mistake worth stopping for. */
function checkUrl(url: string, name = 'DATABASE_URL'): string {
  if (!/^postgres(ql)?:\/\//i.test(url)) throw new Error(`${name} must be a postgres:// (or postgresql://) URL.`);
  return url;
}

/** READ_DATABASE_URL: a replica of the PostgreSQL primary, so only beside DATABASE_URL. */
function readUrl(config: { databaseUrl: string | undefined; readDatabaseUrl?: string | undefined }): string | undefined {
  if (!config.readDatabaseUrl) return undefined;
  if (!config.databaseUrl)
    throw new Error('READ_DATABASE_URL is a streaming replica of the PostgreSQL primary: set DATABASE_URL to the primary too.');
  return checkUrl(config.readDatabaseUrl, 'READ_DATABASE_URL');
}

/** The store alone (the mail commands). */
export async function openStore(config: Pick<Config, 'databaseUrl' | 'pgPoolMax' | 'databaseFile' | 'dbBusyTimeoutMs'>): Promise<Store> {
  if (config.databaseUrl) {
    const { createPgStore } = await postgres();
    return createPgStore({ connectionString: checkUrl(config.databaseUrl), max: config.pgPoolMax, busyTimeoutMs: config.dbBusyTimeoutMs });
  }
  return createStore(openDatabase(config.databaseFile, { busyTimeoutMs: config.dbBusyTimeoutMs }));
}

/**
 * One serving process of several on one SQLite file (SERVER_PROCESSES, cluster/primary.ts): the
 * primary migrates the file, the change feed and the rate-limit counts go through it, and one
 * process (`checkpointer`) checkpoints the WAL.
 */
export interface SharedSqliteFile {
  migrated: Promise<void>;
  changes: ChangeFeed;
  limits: LimitBackend;
  checkpointer: boolean;
  /** The right to write, handed between the processes by the primary (cluster/write-token.ts). */
  writeToken?: WriteToken;
}

/** Everything a server process needs. */
export async function openBackend(
  config: Pick<Config, 'databaseUrl' | 'pgPoolMax' | 'databaseFile' | 'dbBusyTimeoutMs'> &
    Partial<Pick<Config, 'readDatabaseUrl' | 'replicaMaxLagSeconds' | 'sqliteCacheMb' | 'sqliteMmapMb' | 'pgPreparedStatements'>>,
  options: {
    log?: (message: string, error: unknown) => void;
    sharedFile?: SharedSqliteFile;
    /** How the kept versions are re-read (store/sqlite/kept-versions.ts, store/pg/kept-versions.ts; tests set the clock). */
    keptVersions?: VersionClockOptions;
  } = {},
): Promise<Backend> {
  const readConnectionString = readUrl(config);
  const shared = options.sharedFile;
  // The page cache and memory map of the serving connection (SQLITE_CACHE_MB, SQLITE_MMAP_MB; connection.ts).
  const memory = { cacheMb: config.sqliteCacheMb, mmapMb: config.sqliteMmapMb };
  if (!config.databaseUrl && shared) {
    await shared.migrated;
    const db = openDatabase(config.databaseFile, { busyTimeoutMs: config.dbBusyTimeoutMs, ...memory });
    // The one checkpointer checkpoints for every process; the others keep SQLite's own as a backstop only.
    const checkpointer = shared.checkpointer ? startCheckpointer(db, config.databaseFile, DEFAULT_CHECKPOINT_EVERY_MS) : undefined;
    if (!shared.checkpointer) db.pragma(`wal_autocheckpoint = ${BACKSTOP_AUTOCHECKPOINT_PAGES}`);
    const store = createStore(db, {
      checkpointer,
      sharedFile: { busyTimeoutMs: config.dbBusyTimeoutMs, ...(shared.writeToken ? { writeToken: shared.writeToken } : {}) },
      ...(options.keptVersions ? { keptVersions: options.keptVersions } : {}),
    });
    buildTitleIndex(store);
    // Another process's write arrives as its change message: the kept versions are read again at
    // once, not only once they are a few ms old (store/sqlite/kept-versions.ts). This process's own
    // messages come back here too (a harmless extra read).
    const unsubscribe = shared.changes.subscribe(() => store.versions?.changedElsewhere());
    return {
      store,
      changes: shared.changes,
      limits: shared.limits,
      close: () => {
        unsubscribe();
        return store.close();
      },
    };
  }
  if (!config.databaseUrl) {
    // Off the main thread: meanwhile GET /api/ready answers 503 `migrating` (store/sqlite/migrate-worker.ts).
    await migrateInWorker(config.databaseFile, config.dbBusyTimeoutMs);
    // The WAL is checkpointed by a worker thread, not inside a request's COMMIT (store/sqlite/checkpointer.ts).
    const db = openDatabase(config.databaseFile, { busyTimeoutMs: config.dbBusyTimeoutMs, ...memory });
    const store = createStore(db, { checkpointer: startCheckpointer(db, config.databaseFile, DEFAULT_CHECKPOINT_EVERY_MS) });
    buildTitleIndex(store);
    return { store, changes: createChangeFeed(), limits: createMemoryLimitBackend(), close: () => store.close() };
  }
  const { openPgBackend } = await postgres();
  return openPgBackend(checkUrl(config.databaseUrl), config, readConnectionString, options.log, options.keptVersions);
}

/**
 * A serving process builds its title index (store/sqlite/title-index.ts) at start, in short turns,
 * rather than at the first search: otherwise the first seconds of searches after a start each went
 * to FTS5 while the build took turns between them (a p99 of 1.3–1.7 s in those seconds at full size).
 * Until it is built, and if the build fails (the connection closed meanwhile), FTS5 answers.
 */
function buildTitleIndex(store: SqliteStore): void {
  store.topics.titleIndexReady().catch(() => {});
}

/** The SQLite file's migrations, off the main thread (the primary of SERVER_PROCESSES runs them once for all). */
export function migrateSqliteFile(config: Pick<Config, 'databaseFile' | 'dbBusyTimeoutMs'>): Promise<void> {
  return migrateInWorker(config.databaseFile, config.dbBusyTimeoutMs);
}

type DatabaseConfig = Pick<Config, 'databaseUrl' | 'databaseFile' | 'dbBusyTimeoutMs'>;

/**
 * A consistent copy of the configured database into `target` while the servers serve (docs/OPERATIONS.md
 * "Backups"): SQLite's online backup API in one snapshot (store/sqlite/backup.ts), or `pg_dump -Fc` (store/pg/backup.ts).
 */
export function backupDatabase(config: DatabaseConfig, target: string): Promise<void> {
  if (config.databaseUrl) return postgres().then(({ backupPostgres }) => backupPostgres(checkUrl(config.databaseUrl!), target));
  return backupSqlite(config.databaseFile, target, { busyTimeoutMs: config.dbBusyTimeoutMs });
}

/** The file's first bytes, to tell a SQLite database from a pg_dump archive. */
function head(path: string): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(16);
    const read = readSync(fd, buffer, 0, 16, 0);
    return buffer.subarray(0, read).toString('latin1');
  } finally {
    closeSync(fd);
  }
}

/**
 * Puts the backup `file` in place of the configured database; throws DatabaseInUseError
 * (backup/errors.ts) while a server runs on it. Answers what it did, for the operator.
 */
export async function restoreDatabase(config: DatabaseConfig, file: string): Promise<string> {
  const start = head(file);
  if (config.databaseUrl) {
    const { PG_DUMP_MAGIC, restorePostgres } = await postgres();
    if (!start.startsWith(PG_DUMP_MAGIC))
      throw new Error(`${file} is not a pg_dump custom-format archive (DATABASE_URL is set: restoring into PostgreSQL).`);
    await restorePostgres(file, checkUrl(config.databaseUrl));
    return `Restored ${file} into the PostgreSQL database.`;
  }
  if (start !== SQLITE_MAGIC)
    throw new Error(`${file} is not a SQLite database (DATABASE_URL is unset: restoring into ${config.databaseFile}).`);
  const { previous } = restoreSqlite(file, config.databaseFile);
  return `Restored ${file} to ${config.databaseFile}${previous ? `; the database it replaced is ${previous}` : ''}.`;
}
