// The server's SQLite migrations, applied from a worker thread before it opens its own connection
// (issue 27 point 5): better-sqlite3 is synchronous, so a migration run on the main thread (a long
// one, or one waiting up to DB_BUSY_TIMEOUT_MS for another process's lock) would block the event
// loop, and GET /api/ready could not answer its 503 `migrating`. The worker runs the same loop as
// migrate.ts (one IMMEDIATE transaction per migration, the version read again under the lock), with
// the serving connection's pragmas; openDatabase's migrate() then finds nothing left to do (and
// would still apply anything the worker did not).
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Worker } from 'node:worker_threads';
import { DEFAULT_BUSY_TIMEOUT_MS } from './connection.js';
import { loadMigrations } from './migrate.js';

// Plain JS evaluated in the worker (no TypeScript loader there), as the checkpointer (connection.ts).
const MIGRATOR = `
const { workerData, parentPort } = require('node:worker_threads');
const Database = require(workerData.module);
let db;
try {
  db = new Database(workerData.file, { timeout: workerData.busyTimeoutMs });
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('temp_store = MEMORY');
  const version = () => db.pragma('user_version', { simple: true });
  for (const migration of workerData.migrations) {
    if (migration.version <= version()) continue;
    db.transaction(() => {
      if (migration.version <= version()) return;
      db.exec(migration.sql);
      db.pragma('user_version = ' + migration.version);
    }).immediate();
  }
  parentPort.postMessage({ ok: true });
} catch (error) {
  parentPort.postMessage({ ok: false, message: String((error && error.message) || error), code: error && error.code });
} finally {
  if (db) db.close();
}
`;

/** Applies the pending migrations to `file` off the main thread; rejects with the migration's error. */
export function migrateInWorker(file: string, busyTimeoutMs: number): Promise<void> {
  mkdirSync(dirname(file), { recursive: true });
  const migrations = loadMigrations().map(({ version, sql }) => ({ version, sql }));
  const worker = new Worker(MIGRATOR, {
    eval: true,
    workerData: {
      file,
      busyTimeoutMs: Number.isFinite(busyTimeoutMs) && busyTimeoutMs >= 0 ? Math.floor(busyTimeoutMs) : DEFAULT_BUSY_TIMEOUT_MS,
      migrations,
      module: createRequire(import.meta.url).resolve('better-sqlite3'),
    },
  });
  return new Promise<void>((resolve, reject) => {
    worker.once('message', (answer: { ok: boolean; message?: string; code?: string }) => {
      if (answer.ok) return resolve();
      // As the main thread's error would be (a SQLITE_BUSY code keeps meaning "busy").
      reject(Object.assign(new Error(answer.message), answer.code ? { code: answer.code } : {}));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the migration worker exited (${code}) before it answered`)));
  });
}
