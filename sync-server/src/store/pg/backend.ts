// The PostgreSQL backend: the store, the LISTEN/NOTIFY change feed and the rate-limit counts on
// one database. backend.ts imports this module only when DATABASE_URL is set, so a SQLite
// server never loads the `pg` driver.
import pg from 'pg';
import type { ChangeFeed } from '../../domain/change-feed.js';
import type { LimitBackend } from '../../http/limit-backend.js';
import type { Store } from '../types.js';
import type { Config } from '../../config.js';
import { logger } from '../../observe/logger.js';
import { createPgChangeFeed } from './change-feed.js';
import { createPgLimitBackend } from './limit-backend.js';
import { createPgStore, type PgStoreOptions } from './store.js';

export { createPgStore } from './store.js';
export { backupPostgres, PG_DUMP_MAGIC, restorePostgres } from './backup.js';

type Log = (message: string, error: unknown) => void;

export async function openPgBackend(
  connectionString: string,
  config: Pick<Config, 'pgPoolMax' | 'dbBusyTimeoutMs'> & Partial<Pick<Config, 'replicaMaxLagSeconds' | 'pgPreparedStatements'>>,
  readConnectionString: string | undefined,
  log: Log | undefined,
  keptVersions?: PgStoreOptions['keptVersions'],
): Promise<{ store: Store; changes: ChangeFeed; limits: LimitBackend; close(): Promise<void> }> {
  const store = await createPgStore({
    connectionString,
    max: config.pgPoolMax,
    busyTimeoutMs: config.dbBusyTimeoutMs,
    ...(config.pgPreparedStatements !== undefined ? { preparedStatements: config.pgPreparedStatements } : {}),
    // Reads of GET requests and sync pulls on a streaming replica (store/pg/replica.ts).
    ...(readConnectionString ? { readConnectionString } : {}),
    ...(config.replicaMaxLagSeconds !== undefined ? { replicaMaxLagSeconds: config.replicaMaxLagSeconds } : {}),
    ...(log ? { log } : {}),
    ...(keptVersions ? { keptVersions } : {}),
  });
  const changes = createPgChangeFeed({ connectionString, ...(log ? { log } : {}) });
  await changes.ready;
  // Another process's write arrives as its change message: the kept versions are read again at once
  // (store/pg/kept-versions.ts). This process's own messages come back here too (a harmless extra read).
  const unsubscribe = changes.subscribe(() => store.versions?.changedElsewhere());
  // The counts take a couple of short transactions per request: a small pool of their own.
  const limitsPool = new pg.Pool({ connectionString, max: 4 });
  // An idle connection the server ends (a restart, an idle timeout, a pooler) is replaced on the
  // next use; unheard, the pool's 'error' event would take the process down.
  limitsPool.on('error', (error) =>
    (log ?? ((message, err) => logger.error({ err }, message)))('rate limits: an idle PostgreSQL connection failed', error),
  );
  const limits = await createPgLimitBackend(limitsPool, log ? { log } : {});
  return {
    store,
    changes,
    limits,
    async close() {
      unsubscribe();
      await limits.close();
      await limitsPool.end();
      await changes.close();
      await store.close();
    },
  };
}
